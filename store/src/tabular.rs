//! Tables as files: every CSV and XLSX a user downloads is written here, by one rule.
//!
//! - A column has a [`ColumnKind`]. Text cells a spreadsheet would run as a formula are neutralised
//!   ([`crate::cells::neutralise_formula`]) in both formats; figures, dates and times are written as they come.
//! - CSV goes through the `csv` crate (quoting, `\n` line ends).
//! - XLSX is written in rust_xlsxwriter's constant-memory mode (each row goes to disk as it is written): money is a
//!   number shown `#,##0.00`, a rate a number shown as a percentage, a date or a time a real date cell (so sheets
//!   sort, filter and group by it), anything that does not read as its kind is kept as text.
//! - The file is a temporary file ([`TableWriter::finish`]), so a million rows cost a few MB, not the table.

use crate::cells::neutralise_formula;
use rust_xlsxwriter::{ExcelDateTime, Format as Style, Workbook, Worksheet, XlsxError};
use serde::Serialize;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, Write};

/// What a column holds. Money comes as a two-place decimal string (a double holds every such amount below 10^13
/// to the cent), a rate as a fraction (0.25 = 25 %), a date as `YYYY-MM-DD`, a time as `YYYY-MM-DD hh:mm:ss`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ColumnKind {
    Text,
    Integer,
    Money,
    Rate,
    Ratio,
    Date,
    DateTime,
}

/// CSV or XLSX. Serialized (in a job's payload) by the same key as [`Format::key`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    Csv,
    Xlsx,
}

