//! CSV/TXT read as a stream: delimiter and encoding detected from the file, quoting followed byte by byte so an
//! unclosed quote and a cell or row past the limits are caught where they start (the csv reader would otherwise
//! hold a whole oversized cell in memory before handing it over).

use super::{io, read_up_to, FileLimits};
use jobs::JobError;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

pub type Records = csv::StringRecordsIntoIter<QuoteTracker<Box<dyn Read + Send>>>;

pub fn open(path: &Path, limits: FileLimits) -> Result<Records, JobError> {
    let mut file = File::open(path).map_err(io)?;
    let mut head = vec![0u8; 64 * 1024];
    let n = read_up_to(&mut file, &mut head)?;
    head.truncate(n);
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
    let reader = QuoteTracker::new(Box::new(decoded) as Box<dyn Read + Send>, delimiter, limits);
    Ok(csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(reader)
        .into_records())
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
/// whether a quoted cell was left open, and where it began; and so that it can stop at a cell or row longer than
/// the limits, naming it.
pub struct QuoteTracker<R> {
    inner: R,
    delimiter: u8,
    limits: FileLimits,
    line: u64,
    state: QuoteState,
    at_end: bool,
    /// The line the current row starts on, its column (0-based) and the bytes read of the cell and the row.
    row_line: u64,
    column: usize,
    cell_bytes: usize,
    row_bytes: usize,
    over_limit: Option<String>,
}

impl<R: Read> QuoteTracker<R> {
    fn new(inner: R, delimiter: u8, limits: FileLimits) -> Self {
        Self {
            inner,
            delimiter,
            limits,
            line: 1,
            state: QuoteState::CellStart,
            at_end: false,
            row_line: 1,
            column: 0,
            cell_bytes: 0,
            row_bytes: 0,
            over_limit: None,
        }
    }

    /// Once the whole input has been read: the line where a quoted cell that never closed began.
    pub fn unclosed_quote_line(&self) -> Option<u64> {
        match self.state {
            QuoteState::Quoted { line } if self.at_end => Some(line),
            _ => None,
        }
    }

    /// The cell or row that went past a limit, as an error for the user.
    pub fn over_limit(&self) -> Option<&str> {
        self.over_limit.as_deref()
    }

    fn follow(&mut self, bytes: &[u8]) -> Result<(), String> {
        for &b in bytes {
            let ends_cell = b == self.delimiter || b == b'\n' || b == b'\r';
            let quoted = matches!(self.state, QuoteState::Quoted { .. });
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
            if ends_cell && !quoted {
                self.cell_bytes = 0;
                if b == self.delimiter {
                    self.column += 1;
                } else {
                    // The end of a row: the next one starts on the following line.
                    self.column = 0;
                    self.row_bytes = 0;
                    self.row_line = self.line + u64::from(b == b'\r');
                }
                continue;
            }
            self.cell_bytes += 1;
            self.row_bytes += 1;
            let place = |what: &str, limit: usize| {
                format!(
                    "Row {}, column {}: the {what} is longer than {limit} bytes",
                    self.row_line,
                    self.column + 1
                )
            };
            if self.cell_bytes > self.limits.max_cell_bytes {
                return Err(place("cell", self.limits.max_cell_bytes));
            }
            if self.row_bytes > self.limits.max_row_bytes {
                return Err(place("row", self.limits.max_row_bytes));
            }
        }
        Ok(())
    }
}

impl<R: Read> Read for QuoteTracker<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.over_limit.is_some() {
            return Err(std::io::Error::other("over the limit"));
        }
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.at_end = true;
        }
        if let Err(message) = self.follow(&buf[..n]) {
            self.over_limit = Some(message);
            return Err(std::io::Error::other("over the limit"));
        }
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
