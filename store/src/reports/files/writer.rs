//! Writing a report's rows to a temporary file, one row at a time: CSV through the `csv` crate, XLSX in
//! rust_xlsxwriter's constant-memory mode (each row goes to disk as it is written).

use super::super::{ColumnKind, ReportError, ReportKind};
use super::Format;
use crate::cells::neutralise_formula;
use rust_xlsxwriter::{ExcelDateTime, Format as Style, Workbook, Worksheet};
use std::fs::File;
use std::io::{BufWriter, Seek, Write};

fn xlsx_error(e: rust_xlsxwriter::XlsxError) -> ReportError {
    ReportError::File(e.to_string())
}

fn io_error(e: std::io::Error) -> ReportError {
    ReportError::File(e.to_string())
}

/// The header: column labels, a date column naming the client's time zone its days are counted in.
fn header(kind: ReportKind, tz: &str) -> Vec<String> {
    kind.columns()
        .iter()
        .map(|c| match c.kind {
            ColumnKind::Date => format!("{} ({tz})", c.label),
            _ => c.label.to_owned(),
        })
        .collect()
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
}

/// A report file being written. Money and rates are exactly the page's strings in CSV; in XLSX they are numbers
/// (money `#,##0.00`, rates as percentages), dates are date cells, texts are text. Text cells a spreadsheet would
/// run as a formula are neutralised in both.
pub struct FileWriter {
    kind: ReportKind,
    sink: Sink,
    styles: Styles,
    next_row: u32,
}

impl FileWriter {
    pub fn new(kind: ReportKind, format: Format, tz: &str) -> Result<Self, ReportError> {
        let header = header(kind, tz);
        let sink = match format {
            Format::Csv => {
                let file = tempfile::tempfile().map_err(io_error)?;
                let mut out = csv::Writer::from_writer(BufWriter::new(file));
                out.write_record(&header)
                    .map_err(|e| ReportError::File(e.to_string()))?;
                Sink::Csv(Box::new(out))
            }
            Format::Xlsx => {
                let mut book = Workbook::new();
                let sheet = book.add_worksheet_with_constant_memory();
                sheet.set_name(kind.title()).map_err(xlsx_error)?;
                let bold = Style::new().set_bold();
                for (col, label) in (0u16..).zip(&header) {
                    sheet
                        .write_string_with_format(0, col, label, &bold)
                        .map_err(xlsx_error)?;
                }
                Sink::Xlsx(Box::new(book))
            }
        };
        Ok(Self {
            kind,
            sink,
            styles: Styles {
                money: Style::new().set_num_format("#,##0.00"),
                rate: Style::new().set_num_format("0.00%"),
                ratio: Style::new().set_num_format("0.00"),
                date: Style::new().set_num_format("yyyy-mm-dd"),
            },
            next_row: 1,
        })
    }

    pub fn row(&mut self, row: &[String]) -> Result<(), ReportError> {
        let columns = self.kind.columns();
        match &mut self.sink {
            Sink::Csv(out) => out
                .write_record(columns.iter().zip(row).map(|(c, cell)| {
                    if c.kind == ColumnKind::Text {
                        neutralise_formula(cell)
                    } else {
                        cell.clone()
                    }
                }))
                .map_err(|e| ReportError::File(e.to_string()))?,
            Sink::Xlsx(book) => {
                let sheet = book.worksheet_from_index(0).map_err(xlsx_error)?;
                for ((col, column), cell) in (0u16..).zip(columns).zip(row) {
                    xlsx_cell(sheet, &self.styles, self.next_row, col, column.kind, cell)?;
                }
            }
        }
        self.next_row += 1;
        Ok(())
    }

    /// The finished file, rewound to its start.
    pub fn finish(self) -> Result<File, ReportError> {
        let mut file = match self.sink {
            Sink::Csv(out) => out
                .into_inner()
                .map_err(|e| ReportError::File(e.to_string()))?
                .into_inner()
                .map_err(|e| io_error(e.into_error()))?,
            Sink::Xlsx(mut book) => {
                let mut file = BufWriter::new(tempfile::tempfile().map_err(io_error)?);
                book.save_to_writer(&mut file).map_err(xlsx_error)?;
                file.flush().map_err(io_error)?;
                file.into_inner().map_err(|e| io_error(e.into_error()))?
            }
        };
        file.rewind().map_err(io_error)?;
        Ok(file)
    }
}

fn xlsx_cell(
    sheet: &mut Worksheet,
    styles: &Styles,
    row: u32,
    col: u16,
    kind: ColumnKind,
    cell: &str,
) -> Result<(), ReportError> {
    // Money comes from Postgres as a two-place decimal string; a double holds every such amount below 10^13 to
    // the cent.
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
        ColumnKind::Date => match ExcelDateTime::parse_from_str(cell) {
            Ok(day) => sheet.write_datetime_with_format(row, col, &day, &styles.date),
            Err(_) => sheet.write_string(row, col, cell),
        },
    }
    .map(|_| ())
    .map_err(xlsx_error)
}
