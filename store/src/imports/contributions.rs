//! Contribution imports: the client's revenue settings an import reads, the staging tables the parsed lines and
//! reference codes are copied into, and the set-based merge into contributions, contacts and source codes (the
//! attribution rules other writers of contributions share are `crate::revenue::attribute`).

use sqlx::postgres::PgCopyIn;
use sqlx::PgConnection;

/// The staging table's columns in the order the worker writes each CSV line.
const STAGING_COLUMNS: &str = "row_no, line_item_id, receipt_id, paid_local, paid_abs, amount, fee, email, \
     first_name, last_name, zip, state, phone, recurring_months, recurrence_number, refcode, refcode2, \
     fundraising_page, refund_id, refund_local, refund_abs, ab_test_name, ab_variation, mobile, express_signup";

/// The app settings an import reads, and whether the time zone is one Postgres knows.
#[derive(Debug)]
pub struct ImportSettings {
    pub time_zone: String,
    pub actblue_origin_code: String,
    pub winred_origin_code: String,
    pub refcode_pattern: String,
    pub attribution_window_days: i32,
    pub zone_known: bool,
}

pub async fn settings(conn: &mut PgConnection) -> Result<ImportSettings, sqlx::Error> {
    let (
        time_zone,
        actblue_origin_code,
        winred_origin_code,
        refcode_pattern,
        attribution_window_days,
        zone_known,
    ) = sqlx::query_as(
        "select time_zone, actblue_origin_code, winred_origin_code, refcode_pattern, attribution_window_days,
                exists (select 1 from pg_timezone_names where name = time_zone)
         from app_settings limit 1",
    )
    .fetch_one(conn)
    .await?;
    Ok(ImportSettings {
        time_zone,
        actblue_origin_code,
        winred_origin_code,
        refcode_pattern,
        attribution_window_days,
        zone_known,
    })
}

/// The temp tables of staged lines and of their reference codes, dropped with the transaction.
pub async fn create_staging(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
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
    Ok(())
}

/// Starts the `COPY` of CSV lines into the staging table. Empty unquoted cells are NULL in COPY's CSV format: an
/// absent value stays absent.
pub async fn copy_lines(
    conn: &mut PgConnection,
) -> Result<PgCopyIn<&mut PgConnection>, sqlx::Error> {
    conn.copy_in_raw(&format!(
        "copy contrib_staging ({STAGING_COLUMNS}) from stdin with (format csv)"
    ))
    .await
}

/// Starts the `COPY` of CSV reference codes (code, parsed, channel, code_date, campaign, variant).
pub async fn copy_codes(
    conn: &mut PgConnection,
) -> Result<PgCopyIn<&mut PgConnection>, sqlx::Error> {
    conn.copy_in_raw(
        "copy contrib_codes (code, parsed, channel, code_date, campaign, variant) from stdin with (format csv)",
    )
    .await
}

/// What a merge did, in lines unless named otherwise.
#[derive(Debug, Default)]
pub struct Merged {
    pub unique: i64,
    pub duplicates: i64,
    pub duplicate_rows: Vec<i64>,
    pub new_lines: i64,
    pub refunds_marked: i64,
    pub contacts_created: i64,
    pub source_codes_created: i64,
    pub by_refcode: i64,
    pub by_click: i64,
}

async fn count(conn: &mut PgConnection, sql: &'static str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(sql).fetch_one(&mut *conn).await
}

/// Merges the staged lines of `platform` (its stored name): donors who are not contacts become contacts with
/// `origin_code`, every reference code becomes a source code, and each new line is attributed to a mailing by
/// refcode, else by a click within `window_days`; local times are read in `time_zone`.
pub async fn merge(
    conn: &mut PgConnection,
    platform: &str,
    origin_code: &str,
    time_zone: &str,
    window_days: i32,
) -> Result<Merged, sqlx::Error> {
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
    .bind(origin_code)
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
    .bind(origin_code)
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

    // Each new line is attributed as it is written (the rules of `store::revenue::attribute`): updating a
    // million fresh rows afterwards would write every row and every index twice and re-run the rollup trigger
    // over both versions. `attributed` counts each rule's lines.
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
                    coalesce(ref.mailing_id, click.mailing_id),
                    case when ref.mailing_id is not null then 'refcode'
                         when click.mailing_id is not null then 'click' else 'none' end
             from (select *, coalesce(paid_abs, paid_local at time zone $2) as paid_at from contrib_lines) l
             left join contacts c on c.email = l.email
             left join source_codes sc on sc.code = l.refcode
             left join mailings sm on sm.id = sc.mailing_id
             left join mailing_recipients sr on sr.mailing_id = sc.mailing_id and sr.contact_id = c.id
             cross join lateral (
                 select case when l.paid_at >= coalesce(sr.sent_at, sm.send_attempt) then sc.mailing_id end
                     as mailing_id
             ) ref
             left join lateral (
                 select e.mailing_id from mailing_events e
                 where ref.mailing_id is null and e.contact_id = c.id and e.kind = 'click' and not e.machine
                   and e.created <= l.paid_at and e.created >= l.paid_at - make_interval(days => $3)
                 order by e.created desc, e.id desc limit 1
             ) click on true
             on conflict (platform, line_item_id) do nothing
             returning attribution
         )
         select attribution, count(*) from new_lines group by 1",
    )
    .bind(platform)
    .bind(time_zone)
    .bind(window_days)
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
    .bind(platform)
    .bind(time_zone)
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
