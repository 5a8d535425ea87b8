//! The suppression list: addresses no mailing may mail, each with its reason, where it came from and when.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// One active or lifted suppression, with the event that caused it (when an event did).
#[derive(Debug, sqlx::FromRow)]
pub struct Suppression {
    pub id: i64,
    pub email: String,
    /// `hard_bounce`, `soft_bounces`, `complaint`, `manual` or `import`.
    pub reason: String,
    pub event_id: Option<i64>,
    /// The event's source (`dsn`, `ses` …) when an event caused it.
    pub event_source: Option<String>,
    pub event_mailing_id: Option<i64>,
    pub event_mailing_name: Option<String>,
    pub event_status_code: Option<String>,
    pub event_diagnostic: Option<String>,
    pub event_evidence_id: Option<i64>,
    pub created_by: Option<String>,
    pub note: Option<String>,
    pub created: DateTime<Utc>,
    pub lifted_at: Option<DateTime<Utc>>,
    pub lifted_by: Option<String>,
}

const SELECT: &str = "select s.id, s.email, s.reason, s.event_id, e.source as event_source,
        e.mailing_id as event_mailing_id, m.name as event_mailing_name, e.status_code as event_status_code, e.diagnostic as event_diagnostic,
        e.evidence_id as event_evidence_id, s.created_by, s.note, s.created, s.lifted_at, s.lifted_by
    from suppressions s left join delivery_events e on e.id = s.event_id
        left join mailings m on m.id = e.mailing_id";

/// Active suppressions whose address contains `search` (all when empty), newest first, one page.
pub async fn page(
    conn: &mut PgConnection,
    search: &str,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Suppression>, i64), sqlx::Error> {
    let pattern = crate::like::containing(&search.trim().to_lowercase());
    // SELECT is a constant of this module; the user's text is bound.
    let rows = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where s.lifted_at is null and s.email like $1 escape '\\' order by s.created desc, s.id desc
         limit $2 offset $3"
    )))
    .bind(&pattern)
    .bind(limit)
    .bind(offset)
    .fetch_all(&mut *conn)
    .await?;
    let total = sqlx::query_scalar(
        "select count(*) from suppressions where lifted_at is null and email like $1 escape '\\'",
    )
    .bind(&pattern)
    .fetch_one(&mut *conn)
    .await?;
    Ok((rows, total))
}

/// Every active suppression, oldest first (the export).
pub async fn all_active(conn: &mut PgConnection) -> Result<Vec<Suppression>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where s.lifted_at is null order by s.created, s.id"
    )))
    .fetch_all(conn)
    .await
}

/// Suppresses `emails` (lower-cased, trimmed) for `reason` (`manual` or `import`) by `person`; addresses already
/// suppressed keep their suppression. Returns how many were new.
pub async fn suppress(
    conn: &mut PgConnection,
    emails: &[String],
    reason: &str,
    person: &str,
    note: Option<&str>,
) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query(
        "insert into suppressions (email, reason, created_by, note)
         select distinct lower(btrim(e)), $2, $3, $4 from unnest($1::text[]) e where btrim(e) <> ''
         on conflict (email) where lifted_at is null do nothing",
    )
    .bind(emails)
    .bind(reason)
    .bind(person)
    .bind(note)
    .execute(conn)
    .await?
    .rows_affected())
}

/// Lifts the active suppression `id` by `person`; the address, or None when there is no such active suppression.
pub async fn lift(
    conn: &mut PgConnection,
    id: i64,
    person: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "update suppressions set lifted_at = now(), lifted_by = $2 where id = $1 and lifted_at is null
         returning email",
    )
    .bind(id)
    .bind(person)
    .fetch_optional(conn)
    .await
}

/// Whether `email` is suppressed now.
pub async fn is_suppressed(conn: &mut PgConnection, email: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "select exists (select 1 from suppressions where email = lower(btrim($1)) and lifted_at is null)",
    )
    .bind(email)
    .fetch_one(conn)
    .await
}

/// The raw evidence `id` (content type and body), while it is kept.
pub async fn evidence(
    conn: &mut PgConnection,
    id: i64,
) -> Result<Option<(String, Vec<u8>)>, sqlx::Error> {
    sqlx::query_as("select content_type, body from delivery_evidence where id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// How long raw evidence is kept.
pub const EVIDENCE_DAYS: i32 = 90;

/// Deletes evidence older than [`EVIDENCE_DAYS`] (the events keep their code and diagnostic); how many went.
pub async fn sweep_evidence(conn: &mut PgConnection) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query(
        "delete from delivery_evidence where received_at < now() - make_interval(days => $1)",
    )
    .bind(EVIDENCE_DAYS)
    .execute(conn)
    .await?
    .rows_affected())
}
