//! The date range an analytics page asks for, checked the same way by every page that shares the 800-day limit.

use crate::error::ApiError;
use chrono::NaiveDate;

/// The longest range one request may ask for.
const MAX_DAYS: i64 = 800;

/// Checks a requested range: forwards, at most 800 days.
pub fn check_range(from: NaiveDate, to: NaiveDate) -> Result<(), ApiError> {
    if from > to || (to - from).num_days() >= MAX_DAYS {
        return Err(ApiError::BadRequest(
            "The range must run forwards and span at most 800 days".to_owned(),
        ));
    }
    Ok(())
}
