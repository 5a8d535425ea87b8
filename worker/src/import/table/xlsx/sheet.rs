//! The first sheet's rows, read one `<row>` at a time. Gaps between rows come out as empty rows (so row numbers
//! match the sheet's), rows before the first one with data are left out, as calamine did.

use super::strings::{Shared, SharedStrings};
use super::styles::NumberKind;
use super::xml::{attr, Tok, XmlError, XmlReader};
use super::{xml_error, Part};
use crate::import::table::{bad, cell_text, column_letters, FileLimits};
use calamine::{Data, ExcelDateTime, ExcelDateTimeType};
use jobs::JobError;

/// Excel's own bounds: 1,048,576 rows and 16,384 columns (A to XFD).
const MAX_ROW: u32 = 1_048_576;
const MAX_COLUMN: usize = 16_384;

pub struct SheetRows {
    xml: XmlReader<Part>,
    strings: SharedStrings,
    styles: Vec<NumberKind>,
    is_1904: bool,
    limits: FileLimits,
    /// The sheet row number of the last row handed out (0 before the first).
    emitted: u32,
    pending: Option<(u32, Vec<String>)>,
    done: bool,
}

/// One `<c>` being read.
#[derive(Default)]
struct Cell {
    column: usize,
    kind: String,
    style: usize,
    value: Option<String>,
    too_long: bool,
}

impl SheetRows {
    pub(super) fn new(
        xml: XmlReader<Part>,
        strings: SharedStrings,
        styles: Vec<NumberKind>,
        is_1904: bool,
        limits: FileLimits,
    ) -> Self {
        Self {
            xml,
            strings,
            styles,
            is_1904,
            limits,
            emitted: 0,
            pending: None,
            done: false,
        }
    }

    /// The next `<row>` with its sheet row number, or `None` at the end of the sheet.
    fn read_row(&mut self) -> Result<Option<(u32, Vec<String>)>, JobError> {
        let mut row: Option<(u32, Vec<String>, usize)> = None;
        let mut cell: Option<Cell> = None;
        let mut in_value = false;
        loop {
            // Inside a cell's value a text past the limit ends the read at once: it is an error anyway.
            self.xml.stop_on_long_text = in_value;
            let tok = match self.xml.token() {
                Ok(Some(tok)) => tok,
                Ok(None) => return Ok(None),
                Err(XmlError::TextTooLong) => {
                    let r = row.as_ref().map_or(self.emitted + 1, |r| r.0);
                    let column = cell.as_ref().map_or(0, |c| c.column);
                    return Err(self.cell_too_long(r, column));
                }
                Err(e) => return Err(xml_error(e)),
            };
            match tok {
                Tok::Open { name, attrs, empty } => match name.as_str() {
                    "row" => {
                        let number = match attr(&attrs, "r") {
                            Some(r) => r.parse::<u32>().map_err(|_| bad(super::UNREADABLE))?,
                            None => self.pending.as_ref().map_or(self.emitted, |p| p.0) + 1,
                        };
                        if number == 0 || number > MAX_ROW || number <= self.emitted {
                            return Err(bad(super::UNREADABLE));
                        }
                        if empty {
                            return Ok(Some((number, Vec::new())));
                        }
                        row = Some((number, Vec::new(), 0));
                    }
                    "c" => {
                        let Some((number, cells, _)) = &row else {
                            continue;
                        };
                        let column = match attr(&attrs, "r") {
                            Some(r) => column_of(r).ok_or_else(|| bad(super::UNREADABLE))?,
                            None => cells.len(),
                        };
                        if column >= MAX_COLUMN || column < cells.len() {
                            return Err(bad(&format!(
                                "Row {number}: the cells are out of order or past column XFD"
                            )));
                        }
                        let c = Cell {
                            column,
                            kind: attr(&attrs, "t").unwrap_or("n").to_owned(),
                            style: attr(&attrs, "s").and_then(|s| s.parse().ok()).unwrap_or(0),
                            ..Cell::default()
                        };
                        if empty {
                            self.finish_cell(&mut row, c)?;
                        } else {
                            cell = Some(c);
                        }
                    }
                    "v" | "t" if !empty && cell.is_some() => in_value = true,
                    _ => {}
                },
                Tok::Text { too_long } if in_value => {
                    if let Some(c) = cell.as_mut() {
                        let value = c.value.get_or_insert_with(String::new);
                        c.too_long |= too_long
                            || value.len() + self.xml.text.len() > self.limits.max_cell_bytes;
                        if !c.too_long {
                            value.push_str(&String::from_utf8_lossy(&self.xml.text));
                        }
                    }
                }
                Tok::Text { .. } => {}
                Tok::Close(name) => match name.as_str() {
                    "v" | "t" => in_value = false,
                    "c" => {
                        if let Some(c) = cell.take() {
                            self.finish_cell(&mut row, c)?;
                        }
                    }
                    "row" => {
                        if let Some((number, cells, _)) = row.take() {
                            return Ok(Some((number, cells)));
                        }
                    }
                    _ => {}
                },
            }
        }
    }

