//! A small streaming XML reader for the parts of an .xlsx the importer reads. Unlike a general reader it holds at
//! most a bounded amount of any one text or tag: a longer text is skipped (or stops the read) and reported as too
//! long, so a cell of hundreds of megabytes costs a buffer, not the heap.

use std::io::{self, Read};

/// Longest tag (name and attributes) accepted; Excel's are well under 1 KB.
const MAX_TAG_BYTES: usize = 64 * 1024;

#[derive(Debug, PartialEq, Eq)]
pub enum Tok {
    /// `<name attr="…">` (or `<name/>` when `empty`), the namespace prefix dropped.
    Open {
        name: String,
        attrs: Vec<(String, String)>,
        empty: bool,
    },
    Close(String),
    /// A run of text, in `XmlReader::text`; `too_long` when it went past the text limit (the text then holds
    /// only its first part).
    Text {
        too_long: bool,
    },
}

#[derive(Debug)]
pub enum XmlError {
    Io(io::Error),
    /// Not well-formed enough to read.
    Malformed(&'static str),
    /// A text went past the limit while `stop_on_long_text` was set: the read stops there.
    TextTooLong,
}

impl From<io::Error> for XmlError {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

pub struct XmlReader<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    /// The last text run, entities decoded, at most `max_text` bytes.
    pub text: Vec<u8>,
    max_text: usize,
    /// Stop at the first byte past the limit instead of skipping the rest of the text.
    pub stop_on_long_text: bool,
}

impl<R: Read> XmlReader<R> {
    pub fn new(inner: R, max_text: usize) -> Self {
        Self {
            inner,
            buf: vec![0u8; 64 * 1024].into_boxed_slice(),
            pos: 0,
            len: 0,
            text: Vec::new(),
            max_text,
            stop_on_long_text: false,
        }
    }

    fn fill(&mut self) -> io::Result<bool> {
        if self.pos < self.len {
            return Ok(true);
        }
        self.pos = 0;
        self.len = self.inner.read(&mut self.buf)?;
        Ok(self.len > 0)
    }

    fn byte(&mut self) -> Result<u8, XmlError> {
        if !self.fill()? {
            return Err(XmlError::Malformed("the XML ends inside a tag"));
        }
        self.pos += 1;
        Ok(self.buf[self.pos - 1])
    }

    /// The next token, or `None` at the end of the document. Declarations, processing instructions and comments
    /// are skipped in a loop (not by recursion: a file of millions of comments must not exhaust the stack).
    pub fn token(&mut self) -> Result<Option<Tok>, XmlError> {
        loop {
            if !self.fill()? {
                return Ok(None);
            }
            if self.buf[self.pos] != b'<' {
                return self.read_text(None).map(Some);
            }
            self.pos += 1;
            match self.byte()? {
                b'?' => self.skip_until(b"?>")?,
                b'!' => {
                    if let Some(tok) = self.read_bang()? {
                        return Ok(Some(tok));
                    }
                }
                b'/' => {
                    let tag = self.read_tag()?;
                    return Ok(Some(Tok::Close(local_name(tag.trim_ascii()))));
                }
                first => {
                    let mut tag = vec![first];
                    tag.extend(self.read_tag()?);
                    return open_tag(&tag).map(Some);
                }
            }
        }
    }

    /// A CDATA section (read as text), or `None` for a comment or a declaration (skipped).
    fn read_bang(&mut self) -> Result<Option<Tok>, XmlError> {
        let mut head = Vec::with_capacity(7);
        while head.len() < 7 && !head.starts_with(b"--") {
            head.push(self.byte()?);
        }
        if head.starts_with(b"--") {
            self.skip_until(b"-->")?;
            Ok(None)
        } else if head == b"[CDATA[" {
            self.read_text(Some(b"]]>")).map(Some)
        } else {
            // A DOCTYPE may declare entities; none are honoured, so it is just skipped.
            self.skip_until(b">")?;
            Ok(None)
        }
    }

    /// Skips past the next `end`.
    fn skip_until(&mut self, end: &[u8]) -> Result<(), XmlError> {
        let mut window = Vec::with_capacity(end.len());
        while window != end {
            if window.len() == end.len() {
                window.remove(0);
            }
            window.push(self.byte()?);
        }
        Ok(())
    }

