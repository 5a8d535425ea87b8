//! One cell of a contributions file read as a flag or a month count (dates are read by `domain::when`).

pub(super) use domain::when::{parse_when, When};

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
