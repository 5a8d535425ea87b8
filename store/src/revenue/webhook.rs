//! The ActBlue webhook's statements: its credentials, and the writing of one client's group of webhooks in one
//! transaction (the api's `actblue_webhook::write` runs them in this order, then `attribute`).

use domain::ParsedCode;
use sqlx::PgConnection;

/// (user name, password hash) of the client's webhook credentials, when the settings row exists.
pub async fn credentials(
    conn: &mut PgConnection,
) -> Result<Option<(Option<String>, Option<String>)>, sqlx::Error> {
    sqlx::query_as(
        "select actblue_webhook_username, actblue_webhook_password_hash from app_settings limit 1",
    )
    .fetch_optional(conn)
    .await
}

/// Waits for, then holds until the transaction ends, the lock named `key`: one group per client at a time, since
/// two writers on one client's lines and rollups could deadlock.
pub async fn lock(conn: &mut PgConnection, key: &str) -> Result<(), sqlx::Error> {
    sqlx::query("select pg_advisory_xact_lock(hashtextextended($1, 0))")
        .bind(key)
        .execute(conn)
        .await?;
    Ok(())
}

/// (origin code of new contacts, refcode pattern, attribution window in days) from the client's settings.
pub async fn settings(conn: &mut PgConnection) -> Result<(String, String, i32), sqlx::Error> {
    sqlx::query_as(
        "select actblue_origin_code, refcode_pattern, attribution_window_days from app_settings limit 1",
    )
    .fetch_one(conn)
    .await
}

/// The group's line items, one per index of every column; `owners` is the index of the webhook each came from.
#[derive(Debug, Default)]
pub struct Lines {
    pub line_item_ids: Vec<String>,
    pub receipt_ids: Vec<Option<String>>,
    pub paid_abs: Vec<Option<String>>,
    pub paid_local: Vec<Option<String>>,
    pub amounts: Vec<String>,
    pub fees: Vec<Option<String>>,
    pub emails: Vec<Option<String>>,
    pub first_names: Vec<Option<String>>,
    pub last_names: Vec<Option<String>>,
    pub zips: Vec<Option<String>>,
    pub states: Vec<Option<String>>,
    pub phones: Vec<Option<String>>,
    pub months: Vec<Option<i32>>,
    pub refcodes: Vec<Option<String>>,
    pub refcode2s: Vec<Option<String>>,
    pub pages: Vec<Option<String>>,
    pub ab_test_names: Vec<Option<String>>,
    pub ab_variations: Vec<Option<String>>,
    pub mobile: Vec<Option<bool>>,
    pub express: Vec<Option<bool>>,
    pub owners: Vec<i32>,
    pub refunded_abs: Vec<Option<String>>,
    pub refunded_local: Vec<Option<String>>,
}

/// Creates the origin code new contacts get, when some line's e-mail is not a contact yet.
pub async fn ensure_origin_code(
    conn: &mut PgConnection,
    origin_code: &str,
    lines: &Lines,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into origin_codes (name)
         select $1 where exists (
             select 1 from unnest($2::text[]) e
             where e is not null and not exists (select 1 from contacts c where c.email = e))
         on conflict (name) do nothing",
    )
    .bind(origin_code)
    .bind(&lines.emails)
    .execute(conn)
    .await?;
    Ok(())
}

/// Creates the contacts the lines' e-mails name and that do not exist yet, with `origin_code`. E-mail order, so
/// concurrent groups lock contact rows in the same order.
pub async fn insert_contacts(
    conn: &mut PgConnection,
    origin_code: &str,
    lines: &Lines,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into contacts (email, first_name, last_name, phone, origin_code_id)
         select distinct on (email) email, coalesce(first_name, ''), coalesce(last_name, ''), phone,
                (select o.id from origin_codes o where o.name = $5)
         from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as t (email, first_name, last_name, phone)
         where email is not null
         order by email
         on conflict (email) do nothing",
    )
    .bind(&lines.emails)
    .bind(&lines.first_names)
    .bind(&lines.last_names)
    .bind(&lines.phones)
    .bind(origin_code)
    .execute(conn)
    .await?;
    Ok(())
}

