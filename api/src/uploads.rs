//! Uploaded files kept in the client's schema for the jobs that read them (list, contact, contribution and ads
//! imports), in 1 MB chunks so a large file is never held whole in memory.

use crate::error::ApiError;
use poem_openapi::types::multipart::Upload;
use tenancy::TenantTx;
use tokio::io::AsyncReadExt;
use worker::import::Format;

const CHUNK: usize = 1024 * 1024;

/// Stores the upload in the client's schema without reading it whole into memory.
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
    let id: i64 =
        sqlx::query_scalar("insert into uploads (filename, size) values ($1, $2) returning id")
            .bind(&filename)
            .bind(size)
            .fetch_one(&mut **tx)
            .await?;
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
        sqlx::query("insert into upload_chunks (upload_id, seq, data) values ($1, $2, $3)")
            .bind(id)
            .bind(seq)
            .bind(buf)
            .execute(&mut **tx)
            .await?;
        seq += 1;
    }
    Ok((id, filename))
}
