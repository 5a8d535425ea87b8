//! Which cell styles show a number as a date or time (as calamine decides it), and the workbook's date system.

use super::xml::{attr, Tok, XmlError, XmlReader};
use std::io::Read;

/// More cell styles than any workbook has; a longer list is cut here.
const MAX_STYLES: usize = 65_536;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberKind {
    Plain,
    DateTime,
    Duration,
}

/// `cellXfs` in order: what each style index shows a number as.
pub fn load<R: Read>(xml: &mut XmlReader<R>) -> Result<Vec<NumberKind>, XmlError> {
    let mut custom: Vec<(String, NumberKind)> = Vec::new();
    let mut kinds = Vec::new();
    let mut in_cell_xfs = false;
    while let Some(tok) = xml.token()? {
        match tok {
            Tok::Open { name, attrs, empty } => match name.as_str() {
                "numFmt" => {
                    if let (Some(id), Some(code)) =
                        (attr(&attrs, "numFmtId"), attr(&attrs, "formatCode"))
                    {
                        if custom.len() < MAX_STYLES {
                            custom.push((id.to_owned(), detect(code)));
                        }
                    }
                }
                "cellXfs" if !empty => in_cell_xfs = true,
                "xf" if in_cell_xfs && kinds.len() < MAX_STYLES => {
                    let id = attr(&attrs, "numFmtId").unwrap_or("0");
                    let kind = custom
                        .iter()
                        .find(|(c, _)| c == id)
                        .map(|(_, k)| *k)
                        .unwrap_or_else(|| builtin(id));
                    kinds.push(kind);
                }
                _ => {}
            },
            Tok::Close(name) if name == "cellXfs" => in_cell_xfs = false,
            _ => {}
        }
    }
    Ok(kinds)
}

fn builtin(id: &str) -> NumberKind {
    match id.parse::<u16>() {
        Ok(14..=22 | 45 | 47) => NumberKind::DateTime,
        Ok(46) => NumberKind::Duration,
        _ => NumberKind::Plain,
    }
}

/// calamine's reading of a custom number format (its `detect_custom_number_format`), so dates read as before.
fn detect(format: &str) -> NumberKind {
    let (mut escaped, mut quoted, mut ap, mut hms) = (false, false, false, false);
    let mut brackets = 0u8;
    let mut prev = ' ';
    for s in format.chars() {
        match (s, escaped, quoted, ap, brackets) {
            (_, true, ..) => escaped = false,
            ('_' | '\\', ..) => escaped = true,
            ('"', _, true, _, _) => quoted = false,
            (_, _, true, _, _) => (),
            ('"', ..) => quoted = true,
            (';', ..) => return NumberKind::Plain,
            ('[', ..) => brackets += 1,
            (']', .., 1) if hms => return NumberKind::Duration,
            (']', ..) => brackets = brackets.saturating_sub(1),
            ('a' | 'A', _, _, false, 0) => ap = true,
            ('p' | 'm' | '/' | 'P' | 'M', _, _, true, 0) => return NumberKind::DateTime,
            ('d' | 'm' | 'h' | 'y' | 's' | 'D' | 'M' | 'H' | 'Y' | 'S', _, _, false, 0) => {
                return NumberKind::DateTime
            }
            _ => {
                if !(hms && s.eq_ignore_ascii_case(&prev)) {
                    hms = prev == '[' && matches!(s, 'm' | 'h' | 's' | 'M' | 'H' | 'S');
                }
            }
        }
        prev = s;
    }
    NumberKind::Plain
}
