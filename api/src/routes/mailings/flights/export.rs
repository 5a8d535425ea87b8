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

/// The table as CSV (CRLF lines). Figures stay numbers, negative ones included; names are neutralised.
pub(super) fn csv(rows: &[FlightRow], tz: &str) -> Result<String, ApiError> {
    let mut out = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    out.write_record(header(tz)).map_err(ApiError::internal)?;
    for r in rows {
        out.write_record(cells(r).map(|c| store::cells::neutralise_unless_number(&c)))
            .map_err(ApiError::internal)?;
    }
    let bytes = out.into_inner().map_err(ApiError::internal)?;
    String::from_utf8(bytes).map_err(ApiError::internal)
}

pub(super) fn xlsx(rows: &[FlightRow], tz: &str) -> Result<Vec<u8>, ApiError> {
    use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let bold = Format::new().set_bold();
    let money = Format::new().set_num_format("#,##0.00");
    let rate = Format::new().set_num_format("0.00%");
    let date = Format::new().set_num_format("yyyy-mm-dd");
    let fail = |e: rust_xlsxwriter::XlsxError| ApiError::internal(e);
    sheet.set_column_width(1, 24).map_err(fail)?;
    for (col, title) in (0u16..).zip(header(tz)) {
        sheet
            .write_string_with_format(0, col, title, &bold)
            .map_err(fail)?;
    }
    for (row, r) in (1u32..).zip(rows) {
        for (col, cell) in (0u16..).zip(cells(r)) {
            // The day is a real date cell, so sheets sort and group by it.
            let day = if col == 1 {
                ExcelDateTime::parse_from_str(&cell).ok()
            } else {
                None
            };
            if let Some(day) = day {
                sheet
                    .write_datetime_with_format(row, col, &day, &date)
                    .map_err(fail)?;
                continue;
            }
            match col {
                4..=8 | 10 | 11 | 13 | 14 => {
                    sheet.write_number(row, col, cell.parse::<f64>().unwrap_or(0.0))
                }
                9 | 12 | 17 => sheet.write_number_with_format(
                    row,
                    col,
                    cell.parse::<f64>().unwrap_or(0.0),
                    &rate,
                ),
                15 | 16 | 18 => sheet.write_number_with_format(
                    row,
                    col,
                    cell.parse::<f64>().unwrap_or(0.0),
                    &money,
                ),
                _ => sheet.write_string(row, col, cell),
            }
            .map_err(fail)?;
        }
    }
    book.save_to_buffer().map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_are_quoted_and_formulas_defused_but_figures_stay_numbers() {
        let row = FlightRow {
            name: Some("=HYPERLINK(\"x\"), a,b".to_owned()),
            revenue: "-12.50".to_owned(),
            ..FlightRow::default()
        };
        let text = csv(&[row], "America/New_York").unwrap();
        let mut lines = text.split("\r\n");
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
