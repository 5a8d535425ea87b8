//! The date range every revenue page asks for, in the client's time zone.

use crate::error::ApiError;
use chrono::{DateTime, NaiveDate, Utc};
use tenancy::TenantTx;

/// The longest range a page may ask for; longer ones would scan years of facts per request.
pub(super) const MAX_RANGE_DAYS: i64 = 3660;

/// A date range in the client's time zone, resolved to the instants that bound it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(super) struct Range {
    pub tz: String,
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// Start of `from` and end of `to` (exclusive) in the client's zone.
    pub lo: DateTime<Utc>,
    pub hi: DateTime<Utc>,
    /// First day of the previous period of the same length.
    pub prev_from: NaiveDate,
}

/// Resolves `from`–`to` (both included, client zone; default the current month up to today).
pub(super) async fn resolve_range(
    tx: &mut TenantTx,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<Range, ApiError> {
    let range = sqlx::query_as::<_, Range>(
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
    .fetch_one(&mut **tx)
    .await?;
    if range.from > range.to {
        return Err(ApiError::BadRequest(
            "The start of the range is after its end".to_owned(),
        ));
    }
    if (range.to - range.from).num_days() >= MAX_RANGE_DAYS {
        return Err(ApiError::BadRequest(
            "The range may span at most ten years".to_owned(),
        ));
    }
    Ok(range)
}
