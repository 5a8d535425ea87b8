//! Reads an uploaded spreadsheet row by row: CSV/TXT streamed from disk (delimiter and encoding detected),
//! XLS/XLSX through calamine after a guard against zip bombs.

use crate::JobError;
use calamine::{open_workbook_auto_from_rs, Data, Reader};
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// Largest total uncompressed size accepted inside an .xlsx (a zip): beyond it the file is refused unread.
const MAX_XLSX_UNCOMPRESSED: u64 = 512 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Delimited,
    Excel,
}

impl Format {
    /// From the file name the user uploaded; anything else is refused before it is stored.
    pub fn from_filename(name: &str, allow_txt: bool) -> Option<Self> {
        let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase())?;
        match ext.as_str() {
            "csv" => Some(Self::Delimited),
            "txt" if allow_txt => Some(Self::Delimited),
            "xls" | "xlsx" => Some(Self::Excel),
            _ => None,
        }
    }
}

/// The rows of a file, header first, cells trimmed.
pub enum Rows {
    Delimited(csv::StringRecordsIntoIter<QuoteTracker<Box<dyn Read + Send>>>),
    Excel(std::vec::IntoIter<Vec<String>>),
    /// A delimited file whose last quote was never closed: the error has been given.
    Failed,
}

impl Iterator for Rows {
    type Item = Result<Vec<String>, JobError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Rows::Delimited(records) => {
                let record = records.next();
                // The csv reader ends a quoted cell at the end of the file without complaint, so a missing closing
                // quote would silently turn the rest of the file into one cell.
                if let Some(line) = records.reader().get_ref().unclosed_quote_line() {
                    *self = Rows::Failed;
                    return Some(Err(JobError::BadFile(format!(
                        "The quote opened on line {line} is never closed"
                    ))));
                }
                record.map(|r| {
                    r.map(|rec| rec.iter().map(|c| c.trim().to_owned()).collect())
                        .map_err(|e| {
                            JobError::BadFile(format!("The file could not be read as CSV: {e}"))
                        })
                })
            }
            Rows::Excel(rows) => rows.next().map(Ok),
            Rows::Failed => None,
        }
    }
}

pub fn open(path: &Path, format: Format) -> Result<Rows, JobError> {
    match format {
        Format::Delimited => open_delimited(path),
        Format::Excel => open_excel(path),
    }
}

fn bad(message: &str) -> JobError {
    JobError::BadFile(message.to_owned())
}

fn open_delimited(path: &Path) -> Result<Rows, JobError> {
    let mut file = File::open(path).map_err(io)?;
    let mut head = vec![0u8; 64 * 1024];
    let n = read_up_to(&mut file, &mut head)?;
    head.truncate(n);
    if head.contains(&0) {
        return Err(bad("The file is not a text file (CSV or TXT)"));
    }
    let utf8 = is_utf8(&mut file)?;
    let first_line = head.split(|&b| b == b'\n').next().unwrap_or(&[]);
    let delimiter = [b'\t', b';', b',']
        .into_iter()
        .max_by_key(|d| first_line.iter().filter(|&b| b == d).count());
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    // Windows-1252 when the bytes are not UTF-8 (spreadsheets saved on Windows); a UTF-8 BOM is dropped either way.
    let encoding = if utf8 {
        encoding_rs::UTF_8
    } else {
        encoding_rs::WINDOWS_1252
    };
    let decoded = encoding_rs_io::DecodeReaderBytesBuilder::new()
        .encoding(Some(encoding))
        .bom_sniffing(true)
        .build(BufReader::with_capacity(256 * 1024, file));
    let delimiter = delimiter.unwrap_or(b',');
    let reader = QuoteTracker::new(Box::new(decoded) as Box<dyn Read + Send>, delimiter);
    let records = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(reader)
        .into_records();
    Ok(Rows::Delimited(records))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum QuoteState {
    /// At the start of a cell, where a quote opens a quoted cell.
    CellStart,
    /// Inside an unquoted cell, where a quote is an ordinary character.
    Unquoted,
    /// Inside a quoted cell, opened on this line.
    Quoted { line: u64 },
    /// Just after a quote inside a quoted cell: a second quote is an escaped one, anything else closes the cell.
    QuoteInQuoted { line: u64 },
}

/// Passes the decoded text through unchanged while following the csv crate's quoting rules (RFC 4180: a quote
/// opens a cell only at its start; `""` inside is a literal quote), so that at the end of the file it can tell
/// whether a quoted cell was left open, and where it began.
pub struct QuoteTracker<R> {
    inner: R,
    delimiter: u8,
    line: u64,
    state: QuoteState,
    at_end: bool,
}

impl<R: Read> QuoteTracker<R> {
    fn new(inner: R, delimiter: u8) -> Self {
        Self {
            inner,
            delimiter,
            line: 1,
            state: QuoteState::CellStart,
            at_end: false,
        }
    }

    /// Once the whole input has been read: the line where a quoted cell that never closed began.
    fn unclosed_quote_line(&self) -> Option<u64> {
        match self.state {
            QuoteState::Quoted { line } if self.at_end => Some(line),
            _ => None,
        }
    }

    fn follow(&mut self, bytes: &[u8]) {
        for &b in bytes {
            let ends_cell = b == self.delimiter || b == b'\n' || b == b'\r';
            self.state = match self.state {
                QuoteState::CellStart | QuoteState::Unquoted if ends_cell => QuoteState::CellStart,
                QuoteState::CellStart if b == b'"' => QuoteState::Quoted { line: self.line },
                QuoteState::CellStart | QuoteState::Unquoted => QuoteState::Unquoted,
                QuoteState::Quoted { line } if b == b'"' => QuoteState::QuoteInQuoted { line },
                QuoteState::Quoted { line } => QuoteState::Quoted { line },
                QuoteState::QuoteInQuoted { line } if b == b'"' => QuoteState::Quoted { line },
                QuoteState::QuoteInQuoted { .. } if ends_cell => QuoteState::CellStart,
                QuoteState::QuoteInQuoted { .. } => QuoteState::Unquoted,
            };
            if b == b'\n' {
                self.line += 1;
            }
        }
    }
}

impl<R: Read> Read for QuoteTracker<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.at_end = true;
        }
        self.follow(&buf[..n]);
        Ok(n)
    }
}

