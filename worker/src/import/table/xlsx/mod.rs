//! .xlsx read as a stream: the zip's parts are inflated on the fly (never more than each part's declared size, so
//! the zip-bomb guard holds) and their XML read by a bounded reader, so memory stays flat however large a cell,
//! a row or the shared string table is.

mod sheet;
mod strings;
mod styles;
pub mod xml;

pub use sheet::SheetRows;

use super::{bad, io, limits};
use jobs::JobError;
pub(super) use malformed as xml_error;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;
use xml::{attr, Tok, XmlReader};

type Part = Box<dyn Read + Send>;

const UNREADABLE: &str = "The file is not a readable Excel workbook (.xls or .xlsx)";

/// Where each part of the archive is, found once from the central directory.
struct Parts {
    path: std::path::PathBuf,
    entries: Vec<(String, Entry)>,
}

#[derive(Clone, Copy)]
struct Entry {
    data_start: u64,
    compressed: u64,
    size: u64,
    deflated: bool,
}

impl Parts {
    fn read(path: &Path) -> Result<Self, JobError> {
        let file = File::open(path).map_err(io)?;
        let mut archive = zip::ZipArchive::new(file).map_err(|_| bad(UNREADABLE))?;
        let mut entries = Vec::with_capacity(archive.len().min(1024));
        for i in 0..archive.len() {
            let entry = archive.by_index_raw(i).map_err(|_| bad(UNREADABLE))?;
            let deflated = match entry.compression() {
                zip::CompressionMethod::Deflated => true,
                zip::CompressionMethod::Stored => false,
                _ => continue,
            };
            entries.push((
                entry.name().trim_start_matches('/').to_owned(),
                Entry {
                    data_start: entry.data_start(),
                    compressed: entry.compressed_size(),
                    size: entry.size(),
                    deflated,
                },
            ));
        }
        Ok(Self {
            path: path.to_owned(),
            entries,
        })
    }

    /// A part's bytes, inflated as they are read; never more than its declared size.
    fn open(&self, name: &str) -> Result<Option<Part>, JobError> {
        let Some((_, entry)) = self
            .entries
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        else {
            return Ok(None);
        };
        let mut file = File::open(&self.path).map_err(io)?;
        file.seek(SeekFrom::Start(entry.data_start)).map_err(io)?;
        let raw = BufReader::with_capacity(64 * 1024, file).take(entry.compressed);
        let part: Part = if entry.deflated {
            Box::new(flate2::read::DeflateDecoder::new(raw).take(entry.size))
        } else {
            Box::new(raw.take(entry.size))
        };
        Ok(Some(part))
    }

    fn xml(&self, name: &str, max_text: usize) -> Result<Option<XmlReader<Part>>, JobError> {
        Ok(self.open(name)?.map(|p| XmlReader::new(p, max_text)))
    }
}

/// The first sheet's part, the shared strings' and the styles' (from the workbook's relationships), and whether
/// dates count from 1904.
struct Workbook {
    sheet: String,
    shared_strings: String,
    styles: String,
    is_1904: bool,
}

/// A part that does not inflate or parse is an unreadable workbook; the disk failing is not the file's fault.
pub(super) fn malformed(e: xml::XmlError) -> JobError {
    match e {
        xml::XmlError::Io(e)
            if !matches!(
                e.kind(),
                std::io::ErrorKind::InvalidData | std::io::ErrorKind::UnexpectedEof
            ) =>
        {
            io(e)
        }
        _ => bad(UNREADABLE),
    }
}

fn workbook(parts: &Parts) -> Result<Workbook, JobError> {
    let mut xml = parts
        .xml("xl/workbook.xml", 4096)?
        .ok_or_else(|| bad(UNREADABLE))?;
    let (mut first_sheet, mut is_1904) = (None, false);
    while let Some(tok) = xml.token().map_err(malformed)? {
        if let Tok::Open { name, attrs, .. } = tok {
            match name.as_str() {
                "workbookPr" => {
                    is_1904 = matches!(attr(&attrs, "date1904"), Some("1" | "true"));
                }
                "sheet" if first_sheet.is_none() => {
                    first_sheet = Some(attr(&attrs, "id").unwrap_or_default().to_owned());
                }
                _ => {}
            }
        }
    }
    let first_sheet = first_sheet.ok_or_else(|| bad("The workbook has no sheets"))?;
    let mut book = Workbook {
        sheet: "xl/worksheets/sheet1.xml".to_owned(),
        shared_strings: "xl/sharedStrings.xml".to_owned(),
        styles: "xl/styles.xml".to_owned(),
        is_1904,
    };
    if let Some(mut rels) = parts.xml("xl/_rels/workbook.xml.rels", 4096)? {
        while let Some(tok) = rels.token().map_err(malformed)? {
            let Tok::Open { name, attrs, .. } = tok else {
                continue;
            };
            let (Some(id), Some(kind), Some(target)) = (
                attr(&attrs, "Id"),
                attr(&attrs, "Type"),
                attr(&attrs, "Target"),
            ) else {
                continue;
            };
            if name != "Relationship" {
                continue;
            }
            let target = match target.strip_prefix('/') {
                Some(absolute) => absolute.to_owned(),
                None => format!("xl/{target}"),
            };
            if id == first_sheet {
                book.sheet = target;
            } else if kind.ends_with("/sharedStrings") {
                book.shared_strings = target;
            } else if kind.ends_with("/styles") {
                book.styles = target;
            }
        }
    }
    Ok(book)
}

/// Opens the first sheet of an .xlsx for reading row by row.
pub fn open(path: &Path) -> Result<SheetRows, JobError> {
    let limits = limits();
    let parts = Parts::read(path)?;
    let book = workbook(&parts)?;
    let strings = match parts.xml(&book.shared_strings, limits.max_cell_bytes)? {
        Some(mut xml) => {
            strings::SharedStrings::load(&mut xml, limits.max_cell_bytes).map_err(|e| match e {
                strings::LoadError::TooMany => bad(&format!(
                    "The workbook holds more than {} different texts and was not read",
                    strings::MAX_SHARED_STRINGS
                )),
                strings::LoadError::Xml(e) => malformed(e),
            })?
        }
        None => strings::SharedStrings::default(),
    };
    let styles = match parts.xml(&book.styles, 4096)? {
        Some(mut xml) => styles::load(&mut xml).map_err(malformed)?,
        None => Vec::new(),
    };
    let sheet = parts
        .xml(&book.sheet, limits.max_cell_bytes)?
        .ok_or_else(|| bad("The workbook has no sheets"))?;
    Ok(SheetRows::new(sheet, strings, styles, book.is_1904, limits))
}