    /// The bytes up to the closing `>` (outside quotes), which is consumed. Copied a run at a time: from here to
    /// the next quote or `>`, or inside quotes to the closing quote.
    fn read_tag(&mut self) -> Result<Vec<u8>, XmlError> {
        let mut tag = Vec::new();
        let mut quote: Option<u8> = None;
        loop {
            if !self.fill()? {
                return Err(XmlError::Malformed("the XML ends inside a tag"));
            }
            let rest = &self.buf[self.pos..self.len];
            let found = match quote {
                None => rest
                    .iter()
                    .position(|&b| b == b'>' || b == b'"' || b == b'\''),
                Some(q) => rest.iter().position(|&b| b == q),
            };
            match found {
                None => {
                    tag.extend_from_slice(rest);
                    self.pos = self.len;
                }
                Some(at) if quote.is_none() && rest[at] == b'>' => {
                    tag.extend_from_slice(&rest[..at]);
                    self.pos += at + 1;
                    return check_tag(tag);
                }
                Some(at) => {
                    let b = rest[at];
                    tag.extend_from_slice(&rest[..=at]);
                    self.pos += at + 1;
                    quote = if quote.is_some() { None } else { Some(b) };
                }
            }
            if tag.len() > MAX_TAG_BYTES {
                return Err(XmlError::Malformed("a tag is too long"));
            }
        }
    }

    /// Text up to the next `<` (or, for CDATA, up to `]]>`, without entity decoding).
    fn read_text(&mut self, cdata_end: Option<&[u8]>) -> Result<Tok, XmlError> {
        self.text.clear();
        let mut too_long = false;
        let mut raw = Vec::new();
        loop {
            if !self.fill()? {
                if cdata_end.is_some() {
                    return Err(XmlError::Malformed("the XML ends inside a CDATA section"));
                }
                break;
            }
            if cdata_end.is_none() && self.buf[self.pos] == b'<' {
                break;
            }
            let b = self.buf[self.pos];
            self.pos += 1;
            if let Some(end) = cdata_end {
                raw.push(b);
                if raw.ends_with(end) {
                    raw.truncate(raw.len() - end.len());
                    too_long |= self.push_text(&raw)?;
                    break;
                }
                if raw.len() > end.len() {
                    let keep = raw.split_off(raw.len() - end.len());
                    too_long |= self.push_text(&raw)?;
                    raw = keep;
                }
            } else if b == b'&' {
                let decoded = self.read_entity()?;
                too_long |= self.push_text(decoded.encode_utf8(&mut [0u8; 4]).as_bytes())?;
            } else {
                // The plain run up to the next markup, copied at once.
                let start = self.pos - 1;
                let end = self.buf[start..self.len]
                    .iter()
                    .position(|&c| c == b'<' || c == b'&')
                    .map_or(self.len, |i| start + i);
                self.pos = end;
                too_long |= push_text(
                    &mut self.text,
                    self.max_text,
                    self.stop_on_long_text,
                    &self.buf[start..end],
                )?;
            }
        }
        Ok(Tok::Text { too_long })
    }

    fn push_text(&mut self, bytes: &[u8]) -> Result<bool, XmlError> {
        push_text(&mut self.text, self.max_text, self.stop_on_long_text, bytes)
    }

