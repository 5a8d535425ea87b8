//! Reading what the pages answer: downloaded files, report tables, and CSV and XLSX rows.

use super::check::s;
use crate::helpers::*;
use reqwest::Method;
use serde_json::Value;

pub(super) async fn bytes(app: &TestApp, session: &Session, path: &str) -> Vec<u8> {
    let response = app.api(Method::GET, path, session).send().await.unwrap();
    assert_eq!(response.status(), 200, "{path}");
    response.bytes().await.unwrap().to_vec()
}

/// A report's cell by column key, in the row whose first cell is `first`.
pub(super) fn cell(table: &Value, rows: &[Vec<String>], first: &str, key: &str) -> String {
    let col = table["columns"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["key"] == key)
        .unwrap_or_else(|| panic!("no column {key}"));
    rows.iter()
        .find(|r| r[0] == first)
        .map(|r| r[col].clone())
        .unwrap_or_else(|| format!("no row {first}"))
}

pub(super) fn report_rows(table: &Value) -> Vec<Vec<String>> {
    table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_array().unwrap().iter().map(s).collect())
        .collect()
}

/// The rows of a CSV or sheet from its header row (the row holding `header`) on, as maps of header → cell.
pub(super) fn by_header(
    rows: Vec<Vec<String>>,
    header: &str,
) -> Vec<std::collections::HashMap<String, String>> {
    let at = rows
        .iter()
        .position(|r| r.iter().any(|c| c == header))
        .unwrap_or_else(|| panic!("no header {header} in {rows:?}"));
    let head = rows[at].clone();
    rows[at + 1..]
        .iter()
        .map(|r| head.iter().cloned().zip(r.iter().cloned()).collect())
        .collect()
}

pub(super) fn csv_all(bytes: &[u8]) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

pub(super) fn xlsx_all(bytes: &[u8]) -> Vec<Vec<String>> {
    use calamine::{Data, Reader, Xlsx};
    let mut book: Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let sheet = book.worksheet_range_at(0).unwrap().unwrap();
    sheet
        .rows()
        .map(|cells| {
            cells
                .iter()
                .map(|c| match c {
                    Data::Float(n) => format!("{n:.2}"),
                    Data::Int(n) => n.to_string(),
                    Data::String(s) => s.clone(),
                    Data::Empty => String::new(),
                    other => other.to_string(),
                })
                .collect()
        })
        .collect()
}
