//! The set-based merge of the staged lines into contributions, contacts and source codes, in the job's
//! transaction (the attribution rules other writers of contributions share are `store::revenue::attribute`).

use super::fields::stored;
use super::Settings;
use jobs::import::contributions::Platform;
use jobs::JobError;
use sqlx::PgConnection;

#[derive(Debug, Default)]
pub(super) struct Merged {
    pub(super) unique: i64,
    pub(super) duplicates: i64,
    pub(super) duplicate_rows: Vec<i64>,
    pub(super) new_lines: i64,
    pub(super) refunds_marked: i64,
    pub(super) contacts_created: i64,
    pub(super) source_codes_created: i64,
    pub(super) by_refcode: i64,
    pub(super) by_click: i64,
}

async fn count(conn: &mut PgConnection, sql: &'static str) -> Result<i64, JobError> {
    Ok(sqlx::query_scalar(sql).fetch_one(&mut *conn).await?)
}

pub(super) async fn merge(
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
    .bind(stored(platform))
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
    .bind(stored(platform))
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
