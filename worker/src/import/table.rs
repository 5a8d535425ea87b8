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
    Delimited(csv::StringRecordsIntoIter<Box<dyn Read + Send>>),
    Excel(std::vec::IntoIter<Vec<String>>),
}

impl Iterator for Rows {
    type Item = Result<Vec<String>, JobError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Rows::Delimited(records) => records.next().map(|r| {
                r.map(|rec| rec.iter().map(|c| c.trim().to_owned()).collect())
                    .map_err(|e| {
                        JobError::BadFile(format!("The file could not be read as CSV: {e}"))
                    })
            }),
            Rows::Excel(rows) => rows.next().map(Ok),
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
    let reader: Box<dyn Read + Send> = Box::new(decoded);
    let records = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter.unwrap_or(b','))
        .from_reader(reader)
        .into_records();
    Ok(Rows::Delimited(records))
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
    JobError::Io(e.to_string())
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

    #[test]
    fn text_with_nul_bytes_is_not_a_csv() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(b"Email\n\x00\x01\x02").unwrap();
        let err = open(file.path(), Format::Delimited).err().expect("refused");
        assert_eq!(err.to_string(), "The file is not a text file (CSV or TXT)");
    }
}
