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

fn csv_cell(v: &str) -> String {
    // A leading =, +, - or @ would run as a formula in a spreadsheet.
    let v = if v.starts_with(['=', '+', '-', '@']) && v.parse::<f64>().is_err() {
        format!("'{v}")
    } else {
        v.to_owned()
    };
    if v.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", v.replace('"', "\"\""))
    } else {
        v
    }
}

pub(super) fn csv(rows: &[FlightRow]) -> String {
    let mut out = HEADER.join(",");
    out.push_str("\r\n");
    for r in rows {
        out.push_str(
            &cells(r)
                .iter()
                .map(|c| csv_cell(c))
                .collect::<Vec<_>>()
                .join(","),
        );
        out.push_str("\r\n");
    }
    out
}

pub(super) fn xlsx(rows: &[FlightRow]) -> Result<Vec<u8>, ApiError> {
    use rust_xlsxwriter::{Format, Workbook};
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let bold = Format::new().set_bold();
    let money = Format::new().set_num_format("#,##0.00");
    let rate = Format::new().set_num_format("0.00%");
    let fail = |e: rust_xlsxwriter::XlsxError| ApiError::internal(e);
    for (col, title) in (0u16..).zip(HEADER) {
        sheet
            .write_string_with_format(0, col, title, &bold)
            .map_err(fail)?;
    }
    for (row, r) in (1u32..).zip(rows) {
        for (col, cell) in (0u16..).zip(cells(r)) {
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
    fn csv_cells_are_quoted_and_formulas_defused() {
        assert_eq!(csv_cell("plain"), "plain");
        assert_eq!(csv_cell("a,b"), "\"a,b\"");
        assert_eq!(csv_cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_cell("-12.50"), "-12.50");
    }
}
