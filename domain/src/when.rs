//! A date or time as a file or a webhook writes it, read the same way by every writer of contributions.

use chrono::{DateTime, NaiveDate, NaiveDateTime};

/// A date as the file gives it: with an offset it is an instant; without, a wall-clock time in the client's zone.
#[derive(Debug, Clone, PartialEq)]
pub enum When {
    Instant(DateTime<chrono::FixedOffset>),
    Local(NaiveDateTime),
}

pub fn parse_when(raw: &str) -> Option<When> {
    let raw = raw.trim();
    if let Ok(d) = DateTime::parse_from_rfc3339(raw) {
        return Some(When::Instant(d));
    }
    for f in [
        "%Y-%m-%d %H:%M:%S%.f%:z",
        "%Y-%m-%d %H:%M:%S%.f%#z",
        "%Y-%m-%d %H:%M:%S%.f %z",
    ] {
        if let Ok(d) = DateTime::parse_from_str(raw, f) {
            return Some(When::Instant(d));
        }
    }
    for f in [
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%d %H:%M",
        "%m/%d/%Y %H:%M:%S",
        "%m/%d/%Y %H:%M",
        "%m/%d/%Y %I:%M:%S %p",
        "%m/%d/%Y %I:%M %p",
    ] {
        if let Ok(d) = NaiveDateTime::parse_from_str(raw, f) {
            return Some(When::Local(d));
        }
    }
    for f in ["%Y-%m-%d", "%m/%d/%Y"] {
        if let Ok(d) = NaiveDate::parse_from_str(raw, f) {
            return d.and_hms_opt(0, 0, 0).map(When::Local);
        }
    }
    None
}

/// A date for SQL: `(instant, wall-clock time)`, exactly one of them set; the wall-clock time is in the client's
/// zone. `None` when the text is no date.
pub fn split_date(raw: &str) -> Option<(Option<String>, Option<String>)> {
    Some(match parse_when(raw)? {
        When::Instant(d) => (Some(d.to_rfc3339()), None),
        When::Local(d) => (None, Some(d.format("%Y-%m-%d %H:%M:%S%.f").to_string())),
    })
}
