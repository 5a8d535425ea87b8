//! The Performance table as CSV and as a workbook.

use super::FlightRow;
use crate::error::ApiError;

const HEADER: [&str; 20] = [
    "Flight",
    "Day",
    "Variant",
    "Segment",
    "Recipients",
    "Delivered",
    "Bounces",
    "Human opens",
    "Machine opens",
    "Open rate",
    "Clickers",
    "Clicks",
    "Click rate",
    "Unsubscribes",
    "Gifts",
    "Revenue",
    "Average gift",
    "Response rate",
    "RPM",
    "Row",
];

/// The cells of a row as text; the last says whether it is a variant row, a flight total or the total.
fn cells(r: &FlightRow) -> [String; 20] {
    let kind = match (r.flight_id, &r.variant) {
        (None, _) => "Total",
        (Some(_), None) => "Flight total",
        _ => "Variant",
    };
    [
        r.name.clone().unwrap_or_else(|| "All flights".to_owned()),
        r.day.map(|d| d.to_string()).unwrap_or_default(),
        r.variant.clone().unwrap_or_default(),
        r.segment_name.clone().unwrap_or_default(),
        r.recipients.to_string(),
        r.delivered.to_string(),
        r.bounces.to_string(),
        r.human_opens.to_string(),
        r.machine_opens.to_string(),
        format!("{:.4}", r.open_rate),
        r.clickers.to_string(),
        r.clicks.to_string(),
        format!("{:.4}", r.click_rate),
        r.unsubscribes.to_string(),
        r.gifts.to_string(),
        r.revenue.clone(),
        r.average_gift.clone(),
        format!("{:.4}", r.response_rate),
        r.rpm.clone(),
        kind.to_owned(),
    ]
}

/// The header; the day column names the client's zone, in which a flight's day is counted.
fn header(tz: &str) -> [String; 20] {
    let mut header = HEADER.map(str::to_owned);
    header[1] = format!("Day ({tz})");
    header
}

use store::tabular::{self, ColumnKind, Format};

/// What each column holds, in `HEADER`'s order: the day is a date cell, counts and figures numbers, names text.
const KINDS: [ColumnKind; 20] = {
    use ColumnKind::*;
    [
        Text, Date, Text, Text, Integer, Integer, Integer, Integer, Integer, Rate, Integer,
        Integer, Rate, Integer, Integer, Money, Money, Rate, Money, Text,
    ]
};

/// The table as a file, by the rule every download follows (`store::tabular`).
pub(super) fn file(rows: &[FlightRow], tz: &str, format: Format) -> Result<Vec<u8>, ApiError> {
    tabular::to_bytes(
        format,
        "Performance",
        &header(tz),
        &KINDS,
        rows.iter().map(cells),
    )
    .map_err(ApiError::internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_quoted_and_defused_and_figures_stay_numbers() {
        let row = FlightRow {
            name: Some("=HYPERLINK(\"x\"), a,b".to_owned()),
            revenue: "-12.50".to_owned(),
            ..FlightRow::default()
        };
        let text =
            String::from_utf8(file(&[row], "America/New_York", Format::Csv).unwrap()).unwrap();
        let mut lines = text.lines();
        assert!(lines
            .next()
            .unwrap()
            .starts_with("Flight,Day (America/New_York),Variant"));
        let line = lines.next().unwrap();
        assert!(
            line.starts_with("\"'=HYPERLINK(\"\"x\"\"), a,b\","),
            "{line}"
        );
        assert!(line.contains(",-12.50,"), "{line}");
    }
}
