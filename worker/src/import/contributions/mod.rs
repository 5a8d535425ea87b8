//! Contribution imports (ActBlue and WinRed exports, or any file with a user's column mapping). The stored upload
//! is streamed row by row on a blocking thread, checked, and copied into a staging table; a handful of set-based
//! statements then add the new lines, mark refunds, create the donors who are not contacts yet, record every
//! reference code and attribute the new gifts — all in the job's one transaction, so a bad row or a crash leaves
//! nothing behind and a re-import of the same export changes nothing.

mod fields;
mod staging;
mod values;

use super::table::{self, Format};
use super::{download, truncate};
use crate::{JobError, JobResult};
use chrono::{DateTime, NaiveDate, NaiveDateTime};
use domain::Email;
use domain::{CodePattern, ParsedCode};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgConnection;
use std::collections::{BTreeMap, HashMap};

pub use fields::{GiftField, Platform};
pub use values::{parse_amount, split_date};

use fields::*;
use staging::*;
use values::*;

/// Everything a contributions import needs, stored as the job's payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContributionPlan {
    pub upload_id: i64,
    pub filename: String,
    pub platform: Platform,
    /// For `Mapped`: file column header → field.
    #[serde(default)]
    pub mapping: BTreeMap<String, GiftField>,
}

/// The client's revenue settings the import needs.
struct Settings {
    time_zone: String,
    origin_code: String,
    refcode_pattern: String,
    window_days: i32,
}

async fn settings(conn: &mut PgConnection, platform: Platform) -> Result<Settings, JobError> {
    let (time_zone, actblue, winred, refcode_pattern, window_days, zone_known): (
        String,
        String,
        String,
        String,
        i32,
        bool,
    ) = sqlx::query_as(
        "select time_zone, actblue_origin_code, winred_origin_code, refcode_pattern, attribution_window_days,
                exists (select 1 from pg_timezone_names where name = time_zone)
         from app_settings limit 1",
    )
    .fetch_one(&mut *conn)
    .await?;
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
    sqlx::query(
        "create temp table contrib_staging (
             row_no bigint, line_item_id text, receipt_id text, paid_local timestamp, paid_abs timestamptz,
             amount numeric(14, 2), fee numeric(14, 2), email text, first_name text, last_name text, zip text,
             state text, phone text, recurring_months integer, recurrence_number integer, refcode text,
             refcode2 text, fundraising_page text, refund_id text, refund_local timestamp, refund_abs timestamptz,
             ab_test_name text, ab_variation text, mobile boolean, express_signup boolean
         ) on commit drop",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "create temp table contrib_codes (
             code text, parsed boolean, channel text, code_date date, campaign text, variant text
         ) on commit drop",
    )
    .execute(&mut *conn)
    .await?;

    let (tx, mut rx) = tokio::sync::mpsc::channel::<Batch>(4);
    let parser = spawn_parser(
        file.path().to_path_buf(),
        plan.clone(),
        CodePattern::new(&settings.refcode_pattern),
        tx,
    );
    // Empty unquoted cells are NULL in COPY's CSV format: an absent value stays absent.
    let mut copy = conn
        .copy_in_raw(&format!(
            "copy contrib_staging ({STAGING_COLUMNS}) from stdin with (format csv)"
        ))
        .await?;
    let mut codes = Vec::new();
    while let Some(batch) = rx.recv().await {
        match batch {
            Batch::Lines(bytes) => {
                copy.send(bytes).await?;
            }
            Batch::Codes(bytes) => codes = bytes,
        }
    }
    let parsed = match parser.await.map_err(|e| JobError::Io(e.to_string()))? {
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
    let mut copy = conn
        .copy_in_raw(
            "copy contrib_codes (code, parsed, channel, code_date, campaign, variant) from stdin with (format csv)",
        )
        .await?;
    copy.send(codes).await?;
    copy.finish().await?;
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        rows = parsed.rows_read,
        "contribution rows staged"
    );

    let merged = merge(conn, plan.platform, &settings).await?;
    sqlx::query("delete from uploads where id = $1")
        .bind(plan.upload_id)
        .execute(&mut *conn)
        .await?;
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        "contributions merged"
    );
    Ok(report(parsed, merged))
}