/// Keeps a reference code with its parts, unless it is known already.
pub async fn insert_source_code(
    conn: &mut PgConnection,
    code: &str,
    parts: ParsedCode,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into source_codes (code, parsed, channel, code_date, campaign, variant)
             values ($1, $2, $3, $4, $5, $6) on conflict (code) do nothing",
    )
    .bind(code)
    .bind(parts.parsed)
    .bind(parts.channel)
    .bind(parts.date)
    .bind(parts.campaign)
    .bind(parts.variant)
    .execute(conn)
    .await?;
    Ok(())
}

/// Writes the lines not known yet; a refund beats the paid webhook of the same line within one group. Returns
/// (owner, refunded) for each line written.
pub async fn insert_lines(
    conn: &mut PgConnection,
    lines: &Lines,
) -> Result<Vec<(i32, bool)>, sqlx::Error> {
    sqlx::query_as(
        "insert into contributions (
             platform, line_item_id, receipt_id, paid_at, amount, fee, contact_id, email, first_name, last_name,
             zip, state, phone, recurring_months, refcode, refcode2, source_code_id, fundraising_page,
             ab_test_name, ab_variation, mobile, express_signup, refunded_at)
         select distinct on (t.line_item_id)
                'actblue', t.line_item_id, t.receipt_id,
                coalesce(t.paid_abs::timestamptz,
                         t.paid_local::timestamp at time zone (select time_zone from app_settings limit 1)),
                t.amount::numeric, t.fee::numeric, c.id, t.email, t.first_name, t.last_name, t.zip, t.state,
                t.phone, t.months, t.refcode, t.refcode2, sc.id, t.page, t.ab_test_name, t.ab_variation,
                t.mobile, t.express,
                coalesce(t.refunded_abs::timestamptz,
                         t.refunded_local::timestamp at time zone (select time_zone from app_settings limit 1))
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::int[], $14::text[],
                     $15::text[], $16::text[], $17::text[], $18::text[], $19::bool[], $20::bool[], $21::int[],
                     $22::text[], $23::text[])
              as t (line_item_id, receipt_id, paid_abs, paid_local, amount, fee, email, first_name, last_name,
                    zip, state, phone, months, refcode, refcode2, page, ab_test_name, ab_variation, mobile,
                    express, owner, refunded_abs, refunded_local)
         left join contacts c on c.email = t.email
         left join source_codes sc on sc.code = t.refcode
         -- A refund beats the paid webhook of the same line within one group.
         order by t.line_item_id, (t.refunded_abs is null and t.refunded_local is null)
         on conflict (platform, line_item_id) do nothing
         returning (select min(o) from unnest($1::text[], $21::int[]) as x (id, o) where x.id = line_item_id),
                   refunded_at is not null",
    )
    .bind(&lines.line_item_ids)
    .bind(&lines.receipt_ids)
    .bind(&lines.paid_abs)
    .bind(&lines.paid_local)
    .bind(&lines.amounts)
    .bind(&lines.fees)
    .bind(&lines.emails)
    .bind(&lines.first_names)
    .bind(&lines.last_names)
    .bind(&lines.zips)
    .bind(&lines.states)
    .bind(&lines.phones)
    .bind(&lines.months)
    .bind(&lines.refcodes)
    .bind(&lines.refcode2s)
    .bind(&lines.pages)
    .bind(&lines.ab_test_names)
    .bind(&lines.ab_variations)
    .bind(&lines.mobile)
    .bind(&lines.express)
    .bind(&lines.owners)
    .bind(&lines.refunded_abs)
    .bind(&lines.refunded_local)
    .fetch_all(conn)
    .await
}

/// Marks known lines a refund names as refunded, once: a line already refunded (or a replay) stays as it is.
/// Returns the owner of each line marked.
pub async fn mark_refunds(conn: &mut PgConnection, lines: &Lines) -> Result<Vec<i32>, sqlx::Error> {
    sqlx::query_scalar(
        "update contributions c
         set refunded_at = coalesce(t.refunded_abs::timestamptz,
                                    t.refunded_local::timestamp at time zone s.time_zone)
         from unnest($1::text[], $2::int[], $3::text[], $4::text[])
              as t (line_item_id, owner, refunded_abs, refunded_local)
         cross join app_settings s
         where c.platform = 'actblue' and c.line_item_id = t.line_item_id
           and (t.refunded_abs is not null or t.refunded_local is not null)
           and c.refunded_at is null and c.refund_id is null
         returning t.owner",
    )
    .bind(&lines.line_item_ids)
    .bind(&lines.owners)
    .bind(&lines.refunded_abs)
    .bind(&lines.refunded_local)
    .fetch_all(conn)
    .await
}