    /// Puts a read cell in its row, checking the cell and row limits.
    fn finish_cell(
        &self,
        row: &mut Option<(u32, Vec<String>, usize)>,
        cell: Cell,
    ) -> Result<(), JobError> {
        let Some((number, cells, bytes)) = row.as_mut() else {
            return Ok(());
        };
        let text = self.cell_value(*number, &cell)?;
        *bytes += text.len();
        if *bytes > self.limits.max_row_bytes {
            return Err(bad(&format!(
                "Row {number}, column {}: the row is longer than {} bytes",
                column_letters(cell.column),
                self.limits.max_row_bytes
            )));
        }
        cells.resize(cell.column, String::new());
        cells.push(text);
        Ok(())
    }

    fn cell_too_long(&self, row: u32, column: usize) -> JobError {
        bad(&format!(
            "Row {row}, column {}: the cell is longer than {} bytes",
            column_letters(column),
            self.limits.max_cell_bytes
        ))
    }

    /// The cell as text, read as calamine read it (numbers in date styles as dates, booleans as true/false).
    fn cell_value(&self, row: u32, cell: &Cell) -> Result<String, JobError> {
        if cell.too_long {
            return Err(self.cell_too_long(row, cell.column));
        }
        let raw = cell.value.as_deref().unwrap_or("");
        let data = match cell.kind.as_str() {
            "s" => match raw.trim().parse::<usize>().map(|i| self.strings.get(i)) {
                Ok(Shared::Text(text)) => Data::String(unescape(&text)),
                Ok(Shared::TooLong) => return Err(self.cell_too_long(row, cell.column)),
                Ok(Shared::Missing) | Err(_) => Data::Empty,
            },
            "inlineStr" | "str" => Data::String(unescape(raw)),
            "b" => Data::Bool(raw != "0"),
            "e" => Data::Empty,
            "d" => Data::DateTimeIso(raw.to_owned()),
            _ if raw.is_empty() => Data::Empty,
            _ => match raw.trim().parse::<f64>() {
                Ok(n) => match self.styles.get(cell.style) {
                    Some(NumberKind::DateTime) => Data::DateTime(ExcelDateTime::new(
                        n,
                        ExcelDateTimeType::DateTime,
                        self.is_1904,
                    )),
                    Some(NumberKind::Duration) => Data::DateTime(ExcelDateTime::new(
                        n,
                        ExcelDateTimeType::TimeDelta,
                        self.is_1904,
                    )),
                    _ => Data::Float(n),
                },
                Err(_) => Data::String(raw.to_owned()),
            },
        };
        Ok(cell_text(&data))
    }
}

impl Iterator for SheetRows {
    type Item = Result<Vec<String>, JobError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some((number, _)) = &self.pending {
                if self.emitted + 1 < *number {
                    self.emitted += 1;
                    return Some(Ok(Vec::new()));
                }
                let (number, cells) = self.pending.take()?;
                self.emitted = number;
                return Some(Ok(cells));
            }
            if self.done {
                return None;
            }
            match self.read_row() {
                Ok(Some((number, cells))) => {
                    // Rows before the first with data are left out: the header is the first row with data.
                    if self.emitted == 0 && cells.iter().all(String::is_empty) {
                        continue;
                    }
                    if self.emitted == 0 {
                        self.emitted = number - 1;
                    }
                    self.pending = Some((number, cells));
                }
                Ok(None) => self.done = true,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

/// The zero-based column of a cell reference such as `B7`.
fn column_of(reference: &str) -> Option<usize> {
    let letters = reference.bytes().take_while(u8::is_ascii_alphabetic);
    let mut column = 0usize;
    let mut any = false;
    for b in letters {
        any = true;
        column = column
            .checked_mul(26)?
            .checked_add(usize::from(b.to_ascii_uppercase() - b'A' + 1))?;
        if column > MAX_COLUMN {
            return Some(MAX_COLUMN);
        }
    }
    any.then(|| column - 1)
}

/// Excel writes characters XML cannot hold (control characters, NUL among them) as `_xHHHH_`.
fn unescape(text: &str) -> String {
    if !text.contains("_x") {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("_x") {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let decoded = tail
            .get(2..6)
            .filter(|_| tail.as_bytes().get(6) == Some(&b'_'))
            .and_then(|hex| u32::from_str_radix(hex, 16).ok())
            .and_then(char::from_u32);
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &tail[7..];
            }
            None => {
                out.push_str("_x");
                rest = &tail[2..];
            }
        }
    }
    out.push_str(rest);
    out
}