#[derive(Debug, Default)]
struct Merged {
    unique: i64,
    duplicates: i64,
    duplicate_rows: Vec<i64>,
    new_lines: i64,
    refunds_marked: i64,
    contacts_created: i64,
    source_codes_created: i64,
    by_refcode: i64,
    by_click: i64,
}

async fn count(conn: &mut PgConnection, sql: &'static str) -> Result<i64, JobError> {
    Ok(sqlx::query_scalar(sql).fetch_one(&mut *conn).await?)
}

async fn merge(
    conn: &mut PgConnection,
    platform: Platform,
    settings: &Settings,
) -> Result<Merged, JobError> {
    let staged = count(conn, "select count(*) from contrib_staging").await?;
    // One row per line: a refund row wins over the paid row of the same line, else the first row.
    sqlx::query(
        "create temp table contrib_lines on commit drop as
         select distinct on (line_item_id) * from contrib_staging
         order by line_item_id, (refund_id is null), row_no",
    )
    .execute(&mut *conn)
    .await?;
    let unique = count(conn, "select count(*) from contrib_lines").await?;
    let duplicate_rows: Vec<i64> = sqlx::query_scalar(
        "select row_no from contrib_staging except select row_no from contrib_lines order by 1 limit 1000",
    )
    .fetch_all(&mut *conn)
    .await?;
    sqlx::query("analyze contrib_lines")
        .execute(&mut *conn)
        .await?;

    // Donors who are not contacts yet become contacts with the platform's origin code; a known contact's origin
    // code is never touched.
    sqlx::query(
        "insert into origin_codes (name)
         select $1 where exists (
             select 1 from contrib_lines l
             where l.email is not null and not exists (select 1 from contacts c where c.email = l.email))
         on conflict (name) do nothing",
    )
    .bind(&settings.origin_code)
    .execute(&mut *conn)
    .await?;
    let contacts_created = sqlx::query(
        "insert into contacts (email, first_name, last_name, phone, origin_code_id)
         select distinct on (l.email) l.email, coalesce(l.first_name, ''), coalesce(l.last_name, ''), l.phone,
                (select o.id from origin_codes o where o.name = $1)
         from contrib_lines l
         where l.email is not null and not exists (select 1 from contacts c where c.email = l.email)
         order by l.email, l.row_no
         on conflict (email) do nothing",
    )
    .bind(&settings.origin_code)
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;

    let source_codes_created = sqlx::query(
        "insert into source_codes (code, parsed, channel, code_date, campaign, variant)
         select code, parsed, channel, code_date, campaign, variant from contrib_codes
         on conflict (code) do nothing",
    )
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;

    // Each new line is attributed as it is written (the rules of `attribute` below): updating a million fresh
    // rows afterwards would write every row and every index twice and re-run the rollup trigger over both
    // versions. `attributed` counts each rule's lines.
    let attributed: Vec<(String, i64)> = sqlx::query_as(
        "with new_lines as (
             insert into contributions (
                 platform, line_item_id, receipt_id, paid_at, amount, fee, contact_id, email, first_name, last_name,
                 zip, state, phone, recurring_months, recurrence_number, refcode, refcode2, source_code_id,
                 fundraising_page, refund_id, refunded_at, ab_test_name, ab_variation, mobile, express_signup,
                 mailing_id, attribution)
             select $1, l.line_item_id, l.receipt_id, l.paid_at, l.amount, l.fee, c.id, l.email, l.first_name,
                    l.last_name, l.zip, l.state, l.phone, l.recurring_months, l.recurrence_number, l.refcode,
                    l.refcode2, sc.id, l.fundraising_page, l.refund_id,
                    case when l.refund_id is not null
                         then coalesce(l.refund_abs, l.refund_local at time zone $2, now()) end,
                    l.ab_test_name, l.ab_variation, l.mobile, l.express_signup,
                    coalesce(sc.mailing_id, click.mailing_id),
                    case when sc.mailing_id is not null then 'refcode'
                         when click.mailing_id is not null then 'click' else 'none' end
             from (select *, coalesce(paid_abs, paid_local at time zone $2) as paid_at from contrib_lines) l
             left join contacts c on c.email = l.email
             left join source_codes sc on sc.code = l.refcode
             left join lateral (
                 select e.mailing_id from mailing_events e
                 where sc.mailing_id is null and e.contact_id = c.id and e.kind = 'click' and not e.machine
                   and e.created <= l.paid_at and e.created >= l.paid_at - make_interval(days => $3)
                 order by e.created desc, e.id desc limit 1
             ) click on true
             on conflict (platform, line_item_id) do nothing
             returning attribution
         )
         select attribution, count(*) from new_lines group by 1",
    )
    .bind(platform.stored())
    .bind(&settings.time_zone)
    .bind(settings.window_days)
    .fetch_all(&mut *conn)
    .await?;
    let by_rule = |rule: &str| {
        attributed
            .iter()
            .filter(|(r, _)| r == rule)
            .map(|(_, n)| n)
            .sum::<i64>()
    };
    let new_lines = attributed.iter().map(|(_, n)| n).sum::<i64>();
    let (by_refcode, by_click) = (by_rule("refcode"), by_rule("click"));

    // A refund row marks the known line refunded; a line already marked stays as it is.
    let refunds_marked = sqlx::query(
        "update contributions k
         set refund_id = l.refund_id,
             refunded_at = coalesce(l.refund_abs, l.refund_local at time zone $2, now())
         from contrib_lines l
         where k.platform = $1 and k.line_item_id = l.line_item_id
           and l.refund_id is not null and k.refund_id is null",
    )
    .bind(platform.stored())
    .bind(&settings.time_zone)
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;

    Ok(Merged {
        unique,
        duplicates: staged - unique,
        duplicate_rows,
        new_lines,
        refunds_marked,
        contacts_created,
        source_codes_created,
        by_refcode,
        by_click,
    })
}

