//! Media imports: a Meta Ads Manager or Google Ads export (or any file with a user's column mapping) read row by
//! row and written by `store::media::upsert_days` in the job's one transaction. The key is (platform, ad, day), so
//! a retried or repeated import replaces the same days and never double counts.

use super::download;
use super::table;
use jobs::import::media::MediaPlan;
use jobs::import::Format;
use jobs::{JobError, JobResult};
use serde_json::json;
use sqlx::PgConnection;
use store::media::import::{parse_row, resolve, AdDay, Skip};

/// A header is looked for in the first rows: Google's export opens with a title and a date-range line.
const HEADER_SEARCH_ROWS: usize = 10;
/// More rows than a daily ad export of a large account holds in years.
const MAX_ROWS: usize = 2_000_000;

/// What a media file holds: its ad days, and the rows left out (empty, totals, a NUL byte).
struct Read {
    days: Vec<AdDay>,
    empty: i64,
    totals: i64,
    nul: table::NulRows,
}

fn read(path: std::path::PathBuf, plan: MediaPlan) -> Result<Read, JobError> {
    let format = Format::from_filename(&plan.filename, false)
        .ok_or_else(|| JobError::BadFile("Unsupported file type".to_owned()))?;
    let mut rows = table::open(&path, format)?;
    let mut first_error = None;
    let mut seen = 0usize;
    let (header, columns, header_row) = loop {
        let Some(row) = rows.next() else {
            return Err(JobError::BadFile(
                first_error.unwrap_or_else(|| "The file is empty".to_owned()),
            ));
        };
        let row = row?;
        seen += 1;
        if row.iter().all(|c| c.is_empty()) {
            continue;
        }
        match resolve(plan.platform, &plan.mapping, &row) {
            Ok(columns) => break (row, columns, seen),
            Err(e) => {
                first_error.get_or_insert(e);
                if seen >= HEADER_SEARCH_ROWS {
                    return Err(JobError::BadFile(first_error.unwrap_or_default()));
                }
            }
        }
    };
    let mut days = Vec::new();
    let (mut empty, mut totals) = (0i64, 0i64);
    let mut nul = table::NulRows::default();
    for (index, row) in rows.enumerate() {
        let row_no = (header_row + index + 1) as i64;
        let row = row?;
        if table::has_nul(&row) {
            nul.note(row_no);
            continue;
        }
        match parse_row(&columns, &header, &row, row_no).map_err(JobError::BadFile)? {
            Ok(day) => days.push(day),
            Err(Skip::Empty) => empty += 1,
            Err(Skip::Total) => totals += 1,
        }
        if days.len() > MAX_ROWS {
            return Err(JobError::BadFile(format!(
                "The file has more than {MAX_ROWS} rows"
            )));
        }
    }
    if days.is_empty() {
        return Err(JobError::BadFile(
            "The file has a header but no ad rows".to_owned(),
        ));
    }
    Ok(Read {
        days,
        empty,
        totals,
        nul,
    })
}

/// Runs a media import inside the job's transaction.
pub async fn run(conn: &mut PgConnection, plan: &MediaPlan) -> Result<JobResult, JobError> {
    let file = download(conn, plan.upload_id).await?;
    let path = file.path().to_path_buf();
    let owned = plan.clone();
    let Read {
        days,
        empty,
        totals,
        nul,
    } = tokio::task::spawn_blocking(move || read(path, owned)).await??;
    drop(file);
    let counts = store::media::upsert_days(conn, plan.platform, &days).await?;
    let message = format!(
        "Imported {} ad days ({} new, {} replaced) for {} ads in {} campaigns.{}",
        counts.new_days + counts.replaced_days,
        counts.new_days,
        counts.replaced_days,
        counts.ads,
        counts.campaigns,
        nul.sentence()
    );
    Ok(JobResult {
        message,
        link: Some("/media".to_owned()),
        segment_id: None,
        details: json!({
            "rowsRead": days.len() as i64 + empty + totals + nul.count,
            "emptyRows": empty,
            "totalRows": totals,
            "nulByteRows": nul.details(),
            "counts": counts,
        }),
    })
}
