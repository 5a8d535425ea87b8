//! Contribution imports (ActBlue and WinRed exports, or any file with a user's column mapping). The stored upload
//! is streamed row by row on a blocking thread, checked, and copied into a staging table; a handful of set-based
//! statements then add the new lines, mark refunds, create the donors who are not contacts yet, record every
//! reference code and attribute the new gifts — all in the job's one transaction, so a bad row or a crash leaves
//! nothing behind and a re-import of the same export changes nothing.

mod fields;
mod staging;
mod values;

use super::table;
use super::{download, truncate};
use domain::Email;
use domain::{CodePattern, ParsedCode};
use jobs::import::contributions::{ContributionPlan, GiftField, Platform};
use jobs::import::Format;
use jobs::{JobError, JobResult};
use serde_json::json;
use sqlx::PgConnection;
use std::collections::{BTreeMap, HashMap};

use fields::*;
use staging::*;
use store::imports::contributions::{self, Merged};
use values::*;

/// The client's revenue settings the import needs.
struct Settings {
    time_zone: String,
    origin_code: String,
    refcode_pattern: String,
    window_days: i32,
}

async fn settings(conn: &mut PgConnection, platform: Platform) -> Result<Settings, JobError> {
    let contributions::ImportSettings {
        time_zone,
        actblue_origin_code: actblue,
        winred_origin_code: winred,
        refcode_pattern,
        attribution_window_days: window_days,
        zone_known,
    } = contributions::settings(conn).await?;
    if !zone_known {
        return Err(JobError::BadFile(format!(
            "The time zone in the app settings ({time_zone}) is not a known zone"
        )));
    }
    let origin_code = match platform {
        Platform::Winred => winred,
        // A mapped file's donors are still donors from a platform; the ActBlue code is the client's default.
        Platform::Actblue | Platform::Mapped => actblue,
    };
    Ok(Settings {
        time_zone,
        origin_code,
        refcode_pattern,
        window_days,
    })
}

/// Runs a contributions import inside the job's transaction.
pub async fn run(conn: &mut PgConnection, plan: &ContributionPlan) -> Result<JobResult, JobError> {
    let started = std::time::Instant::now();
    let settings = settings(conn, plan.platform).await?;
    let file = download(conn, plan.upload_id).await?;
    contributions::create_staging(conn).await?;

    let (tx, mut rx) = tokio::sync::mpsc::channel::<Batch>(4);
    let parser = spawn_parser(
        file.path().to_path_buf(),
        plan.clone(),
        CodePattern::new(&settings.refcode_pattern),
        tx,
    );
    let mut copy = contributions::copy_lines(conn).await?;
    let mut codes = Vec::new();
    while let Some(batch) = rx.recv().await {
        match batch {
            Batch::Lines(bytes) => {
                copy.send(bytes).await?;
            }
            Batch::Codes(bytes) => codes = bytes,
        }
    }
    let parsed = match parser.await? {
        Ok(parsed) => {
            copy.finish().await?;
            parsed
        }
        Err(e) => {
            let _ = copy.abort("parse failed").await;
            return Err(e);
        }
    };
    drop(file);
    let mut copy = contributions::copy_codes(conn).await?;
    copy.send(codes).await?;
    copy.finish().await?;
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        rows = parsed.rows_read,
        "contribution rows staged"
    );

    let merged = contributions::merge(
        conn,
        stored(plan.platform),
        &settings.origin_code,
        &settings.time_zone,
        settings.window_days,
    )
    .await?;
    store::imports::delete_upload(conn, plan.upload_id).await?;
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        "contributions merged"
    );
    Ok(report(parsed, merged))
}

fn report(parsed: Parsed, m: Merged) -> JobResult {
    let skipped_total: i64 = parsed.skipped.values().map(|(n, _)| n).sum();
    let already_known = m.unique - m.new_lines - m.refunds_marked;
    let mut skipped = serde_json::Map::new();
    for (reason, (n, rows)) in &parsed.skipped {
        skipped.insert(reason.key().to_owned(), json!({ "count": n, "rows": rows }));
    }
    let nul_rows = parsed
        .skipped
        .get(&Skip::NulByte)
        .map(|(count, rows)| table::NulRows {
            count: *count,
            rows: rows.clone(),
        })
        .unwrap_or_default();
    let message = format!(
        "Read {} rows: {} new lines, {} marked refunded, {} already known; {} duplicates in file, {} skipped.{}",
        parsed.rows_read,
        m.new_lines,
        m.refunds_marked,
        already_known,
        m.duplicates,
        skipped_total,
        nul_rows.sentence()
    );
    JobResult {
        message,
        link: Some("/revenue/contributions".to_owned()),
        segment_id: None,
        details: json!({
            "rowsRead": parsed.rows_read,
            "newLines": m.new_lines,
            "updated": m.refunds_marked,
            "duplicatesInFile": { "count": m.duplicates, "rows": m.duplicate_rows },
            "alreadyKnown": already_known,
            "contactsCreated": m.contacts_created,
            "sourceCodesCreated": m.source_codes_created,
            "attributed": { "refcode": m.by_refcode, "click": m.by_click },
            "skipped": skipped,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_without_an_offset_are_local_and_with_one_are_instants() {
        assert!(matches!(
            parse_when("2026-03-01 10:20:30"),
            Some(When::Local(_))
        ));
        assert!(matches!(
            parse_when("3/1/2026 9:05 PM"),
            Some(When::Local(_))
        ));
        assert!(matches!(
            parse_when("2026-03-01T10:20:30-05:00"),
            Some(When::Instant(_))
        ));
        assert!(matches!(
            parse_when("2026-03-01 10:20:30+00"),
            Some(When::Instant(_))
        ));
        assert_eq!(parse_when("March first"), None);
    }

    #[test]
    fn actblue_headers_are_found_by_name_whatever_else_is_there() {
        let plan = ContributionPlan {
            upload_id: 1,
            filename: "a.csv".into(),
            platform: Platform::Actblue,
            mapping: BTreeMap::new(),
        };
        let header: Vec<String> = [
            "\u{feff}Receipt ID",
            "Reserved",
            "Date",
            "Reserved",
            "Amount",
            "Lineitem ID",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let found = resolve(&plan, &header).unwrap();
        assert_eq!(found[&GiftField::LineItemId], 5);
        assert_eq!(found[&GiftField::Date], 2);
        let err = resolve(&plan, &header[..3]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "This is not an ActBlue contributions export: it has no column 'Lineitem ID', 'Amount'"
        );
    }
}
