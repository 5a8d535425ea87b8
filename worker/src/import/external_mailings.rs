//! External mailings imports: another e-mail platform's or lemlist's campaign report read row by row and written
//! by `store::external_mailings::upsert` in the job's one transaction. A send is keyed on (platform, its id) or
//! (platform, name, send date), so a retried or repeated import replaces the same sends and never double counts.

use super::download;
use super::table;
use jobs::import::external_mailings::ExternalMailingsPlan;
use jobs::import::Format;
use jobs::{JobError, JobResult};
use serde_json::json;
use sqlx::PgConnection;
use store::external_mailings::import::{parse_row, resolve, ExternalSend};

/// More sends than a programme makes in decades.
const MAX_ROWS: usize = 200_000;
/// How many bad rows one failed import lists.
const MAX_ERRORS: usize = 10;

fn read(
    path: std::path::PathBuf,
    plan: ExternalMailingsPlan,
) -> Result<(Vec<ExternalSend>, i64, table::NulRows), JobError> {
    let format = Format::from_filename(&plan.filename, true)
        .ok_or_else(|| JobError::BadFile("Unsupported file type".to_owned()))?;
    let mut rows = table::open(&path, format)?;
    let mut header_row = 0usize;
    let header = loop {
        header_row += 1;
        match rows.next() {
            None => return Err(JobError::BadFile("The file is empty".to_owned())),
            Some(row) => {
                let row = row?;
                if row.iter().any(|c| !c.is_empty()) {
                    break row;
                }
            }
        }
    };
    let columns = resolve(&plan.mapping, &header).map_err(JobError::BadFile)?;
    let (mut sends, mut errors, mut empty) = (Vec::new(), Vec::new(), 0i64);
    let mut bad_rows = 0usize;
    let mut nul = table::NulRows::default();
    for (index, row) in rows.enumerate() {
        let row_no = (header_row + index + 1) as i64;
        let row = row?;
        if table::has_nul(&row) {
            nul.note(row_no);
            continue;
        }
        match parse_row(&columns, &header, &row, row_no, plan.source) {
            Ok(Some(send)) => sends.push(send),
            Ok(None) => empty += 1,
            Err(e) => {
                bad_rows += 1;
                if errors.len() < MAX_ERRORS {
                    errors.push(e);
                }
            }
        }
        if sends.len() > MAX_ROWS {
            return Err(JobError::BadFile(format!(
                "The file has more than {MAX_ROWS} rows"
            )));
        }
    }
    // One bad row fails the whole file: a programme's figures are imported entirely or not at all.
    if bad_rows > 0 {
        let more = bad_rows - errors.len();
        let tail = if more > 0 {
            format!(" (and {more} more rows)")
        } else {
            String::new()
        };
        return Err(JobError::BadFile(format!(
            "Nothing was imported: {}{tail}",
            errors.join("; ")
        )));
    }
    if sends.is_empty() {
        return Err(JobError::BadFile(
            "The file has a header but no mailing rows".to_owned(),
        ));
    }
    Ok((sends, empty, nul))
}

/// Runs an external mailings import inside the job's transaction.
pub async fn run(
    conn: &mut PgConnection,
    plan: &ExternalMailingsPlan,
) -> Result<JobResult, JobError> {
    let file = download(conn, plan.upload_id).await?;
    let path = file.path().to_path_buf();
    let owned = plan.clone();
    let (sends, empty, nul) = tokio::task::spawn_blocking(move || read(path, owned)).await??;
    drop(file);
    let counts = store::external_mailings::upsert(conn, &sends).await?;
    let message = format!(
        "Imported {} external mailings ({} new, {} updated).{}",
        counts.created + counts.updated,
        counts.created,
        counts.updated,
        nul.sentence()
    );
    Ok(JobResult {
        message,
        link: Some("/flights".to_owned()),
        segment_id: None,
        details: json!({
            "rowsRead": sends.len() as i64 + empty + nul.count,
            "emptyRows": empty,
            "nulByteRows": nul.details(),
            "counts": counts,
        }),
    })
}
