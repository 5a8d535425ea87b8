//! The workbook's shared string table, read once as a stream. Each text is kept up to the cell limit (a longer one
//! is remembered only as too long, so the cell that uses it can be named); the texts share one buffer, and past
//! `IN_MEMORY_BYTES` the rest go to an anonymous temp file, so a table of millions of texts stays small in memory.

use super::xml::{Tok, XmlError, XmlReader};
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::os::unix::fs::FileExt;

/// Shared texts held in memory; the rest are read back from the temp file when a cell needs them.
const IN_MEMORY_BYTES: usize = 16 * 1024 * 1024;
/// At most this many shared texts (their offsets take 8 bytes each): over a million rows of several distinct texts.
pub const MAX_SHARED_STRINGS: usize = 8_000_000;
/// The high bit of an offset marks a text that was longer than the cell limit.
const TOO_LONG: u64 = 1 << 63;

pub enum Shared {
    Text(String),
    TooLong,
    Missing,
}

#[derive(Default)]
pub struct SharedStrings {
    /// Where each text starts (and, last, where the final one ends), flagged when too long.
    offsets: Vec<u64>,
    memory: Vec<u8>,
    /// Texts from this offset on live in `spill`.
    spill_from: u64,
    spill: Option<File>,
    in_memory: usize,
}

pub enum LoadError {
    Xml(XmlError),
    TooMany,
}

impl From<XmlError> for LoadError {
    fn from(e: XmlError) -> Self {
        Self::Xml(e)
    }
}

impl From<std::io::Error> for LoadError {
    fn from(e: std::io::Error) -> Self {
        Self::Xml(XmlError::Io(e))
    }
}

impl SharedStrings {
    /// Reads `<sst>`: each `<si>` is one text, made of its `<t>` runs (phonetic `<rPh>` runs left out).
    pub fn load<R: Read>(xml: &mut XmlReader<R>, max_cell: usize) -> Result<Self, LoadError> {
        Self::load_keeping(xml, max_cell, IN_MEMORY_BYTES)
    }

    /// `load`, keeping `in_memory` bytes of texts in memory.
    fn load_keeping<R: Read>(
        xml: &mut XmlReader<R>,
        max_cell: usize,
        in_memory: usize,
    ) -> Result<Self, LoadError> {
        let mut table = Self {
            spill_from: u64::MAX,
            in_memory,
            ..Self::default()
        };
        let mut writer: Option<BufWriter<File>> = None;
        let mut end: u64 = 0;
        let (mut current, mut too_long) = (Vec::new(), false);
        let (mut in_t, mut in_phonetic) = (false, 0usize);
        while let Some(tok) = xml.token()? {
            match tok {
                Tok::Open { name, empty, .. } => match name.as_str() {
                    "si" => {
                        current.clear();
                        too_long = false;
                        if empty {
                            table.push(&mut end, &[], false, &mut writer)?;
                        }
                    }
                    "t" if !empty => in_t = true,
                    "rPh" if !empty => in_phonetic += 1,
                    _ => {}
                },
                Tok::Close(name) => match name.as_str() {
                    "si" => table.push(&mut end, &current, too_long, &mut writer)?,
                    "t" => in_t = false,
                    "rPh" => in_phonetic = in_phonetic.saturating_sub(1),
                    _ => {}
                },
                Tok::Text { too_long: long } if in_t && in_phonetic == 0 => {
                    let room = max_cell.saturating_sub(current.len());
                    too_long |= long || xml.text.len() > room;
                    if !too_long {
                        current.extend_from_slice(&xml.text);
                    }
                }
                Tok::Text { .. } => {}
            }
        }
        table.offsets.push(end);
        if let Some(w) = writer {
            table.spill = Some(w.into_inner().map_err(|e| e.into_error())?);
        }
        Ok(table)
    }

    fn push(
        &mut self,
        end: &mut u64,
        text: &[u8],
        too_long: bool,
        writer: &mut Option<BufWriter<File>>,
    ) -> Result<(), LoadError> {
        if self.offsets.len() >= MAX_SHARED_STRINGS {
            return Err(LoadError::TooMany);
        }
        self.offsets
            .push(*end | if too_long { TOO_LONG } else { 0 });
        if self.memory.len() + text.len() <= self.in_memory && writer.is_none() {
            self.memory.extend_from_slice(text);
        } else {
            if writer.is_none() {
                self.spill_from = *end;
                *writer = Some(BufWriter::new(tempfile::tempfile()?));
            }
            if let Some(w) = writer {
                w.write_all(text)?;
            }
        }
        *end += text.len() as u64;
        Ok(())
    }

    pub fn get(&self, index: usize) -> Shared {
        let (Some(&start), Some(&next)) = (self.offsets.get(index), self.offsets.get(index + 1))
        else {
            return Shared::Missing;
        };
        if start & TOO_LONG != 0 {
            return Shared::TooLong;
        }
        let (start, end) = (start, next & !TOO_LONG);
        let bytes = if start >= self.spill_from {
            let mut bytes = vec![0u8; (end - start) as usize];
            let read = self
                .spill
                .as_ref()
                .map(|f| f.read_exact_at(&mut bytes, start - self.spill_from));
            if !matches!(read, Some(Ok(()))) {
                return Shared::Missing;
            }
            bytes
        } else {
            self.memory[start as usize..end as usize].to_vec()
        };
        Shared::Text(String::from_utf8_lossy(&bytes).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(table: &SharedStrings, i: usize) -> String {
        match table.get(i) {
            Shared::Text(t) => t,
            Shared::TooLong => "<too long>".to_owned(),
            Shared::Missing => "<missing>".to_owned(),
        }
    }

    #[test]
    fn texts_past_the_memory_share_spill_to_disk_and_long_ones_are_marked() {
        let xml = format!(
            "<sst><si><t>one</t></si><si/><si><t>{}</t></si><si><r><t>fo</t></r><r><t>ur</t></r></si><si><t>five</t></si></sst>",
            "x".repeat(20)
        );
        let mut reader = XmlReader::new(xml.as_bytes(), 10);
        let table = SharedStrings::load_keeping(&mut reader, 10, 4)
            .map_err(|_| ())
            .unwrap();
        assert!(table.spill.is_some());
        let all: Vec<String> = (0..6).map(|i| text(&table, i)).collect();
        assert_eq!(all, ["one", "", "<too long>", "four", "five", "<missing>"]);
    }
}