impl Format {
    pub fn key(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::Xlsx => "xlsx",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Csv => "text/csv; charset=utf-8",
            Self::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TabularError {
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Csv(#[from] csv::Error),
    #[error(transparent)]
    Xlsx(#[from] XlsxError),
}

enum Sink {
    Csv(Box<csv::Writer<BufWriter<File>>>),
    Xlsx(Box<Workbook>),
}

struct Styles {
    money: Style,
    rate: Style,
    ratio: Style,
    date: Style,
    time: Style,
}

/// A table being written to a temporary file, one row at a time.
pub struct TableWriter {
    kinds: Vec<ColumnKind>,
    sink: Sink,
    styles: Styles,
    next_row: u32,
}

impl TableWriter {
    /// Starts the file with its header row (bold in XLSX). `sheet` names the XLSX sheet (at most 31 characters).
    pub fn new(
        format: Format,
        sheet: &str,
        header: &[String],
        kinds: &[ColumnKind],
    ) -> Result<Self, TabularError> {
        let sink = match format {
            Format::Csv => {
                let mut out = csv::Writer::from_writer(BufWriter::new(tempfile::tempfile()?));
                out.write_record(header)?;
                Sink::Csv(Box::new(out))
            }
            Format::Xlsx => {
                let mut book = Workbook::new();
                let sheet_out = book.add_worksheet_with_constant_memory();
                sheet_out.set_name(sheet)?;
                let bold = Style::new().set_bold();
                for ((col, label), kind) in (0u16..).zip(header).zip(kinds) {
                    // Date and time cells show as #### in a column narrower than their text.
                    if matches!(kind, ColumnKind::Date | ColumnKind::DateTime) {
                        let text = if *kind == ColumnKind::Date { 12 } else { 20 };
                        sheet_out.set_column_width(col, label.len().max(text) as f64)?;
                    }
                    sheet_out.write_string_with_format(0, col, label, &bold)?;
                }
                Sink::Xlsx(Box::new(book))
            }
        };
        Ok(Self {
            kinds: kinds.to_vec(),
            sink,
            styles: Styles {
                money: Style::new().set_num_format("#,##0.00"),
                rate: Style::new().set_num_format("0.00%"),
                ratio: Style::new().set_num_format("0.00"),
                date: Style::new().set_num_format("yyyy-mm-dd"),
                time: Style::new().set_num_format("yyyy-mm-dd hh:mm:ss"),
            },
            next_row: 1,
        })
    }

    /// Writes one row; its cells are in the header's order.
    pub fn row<S: AsRef<str>>(&mut self, cells: &[S]) -> Result<(), TabularError> {
        match &mut self.sink {
            Sink::Csv(out) => {
                out.write_record(self.kinds.iter().zip(cells).map(|(kind, cell)| {
                    let cell = cell.as_ref();
                    if *kind == ColumnKind::Text {
                        neutralise_formula(cell)
                    } else {
                        cell.to_owned()
                    }
                }))?
            }
            Sink::Xlsx(book) => {
                let sheet = book.worksheet_from_index(0)?;
                for ((col, kind), cell) in (0u16..).zip(&self.kinds).zip(cells) {
                    xlsx_cell(
                        sheet,
                        &self.styles,
                        self.next_row,
                        col,
                        *kind,
                        cell.as_ref(),
                    )?;
                }
            }
        }
        self.next_row += 1;
        Ok(())
    }

    /// The finished file, rewound to its start.
    pub fn finish(self) -> Result<File, TabularError> {
        let mut file = match self.sink {
            Sink::Csv(out) => out
                .into_inner()
                .map_err(|e| e.into_error())?
                .into_inner()
                .map_err(|e| e.into_error())?,
            Sink::Xlsx(mut book) => {
                let mut file = BufWriter::new(tempfile::tempfile()?);
                book.save_to_writer(&mut file)?;
                file.flush()?;
                file.into_inner().map_err(|e| e.into_error())?
            }
        };
        file.rewind()?;
        Ok(file)
    }

    /// The finished file in memory, for answers small enough to send whole.
    pub fn finish_bytes(self) -> Result<Vec<u8>, TabularError> {
        let mut bytes = Vec::new();
        self.finish()?.read_to_end(&mut bytes)?;
        Ok(bytes)
    }
}

/// Writes `rows` under `header` in one go: a small table answered whole.
pub fn to_bytes<R: AsRef<[S]>, S: AsRef<str>>(
    format: Format,
    sheet: &str,
    header: &[String],
    kinds: &[ColumnKind],
    rows: impl IntoIterator<Item = R>,
) -> Result<Vec<u8>, TabularError> {
    let mut out = TableWriter::new(format, sheet, header, kinds)?;
    for row in rows {
        out.row(row.as_ref())?;
    }
    out.finish_bytes()
}

fn xlsx_cell(
    sheet: &mut Worksheet,
    styles: &Styles,
    row: u32,
    col: u16,
    kind: ColumnKind,
    cell: &str,
) -> Result<(), XlsxError> {
    let number = || cell.parse::<f64>().ok();
    match kind {
        ColumnKind::Text => sheet.write_string(row, col, neutralise_formula(cell)),
        ColumnKind::Money | ColumnKind::Rate | ColumnKind::Ratio | ColumnKind::Integer => {
            match number() {
                Some(n) => match kind {
                    ColumnKind::Money => sheet.write_number_with_format(row, col, n, &styles.money),
                    ColumnKind::Rate => sheet.write_number_with_format(row, col, n, &styles.rate),
                    ColumnKind::Ratio => sheet.write_number_with_format(row, col, n, &styles.ratio),
                    _ => sheet.write_number(row, col, n),
                },
                None => sheet.write_string(row, col, cell),
            }
        }
        ColumnKind::Date | ColumnKind::DateTime => match ExcelDateTime::parse_from_str(cell) {
            Ok(when) => {
                let style = if kind == ColumnKind::Date {
                    &styles.date
                } else {
                    &styles.time
                };
                sheet.write_datetime_with_format(row, col, &when, style)
            }
            Err(_) => sheet.write_string(row, col, cell),
        },
    }
    .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Vec<String> {
        ["Name", "Day (America/New_York)", "Revenue", "Gifts"]
            .map(str::to_owned)
            .to_vec()
    }

    const KINDS: [ColumnKind; 4] = [
        ColumnKind::Text,
        ColumnKind::Date,
        ColumnKind::Money,
        ColumnKind::Integer,
    ];

    #[test]
    fn csv_quotes_cells_and_defuses_formulas_in_text_only() {
        let rows = [["=HYPERLINK(\"x\"), a,b", "2026-11-02", "-12.50", "3"]];
        let bytes = to_bytes(Format::Csv, "t", &header(), &KINDS, rows).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some("Name,Day (America/New_York),Revenue,Gifts")
        );
        assert_eq!(
            lines.next(),
            Some("\"'=HYPERLINK(\"\"x\"\"), a,b\",2026-11-02,-12.50,3")
        );
    }

    #[test]
    fn xlsx_is_a_workbook() {
        let rows = [["-5", "2026-11-02", "1234.56", "x"]];
        let bytes = to_bytes(Format::Xlsx, "t", &header(), &KINDS, rows).unwrap();
        // An XLSX file is a zip archive.
        assert_eq!(&bytes[..2], b"PK");
    }
}