/// Attributes the gifts this transaction added (their `imported` is the transaction's `now()`):
/// 1. a gift whose reference code is tied to a mailing belongs to that mailing (`refcode`);
/// 2. otherwise to the mailing whose last human click by the same contact came within the attribution window
///    before the gift (`click`);
/// 3. otherwise to none.
pub async fn attribute(conn: &mut PgConnection, window_days: i32) -> Result<(i64, i64), JobError> {
    let by_refcode = sqlx::query(
        "update contributions c set mailing_id = sc.mailing_id, attribution = 'refcode'
         from source_codes sc
         where c.imported = now() and c.source_code_id = sc.id and sc.mailing_id is not null",
    )
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;
    let by_click = sqlx::query(
        "update contributions c set mailing_id = last_click.mailing_id, attribution = 'click'
         from (
             select g.id,
                    (select e.mailing_id from mailing_events e
                     where e.contact_id = g.contact_id and e.kind = 'click' and not e.machine
                       and e.created <= g.paid_at and e.created >= g.paid_at - make_interval(days => $1)
                     order by e.created desc, e.id desc limit 1) as mailing_id
             from contributions g
             where g.imported = now() and g.attribution = 'none' and g.contact_id is not null
         ) last_click
         where c.id = last_click.id and last_click.mailing_id is not null",
    )
    .bind(window_days)
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;
    Ok((by_refcode, by_click))
}

fn report(parsed: Parsed, m: Merged) -> JobResult {
    let skipped_total: i64 = parsed.skipped.values().map(|(n, _)| n).sum();
    let already_known = m.unique - m.new_lines - m.refunds_marked;
    let mut skipped = serde_json::Map::new();
    for (reason, (n, rows)) in &parsed.skipped {
        skipped.insert(reason.key().to_owned(), json!({ "count": n, "rows": rows }));
    }
    let message = format!(
        "Read {} rows: {} new lines, {} marked refunded, {} already known; {} duplicates in file, {} skipped.",
        parsed.rows_read, m.new_lines, m.refunds_marked, already_known, m.duplicates, skipped_total
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
    fn amounts_forgive_dollar_signs_and_thousands_separators_only() {
        for (raw, want) in [
            ("12.5", Some("12.5")),
            ("$1,234.56", Some("1234.56")),
            (" $ 5 ", Some("5")),
            ("-$3.00", Some("-3.00")),
            ("$-3.00", Some("-3.00")),
            ("(7.25)", Some("-7.25")),
            (".99", Some("0.99")),
            ("12.345", None),
            ("1,23", None),
            ("ten", None),
            ("", None),
            ("12.", None),
            ("=1+1", None),
        ] {
            assert_eq!(parse_amount(raw).as_deref(), want, "{raw:?}");
        }
    }

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
