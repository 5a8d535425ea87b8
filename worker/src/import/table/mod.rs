//! Reads an uploaded spreadsheet row by row: CSV/TXT streamed from disk (delimiter and encoding detected), .xlsx
//! streamed from its zip after a guard against zip bombs, old .xls through calamine. Every reader holds at most a
//! cell and a row of bounded size (`FileLimits`), so a hostile file costs a clear error, not the worker's memory.

mod delimited;
mod nul;
mod xls;
pub mod xlsx;

pub use nul::{has_nul, NulRows};

use calamine::Data;
use jobs::import::Format;
use jobs::JobError;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::OnceLock;

/// Largest total uncompressed size accepted inside an .xlsx (a zip): beyond it the file is refused unread.
const MAX_XLSX_UNCOMPRESSED: u64 = 512 * 1024 * 1024;

/// How large one cell, one row and an old-format .xls may be (`IMPORT_MAX_CELL_BYTES`, `IMPORT_MAX_ROW_BYTES`,
/// `IMPORT_MAX_XLS_BYTES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileLimits {
    pub max_cell_bytes: usize,
    pub max_row_bytes: usize,
    /// calamine reads an .xls whole, so the file itself is bounded.
    pub max_xls_bytes: u64,
}

impl Default for FileLimits {
    fn default() -> Self {
        Self {
            max_cell_bytes: 64 * 1024,
            max_row_bytes: 1024 * 1024,
            max_xls_bytes: 32 * 1024 * 1024,
        }
    }
}

static LIMITS: OnceLock<FileLimits> = OnceLock::new();

/// Sets the limits once, at start-up; a process that never sets them uses the defaults.
pub fn set_file_limits(limits: FileLimits) {
    let _ = LIMITS.set(limits);
}

fn limits() -> FileLimits {
    LIMITS.get().copied().unwrap_or_default()
}

/// The rows of a file, header first, cells trimmed.
pub enum Rows {
    Delimited {
        records: Box<delimited::Records>,
        header_read: bool,
    },
    Xlsx(Box<xlsx::SheetRows>),
    Xls(std::vec::IntoIter<Vec<String>>),
    /// A read that ended in an error: the error has been given.
    Failed,
}

impl Iterator for Rows {
    type Item = Result<Vec<String>, JobError>;

    fn next(&mut self) -> Option<Self::Item> {
        let row = match self {
            Rows::Delimited {
                records,
                header_read,
            } => {
                let record = records.next();
                let tracker = records.reader().get_ref();
                // The csv reader ends a quoted cell at the end of the file without complaint, so a missing closing
                // quote would silently turn the rest of the file into one cell.
                if let Some(line) = tracker.unclosed_quote_line() {
                    Err(JobError::BadFile(format!(
                        "The quote opened on line {line} is never closed"
                    )))
                } else if let Some(over) = tracker.over_limit() {
                    Err(bad(over))
                } else {
                    let row = record?
                        .map(|rec| rec.iter().map(|c| c.trim().to_owned()).collect::<Vec<_>>());
                    match row {
                        // A header with a NUL byte is a binary file, not a table whose rows can be skipped.
                        Ok(cells) if !*header_read && has_nul(&cells) => {
                            Err(bad("The file is not a text file (CSV or TXT)"))
                        }
                        Ok(cells) => {
                            *header_read = true;
                            Ok(cells)
                        }
                        Err(e) => Err(JobError::BadFile(format!(
                            "The file could not be read as CSV: {e}"
                        ))),
                    }
                }
            }
            Rows::Xlsx(rows) => rows.next()?,
            Rows::Xls(rows) => Ok(rows.next()?),
            Rows::Failed => return None,
        };
        if row.is_err() {
            *self = Rows::Failed;
        }
        Some(row)
    }
}

pub fn open(path: &Path, format: Format) -> Result<Rows, JobError> {
    let limits = limits();
    match format {
        Format::Delimited => Ok(Rows::Delimited {
            records: Box::new(delimited::open(path, limits)?),
            header_read: false,
        }),
        Format::Excel => {
            let mut file = File::open(path).map_err(io)?;
            let mut magic = [0u8; 4];
            let n = read_up_to(&mut file, &mut magic)?;
            if n == 4 && magic == *b"PK\x03\x04" {
                guard_zip(&mut file)?;
                return Ok(Rows::Xlsx(Box::new(xlsx::open(path)?)));
            }
            xls::open(file, limits).map(Rows::Xls)
        }
    }
}

fn bad(message: &str) -> JobError {
    JobError::BadFile(message.to_owned())
}

fn read_up_to(file: &mut File, buf: &mut [u8]) -> Result<usize, JobError> {
    let mut total = 0;
    while total < buf.len() {
        match file.read(&mut buf[total..]).map_err(io)? {
            0 => break,
            n => total += n,
        }
    }
    Ok(total)
}

/// A cell as the importers see it (what calamine's value displays as; dates as `YYYY-MM-DD HH:MM:SS`).
fn cell_text(cell: &Data) -> String {
    match cell {
        Data::DateTime(dt) => dt
            .as_datetime()
            .map(|d| d.format("%Y-%m-%d %H:%M:%S").to_string())
            .unwrap_or_default(),
        Data::Error(_) | Data::Empty => String::new(),
        other => other.to_string().trim().to_owned(),
    }
}

/// A spreadsheet column's letters: 0 is A, 26 is AA.
fn column_letters(mut column: usize) -> String {
    let mut letters = Vec::new();
    loop {
        letters.push(b'A' + (column % 26) as u8);
        if column < 26 {
            break;
        }
        column = column / 26 - 1;
    }
    letters.reverse();
    String::from_utf8_lossy(&letters).into_owned()
}

/// Refuses archives that would inflate past the limit before any of them is inflated.
fn guard_zip(file: &mut File) -> Result<(), JobError> {
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut archive = zip::ZipArchive::new(&mut *file)
        .map_err(|_| bad("The file is not a readable .xlsx workbook"))?;
    let mut total: u64 = 0;
    for i in 0..archive.len() {
        let entry = archive
            .by_index_raw(i)
            .map_err(|_| bad("The file is not a readable .xlsx workbook"))?;
        total = total.saturating_add(entry.size());
        if total > MAX_XLSX_UNCOMPRESSED {
            return Err(bad(
                "The workbook expands to more than 512 MB and was not read",
            ));
        }
    }
    Ok(())
}

fn io(e: std::io::Error) -> JobError {
    JobError::file(e)
}

#[cfg(test)]
mod tests;