    /// After `&`: the character an entity or character reference stands for.
    fn read_entity(&mut self) -> Result<char, XmlError> {
        let mut name = Vec::new();
        loop {
            let b = self.byte()?;
            if b == b';' {
                break;
            }
            name.push(b);
            if name.len() > 10 {
                return Err(XmlError::Malformed("an entity is not closed"));
            }
        }
        let code = match name.as_slice() {
            b"lt" => return Ok('<'),
            b"gt" => return Ok('>'),
            b"amp" => return Ok('&'),
            b"quot" => return Ok('"'),
            b"apos" => return Ok('\''),
            [b'#', b'x' | b'X', hex @ ..] => std::str::from_utf8(hex)
                .ok()
                .and_then(|h| u32::from_str_radix(h, 16).ok()),
            [b'#', dec @ ..] => std::str::from_utf8(dec).ok().and_then(|d| d.parse().ok()),
            _ => None,
        };
        code.and_then(char::from_u32)
            .ok_or(XmlError::Malformed("an unknown entity"))
    }
}

fn check_tag(tag: Vec<u8>) -> Result<Vec<u8>, XmlError> {
    if tag.len() > MAX_TAG_BYTES {
        return Err(XmlError::Malformed("a tag is too long"));
    }
    Ok(tag)
}

/// Appends to a text of at most `max` bytes; true once it is past the limit (or an error, when asked to stop).
fn push_text(text: &mut Vec<u8>, max: usize, stop: bool, bytes: &[u8]) -> Result<bool, XmlError> {
    let room = max.saturating_sub(text.len());
    text.extend_from_slice(&bytes[..bytes.len().min(room)]);
    if bytes.len() > room {
        if stop {
            return Err(XmlError::TextTooLong);
        }
        return Ok(true);
    }
    Ok(false)
}

fn local_name(name: &[u8]) -> String {
    let name = name.rsplit(|&b| b == b':').next().unwrap_or(name);
    String::from_utf8_lossy(name).into_owned()
}

fn open_tag(tag: &[u8]) -> Result<Tok, XmlError> {
    let empty = tag.ends_with(b"/");
    let tag = if empty { &tag[..tag.len() - 1] } else { tag };
    let name_end = tag
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .unwrap_or(tag.len());
    let name = local_name(&tag[..name_end]);
    let mut attrs = Vec::new();
    let mut rest = &tag[name_end..];
    loop {
        rest = rest.trim_ascii_start();
        if rest.is_empty() {
            break;
        }
        let eq = rest
            .iter()
            .position(|&b| b == b'=')
            .ok_or(XmlError::Malformed("an attribute has no value"))?;
        let key = local_name(rest[..eq].trim_ascii());
        rest = rest[eq + 1..].trim_ascii_start();
        let quote = *rest
            .first()
            .ok_or(XmlError::Malformed("an attribute has no value"))?;
        if quote != b'"' && quote != b'\'' {
            return Err(XmlError::Malformed("an attribute value is not quoted"));
        }
        let end = rest[1..]
            .iter()
            .position(|&b| b == quote)
            .ok_or(XmlError::Malformed("an attribute value is not closed"))?;
        let value = decode_attr(&rest[1..1 + end])?;
        attrs.push((key, value));
        rest = &rest[end + 2..];
    }
    Ok(Tok::Open { name, attrs, empty })
}

/// Attribute values the importer reads are references, numbers and paths; entities are decoded all the same.
fn decode_attr(raw: &[u8]) -> Result<String, XmlError> {
    if !raw.contains(&b'&') {
        return Ok(String::from_utf8_lossy(raw).into_owned());
    }
    let mut reader = XmlReader::new(raw, MAX_TAG_BYTES);
    reader.read_text(None)?;
    Ok(String::from_utf8_lossy(&reader.text).into_owned())
}

/// The value of an attribute of an `Open` token.
pub fn attr<'a>(attrs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(xml: &str, max_text: usize) -> Vec<String> {
        let mut reader = XmlReader::new(xml.as_bytes(), max_text);
        let mut out = Vec::new();
        while let Some(tok) = reader.token().map_err(|e| format!("{e:?}")).unwrap() {
            out.push(match tok {
                Tok::Open { name, attrs, empty } => {
                    format!("<{name}{attrs:?}{}>", if empty { "/" } else { "" })
                }
                Tok::Close(name) => format!("</{name}>"),
                Tok::Text { too_long } => format!(
                    "{}{}",
                    String::from_utf8_lossy(&reader.text),
                    if too_long { "…" } else { "" }
                ),
            });
        }
        out
    }

    #[test]
    fn entities_comments_and_long_texts() {
        assert_eq!(
            tokens(
                r#"<?xml version="1.0"?><!DOCTYPE x><a:b k='v>w' q="&lt;&#x41;&#66;"><!-- a --- b ---><c/>x &amp; y</a:b>"#,
                100
            ),
            [
                r#"<b[("k", "v>w"), ("q", "<AB")]>"#,
                "<c[]/>",
                "x & y",
                "</b>"
            ]
        );
        // A text past the limit keeps its first part and is marked; the read goes on after it.
        assert_eq!(
            tokens("<t>abcdefgh</t><u/>", 4),
            ["<t[]>", "abcd…", "</t>", "<u[]/>"]
        );
    }

    #[test]
    fn a_million_comments_do_not_exhaust_the_stack() {
        let xml = format!("<a>{}</a>", "<!---->".repeat(1_000_000));
        assert_eq!(tokens(&xml, 10), ["<a[]>", "</a>"]);
    }
}
