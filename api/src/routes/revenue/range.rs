//! The date range every revenue page asks for, in the client's time zone.

use crate::error::ApiError;
use chrono::NaiveDate;
use tenancy::TenantTx;

/// The longest range a page may ask for; longer ones would scan years of facts per request.
pub(super) const MAX_RANGE_DAYS: i64 = 3660;

pub(super) use store::revenue::Range;

/// Resolves `from`–`to` (both included, client zone; default the current month up to today).
pub(super) async fn resolve_range(
    tx: &mut TenantTx,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<Range, ApiError> {
    store::revenue::plan_for_the_range(tx).await?;
    let range = store::revenue::range(tx, from, to).await?;
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
