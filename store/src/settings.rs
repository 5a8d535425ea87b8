//! The client's app settings: one row of `app_settings`.

use chrono::NaiveDate;
use sqlx::PgConnection;

/// The settings the shell and the settings page show, apart from the revenue ones.
#[derive(Debug, sqlx::FromRow)]
pub struct General {
    pub id: i64,
    pub media_enabled: bool,
    pub actblue_webhook_username: Option<String>,
    /// Whether a webhook password is set (it is never read back).
    pub actblue_webhook_password_set: bool,
    pub election_day: Option<NaiveDate>,
}

/// How dates are grouped, which origin code donors get, how codes are read and gifts credited.
#[derive(Debug, sqlx::FromRow)]
pub struct Revenue {
    pub time_zone: String,
    pub actblue_origin_code: String,
    pub winred_origin_code: String,
    pub refcode_pattern: String,
    pub mailing_refcode_pattern: String,
    pub attribution_window_days: i32,
    pub donation_domains: Vec<String>,
    pub fiscal_year_start: i16,
}

/// What suppresses an address after soft bounces, and when a send pauses itself (see `deliverability::guard`).
#[derive(Debug, sqlx::FromRow)]
pub struct Deliverability {
    pub soft_bounce_limit: i32,
    pub soft_bounce_days: i32,
    pub guard_after_delivered: i32,
    /// Percent, as text with up to three places (e.g. `0.3`).
    pub complaint_pause_percent: String,
    pub hard_bounce_pause_percent: String,
}

pub async fn deliverability(conn: &mut PgConnection) -> Result<Deliverability, sqlx::Error> {
    sqlx::query_as(
        "select soft_bounce_limit, soft_bounce_days, guard_after_delivered,
                trim_scale(complaint_pause_percent)::text as complaint_pause_percent,
                trim_scale(hard_bounce_pause_percent)::text as hard_bounce_pause_percent
         from app_settings",
    )
    .fetch_one(conn)
    .await
}

pub async fn general(conn: &mut PgConnection) -> Result<General, sqlx::Error> {
    sqlx::query_as(
        "select id, media_enabled, actblue_webhook_username,
                actblue_webhook_password_hash is not null as actblue_webhook_password_set, election_day
         from app_settings",
    )
    .fetch_one(conn)
    .await
}

pub async fn revenue(conn: &mut PgConnection) -> Result<Revenue, sqlx::Error> {
    sqlx::query_as(
        "select time_zone, actblue_origin_code, winred_origin_code, refcode_pattern, mailing_refcode_pattern,
                attribution_window_days, donation_domains, fiscal_year_start
         from app_settings",
    )
    .fetch_one(conn)
    .await
}

/// Whether Postgres knows the IANA zone `name`.
pub async fn time_zone_known(conn: &mut PgConnection, name: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from pg_timezone_names where name = $1)")
        .bind(name)
        .fetch_one(conn)
        .await
}

pub async fn refcode_pattern(conn: &mut PgConnection) -> Result<String, sqlx::Error> {
    sqlx::query_scalar("select refcode_pattern from app_settings")
        .fetch_one(conn)
        .await
}

/// A change to the settings; None leaves a field as it is.
#[derive(Debug, Default)]
pub struct Change<'a> {
    pub media_enabled: Option<bool>,
    pub time_zone: Option<&'a str>,
    pub actblue_origin_code: Option<&'a str>,
    pub winred_origin_code: Option<&'a str>,
    pub refcode_pattern: Option<&'a str>,
    pub mailing_refcode_pattern: Option<&'a str>,
    pub attribution_window_days: Option<i32>,
    pub donation_domains: Option<Vec<String>>,
    pub fiscal_year_start: Option<i16>,
    pub actblue_webhook_username: Option<&'a str>,
    pub actblue_webhook_password_hash: Option<String>,
    /// Removes the webhook's user name and password (wins over the two fields above).
    pub clear_webhook: bool,
    /// Some(None) removes the election day.
    pub election_day: Option<Option<NaiveDate>>,
    pub soft_bounce_limit: Option<i32>,
    pub soft_bounce_days: Option<i32>,
    pub guard_after_delivered: Option<i32>,
    /// Percent as a decimal string (checked by the caller).
    pub complaint_pause_percent: Option<&'a str>,
    pub hard_bounce_pause_percent: Option<&'a str>,
}

/// Applies `change` to the settings row `id`; false when there is no such row.
pub async fn update(
    conn: &mut PgConnection,
    id: i64,
    change: Change<'_>,
) -> Result<bool, sqlx::Error> {
    let updated = sqlx::query(
        "update app_settings set media_enabled = coalesce($2, media_enabled),
             time_zone = coalesce($3, time_zone),
             actblue_origin_code = coalesce($4, actblue_origin_code),
             winred_origin_code = coalesce($5, winred_origin_code),
             refcode_pattern = coalesce($6, refcode_pattern),
             mailing_refcode_pattern = coalesce($7, mailing_refcode_pattern),
             attribution_window_days = coalesce($8, attribution_window_days),
             donation_domains = coalesce($9, donation_domains),
             fiscal_year_start = coalesce($10, fiscal_year_start),
             actblue_webhook_username = case when $13 then null
                                             else coalesce($11, actblue_webhook_username) end,
             actblue_webhook_password_hash = case when $13 then null
                                                  else coalesce($12, actblue_webhook_password_hash) end,
             election_day = case when $14 then $15 else election_day end,
             soft_bounce_limit = coalesce($16, soft_bounce_limit),
             soft_bounce_days = coalesce($17, soft_bounce_days),
             guard_after_delivered = coalesce($18, guard_after_delivered),
             complaint_pause_percent = coalesce($19::numeric, complaint_pause_percent),
             hard_bounce_pause_percent = coalesce($20::numeric, hard_bounce_pause_percent),
             updated = now()
         where id = $1",
    )
    .bind(id)
    .bind(change.media_enabled)
    .bind(change.time_zone)
    .bind(change.actblue_origin_code)
    .bind(change.winred_origin_code)
    .bind(change.refcode_pattern)
    .bind(change.mailing_refcode_pattern)
    .bind(change.attribution_window_days)
    .bind(change.donation_domains)
    .bind(change.fiscal_year_start)
    .bind(change.actblue_webhook_username)
    .bind(change.actblue_webhook_password_hash)
    .bind(change.clear_webhook)
    .bind(change.election_day.is_some())
    .bind(change.election_day.flatten())
    .bind(change.soft_bounce_limit)
    .bind(change.soft_bounce_days)
    .bind(change.guard_after_delivered)
    .bind(change.complaint_pause_percent)
    .bind(change.hard_bounce_pause_percent)
    .execute(conn)
    .await?;
    Ok(updated.rows_affected() > 0)
}
