//! One cell of a contributions file read as a date, an amount, a flag or a month count.

use super::*;

/// A date as the file gives it: with an offset it is an instant; without, a wall-clock time in the client's zone.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum When {
    Instant(DateTime<chrono::FixedOffset>),
    Local(NaiveDateTime),
}

pub(super) fn parse_when(raw: &str) -> Option<When> {
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

pub(super) fn parse_bool(raw: &str) -> Option<bool> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "t" | "true" | "yes" | "y" | "1" => Some(true),
        "f" | "false" | "no" | "n" | "0" => Some(false),
        _ => None,
    }
}

/// `Recurring Total Months`: empty for a one-time gift, a count, or an open-ended series (0).
pub(super) fn parse_months(raw: &str) -> Option<i32> {
    let raw = raw.trim();
    match raw.to_ascii_lowercase().as_str() {
        "" => None,
        "unlimited" | "infinite" | "indefinite" | "ongoing" => Some(0),
        other => other.parse::<i32>().ok().filter(|n| *n >= 0),
    }
}
