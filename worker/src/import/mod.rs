//! Contact imports: an uploaded file (stored in the client's schema, so any worker host can read it) is streamed
//! row by row into a staging table with `COPY`, then merged into contacts and list memberships by a few set-based
//! statements. Everything happens in the job's one transaction: a crash or retry leaves no half import, and a
//! re-run finds the rows already there (every insert is `on conflict do nothing`).

mod columns;
pub mod contributions;
pub mod external_mailings;
pub mod media;
mod merge;
mod parse;
pub mod table;

pub use table::{set_file_limits, FileLimits};

use columns::*;
use merge::*;
use parse::*;

use chrono::{NaiveDate, NaiveDateTime, Utc};
use domain::Email;
use futures::TryStreamExt;
use jobs::import::{Columns, Field, Format, ImportPlan};
use jobs::{JobError, JobResult};
use serde_json::json;
use sqlx::PgConnection;
use std::collections::BTreeMap;
use std::io::Write;

fn truncate(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// Writes the stored upload to a private temp file, chunk by chunk.
async fn download(
    conn: &mut PgConnection,
    upload_id: i64,
) -> Result<tempfile::NamedTempFile, JobError> {
    let mut file = tempfile::NamedTempFile::new().map_err(JobError::file)?;
    let mut chunks = store::imports::upload_chunks(conn, upload_id);
    let mut any = false;
    while let Some(chunk) = chunks.try_next().await? {
        any = true;
        file.write_all(&chunk).map_err(JobError::file)?;
    }
    drop(chunks);
    if !any {
        return Err(JobError::BadFile(
            "The uploaded file is missing or empty".to_owned(),
        ));
    }
    file.flush().map_err(JobError::file)?;
    Ok(file)
}

/// Runs an import inside the job's transaction.
pub async fn run(conn: &mut PgConnection, plan: &ImportPlan) -> Result<JobResult, JobError> {
    let started = std::time::Instant::now();
    let file = download(conn, plan.upload_id).await?;
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        "upload read"
    );
    store::imports::contacts::create_staging(conn).await?;

    let (tx, mut rx) = tokio::sync::mpsc::channel::<Vec<u8>>(4);
    let parser = spawn_parser(file.path().to_path_buf(), plan.clone(), tx);
    let mut copy = store::imports::contacts::copy_staging(conn).await?;
    while let Some(batch) = rx.recv().await {
        copy.send(batch).await?;
    }
    let counts = match parser.await? {
        Ok(counts) => {
            copy.finish().await?;
            counts
        }
        Err(e) => {
            let _ = copy.abort("parse failed").await;
            return Err(e);
        }
    };
    drop(file);
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        rows = counts.rows_read,
        "rows staged"
    );

    let list_id = match &plan.list_name {
        Some(name) => Some(store::imports::contacts::create_upload_list(conn, name).await?),
        None => None,
    };
    let merged = if matches!(plan.columns, Columns::Ngp) {
        merge_ngp(conn).await?
    } else {
        merge_contacts(conn, plan, list_id).await?
    };
    store::imports::delete_upload(conn, plan.upload_id).await?;
    Ok(report(plan, list_id, counts, merged))
}

fn report(plan: &ImportPlan, list_id: Option<i64>, counts: Counts, m: Merged) -> JobResult {
    let skipped = counts.empty
        + counts.nul_byte.count
        + counts.invalid_email
        + counts.invalid_vanid
        + counts.invalid_date
        + counts.outside_window
        + m.duplicates;
    let nul_rows = counts.nul_byte.sentence();
    let (mut message, link) = match (&plan.columns, list_id) {
        (Columns::Ngp, _) => (
            format!(
                "Read {} rows: {} contacts created, {} updated; {} skipped.",
                counts.rows_read, m.created, m.matched, skipped
            ),
            "/segments/origin-codes".to_owned(),
        ),
        (_, Some(list)) => (
            format!(
                "Read {} rows: {} contacts created, {} matched, {} added to the list; {} skipped.",
                counts.rows_read, m.created, m.matched, m.added, skipped
            ),
            format!("/crm-list-detail/{list}"),
        ),
        (_, None) => (
            format!(
                "Read {} rows: {} contacts created, {} matched; {} skipped.",
                counts.rows_read, m.created, m.matched, skipped
            ),
            "/contacts".to_owned(),
        ),
    };
    message.push_str(&nul_rows);
    JobResult {
        message,
        link: Some(link),
        segment_id: None,
        details: json!({
            "rowsRead": counts.rows_read,
            "uniqueEmails": m.unique,
            "contactsCreated": m.created,
            "matched": m.matched,
            "originCodesOverwritten": m.updated,
            "addedToList": m.added,
            "notCreated": m.not_created,
            "skipped": {
                "empty": counts.empty,
                "nulByte": counts.nul_byte.count,
                "invalidEmail": counts.invalid_email,
                "invalidVanid": counts.invalid_vanid,
                "invalidDate": counts.invalid_date,
                "outsideDateWindow": counts.outside_window,
                "duplicateInFile": m.duplicates,
            },
            "nulByteRows": counts.nul_byte.rows,
        }),
    }
}
