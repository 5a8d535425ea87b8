//! The date range every revenue page asks for, in the client's time zone.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::PgConnection;

/// A date range in the client's time zone, resolved to the instants that bound it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Range {
    pub tz: String,
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// Start of `from` and end of `to` (exclusive) in the client's zone.
    pub lo: DateTime<Utc>,
    pub hi: DateTime<Utc>,
    /// First day of the previous period of the same length.
    pub prev_from: NaiveDate,
}

/// Resolves `from`–`to` (both included, client zone; default the current month up to today). The bounds are
/// not checked here: `from` may come after `to`.
pub async fn range(
    conn: &mut PgConnection,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<Range, sqlx::Error> {
    sqlx::query_as(
        "select tz, f as \"from\", t as \"to\", f::timestamp at time zone tz as lo,
                (t + 1)::timestamp at time zone tz as hi,
                f - (t - f + 1) as prev_from
         from (select time_zone as tz,
                      coalesce($1::date, date_trunc('month', now() at time zone time_zone)::date) as f,
                      coalesce($2::date, (now() at time zone time_zone)::date) as t
               from app_settings) s",
    )
    .bind(from)
    .bind(to)
    .fetch_one(conn)
    .await
}

/// Plans every later statement of the transaction for its own range. A revenue statement run five times is
/// otherwise planned once for any range after its fifth run, and that generic plan fits none: a day's gifts
/// and ten years' want different scans and joins.
pub async fn plan_for_the_range(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query("set local plan_cache_mode = force_custom_plan")
        .execute(conn)
        .await?;
    Ok(())
}
