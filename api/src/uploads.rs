//! Uploaded files kept in the client's schema for the jobs that read them (list, contact, contribution and ads
//! imports), in 1 MB chunks so a large file is never held whole in memory; the job that reads one is queued in
//! the same transaction, and the column mappings those imports take are read here once.

use crate::error::ApiError;
use jobs::import::Format;
use poem_openapi::types::multipart::Upload;
use std::collections::BTreeMap;
use tenancy::TenantTx;
use tokio::io::AsyncReadExt;

const CHUNK: usize = 1024 * 1024;

/// Stores the upload in the client's schema without reading it whole into memory, in the transaction that queues
/// the job reading it (`ClientSession::enqueue`): a job never points at a missing file, and a refused file queues
/// nothing.
pub async fn store(
    tx: &mut TenantTx,
    upload: Upload,
    allow_txt: bool,
) -> Result<(i64, String), ApiError> {
    let filename = upload.file_name().unwrap_or("upload").to_owned();
    if Format::from_filename(&filename, allow_txt).is_none() {
        let kinds = if allow_txt {
            ".csv, .txt, .xls or .xlsx"
        } else {
            ".csv, .xls or .xlsx"
        };
        return Err(ApiError::BadRequest(format!("Upload a {kinds} file")));
    }
    if upload.size() == 0 {
        return Err(ApiError::BadRequest("The file is empty".to_owned()));
    }
    let size = upload.size() as i64;
    let id = store::uploads::insert(tx, &filename, size).await?;
    let mut reader = upload.into_async_read();
    let mut seq = 0i32;
    loop {
        let mut buf = Vec::with_capacity(CHUNK);
        let n = (&mut reader)
            .take(CHUNK as u64)
            .read_to_end(&mut buf)
            .await
            .map_err(ApiError::internal)?;
        if n == 0 {
            break;
        }
        store::uploads::add_chunk(tx, id, seq, buf).await?;
        seq += 1;
    }
    Ok((id, filename))
}

/// Reads a column mapping (JSON object: file column header → field id). Empty field ids are skipped; a field may
/// be mapped once, and every `required` field must be mapped.
pub fn column_mapping<F: Copy + PartialEq>(
    raw: &str,
    from_id: impl Fn(&str) -> Option<F>,
    label: impl Fn(F) -> &'static str,
    required: &[F],
) -> Result<BTreeMap<String, F>, ApiError> {
    let pairs: BTreeMap<String, String> = serde_json::from_str(raw).map_err(|_| {
        ApiError::BadRequest("mapping must be a JSON object of column → field".to_owned())
    })?;
    let mut mapping = BTreeMap::new();
    for (column, field) in pairs {
        if field.is_empty() {
            continue;
        }
        let field = from_id(&field)
            .ok_or_else(|| ApiError::BadRequest(format!("Unknown field {field:?}")))?;
        if mapping.values().any(|f| *f == field) {
            return Err(ApiError::BadRequest(format!(
                "{} is mapped twice",
                label(field)
            )));
        }
        mapping.insert(column, field);
    }
    for &required in required {
        if !mapping.values().any(|f| *f == required) {
            return Err(ApiError::BadRequest(format!(
                "Map a column to {}",
                label(required)
            )));
        }
    }
    Ok(mapping)
}

/// The mapping a mapped import must have: absent or blank is refused.
pub fn required_mapping(raw: Option<&str>) -> Result<&str, ApiError> {
    raw.map(str::trim)
        .filter(|r| !r.is_empty())
        .ok_or_else(|| ApiError::BadRequest("A mapped import needs a column mapping".to_owned()))
}