/// Streams the file once to check it is valid UTF-8, without holding it in memory.
fn is_utf8(file: &mut File) -> Result<bool, JobError> {
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut buf = vec![0u8; 1024 * 1024];
    let mut carry = 0usize;
    loop {
        let n = read_up_to(file, &mut buf[carry..])?;
        let filled = carry + n;
        if filled == 0 {
            return Ok(true);
        }
        match std::str::from_utf8(&buf[..filled]) {
            Ok(_) => carry = 0,
            // An incomplete sequence at the end of the buffer continues in the next read.
            Err(e) if e.error_len().is_none() && n > 0 => {
                let valid = e.valid_up_to();
                buf.copy_within(valid..filled, 0);
                carry = filled - valid;
            }
            Err(_) => return Ok(false),
        }
        if n == 0 {
            return Ok(carry == 0);
        }
    }
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

fn open_excel(path: &Path) -> Result<Rows, JobError> {
    let mut file = File::open(path).map_err(io)?;
    let mut magic = [0u8; 4];
    let n = read_up_to(&mut file, &mut magic)?;
    if n == 4 && magic == *b"PK\x03\x04" {
        guard_zip(&mut file)?;
    }
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    // calamine needs a cloneable reader; the compressed workbook is small next to what it holds.
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io)?;
    let mut workbook = open_workbook_auto_from_rs(std::io::Cursor::new(bytes))
        .map_err(|_| bad("The file is not a readable Excel workbook (.xls or .xlsx)"))?;
    let range = workbook
        .worksheet_range_at(0)
        .ok_or_else(|| bad("The workbook has no sheets"))?
        .map_err(|_| bad("The first sheet of the workbook could not be read"))?;
    let rows: Vec<Vec<String>> = range
        .rows()
        .map(|row| row.iter().map(cell_text).collect())
        .collect();
    Ok(Rows::Excel(rows.into_iter()))
}

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
    JobError::File(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A small zip whose central directory claims a 4 GB entry, as a zip bomb does.
    fn bomb() -> tempfile::NamedTempFile {
        let mut bytes = Vec::new();
        {
            let mut zip = zip::ZipWriter::new(std::io::Cursor::new(&mut bytes));
            zip.start_file(
                "xl/worksheets/sheet1.xml",
                zip::write::SimpleFileOptions::default(),
            )
            .unwrap();
            zip.write_all(&[b'a'; 1000]).unwrap();
            zip.finish().unwrap();
        }
        let central = bytes
            .windows(4)
            .position(|w| w == [0x50, 0x4b, 0x01, 0x02])
            .unwrap();
        bytes[central + 24..central + 28].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(&bytes).unwrap();
        file
    }

    #[test]
    fn an_archive_that_would_inflate_past_the_limit_is_refused_unread() {
        let file = bomb();
        let err = open(file.path(), Format::Excel).err().expect("refused");
        assert_eq!(
            err.to_string(),
            "The workbook expands to more than 512 MB and was not read"
        );
    }

    fn rows_of(text: &[u8]) -> Vec<Result<Vec<String>, String>> {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(text).unwrap();
        open(file.path(), Format::Delimited)
            .unwrap()
            .map(|r| r.map_err(|e| e.to_string()))
            .collect()
    }

    #[test]
    fn a_quote_left_open_is_an_error_naming_its_line() {
        let rows = rows_of(b"Email,First\r\na@x.org,\"Ann\r\nb@x.org,Bob\r\n");
        assert_eq!(
            rows.last().unwrap(),
            &Err("The quote opened on line 2 is never closed".to_owned())
        );
        // Quotes inside an unquoted cell, doubled quotes and line breaks inside quoted cells are all fine.
        let rows = rows_of(
            b"Email;Name\na@x.org;5\" floppy\n\"b@x.org\";\"B \"\"Q\"\"\nZ\"\n\"c\"d@x.org;C\n",
        );
        assert!(rows.iter().all(Result::is_ok), "{rows:?}");
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[2].as_ref().unwrap()[1], "B \"Q\"\nZ");
    }

    #[test]
    fn text_with_nul_bytes_is_not_a_csv() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(b"Email\n\x00\x01\x02").unwrap();
        let err = open(file.path(), Format::Delimited).err().expect("refused");
        assert_eq!(err.to_string(), "The file is not a text file (CSV or TXT)");
    }
}
