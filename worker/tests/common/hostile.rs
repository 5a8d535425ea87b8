//! Hostile spreadsheets built on the fly (a cell of hundreds of megabytes compresses to a few hundred KB, so
//! nothing big is committed): an .xlsx written part by part, its large texts streamed in 1 MB chunks so the
//! test itself never holds them. Shared by the worker's memory test and the api's import tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::{Seek, Write};
use zip::write::SimpleFileOptions;

/// Where the oversized value sits in the hostile sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Giant {
    /// A shared string (what Excel writes) used by the cell.
    SharedString,
    /// An inline string in the cell itself.
    InlineString,
    /// A number of that many digits.
    Number,
    /// A formula of that length with a short cached value: not a value the reader keeps.
    Formula,
}

/// Writes `bytes` copies of `fill` in 1 MB chunks.
pub fn repeat(out: &mut dyn Write, fill: u8, bytes: usize) {
    let chunk = vec![fill; 1 << 20];
    let mut left = bytes;
    while left > 0 {
        let n = left.min(chunk.len());
        out.write_all(&chunk[..n]).unwrap();
        left -= n;
    }
}

/// How the large parts are stored: deflated as Excel does (a few hundred KB for 400 MB of text), or stored as
/// they are (quicker to build in a debug build, where deflating runs slowly; the reader's memory is the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Packing {
    Deflated,
    Stored,
}

/// An .xlsx (written to `out`) whose sheet is written by `sheet_data` (the inside of `<sheetData>`) and whose
/// shared strings by `shared` (the `<si>` elements).
pub fn xlsx<W: Write + Seek>(
    out: W,
    packing: Packing,
    shared: impl FnOnce(&mut dyn Write),
    sheet_data: impl FnOnce(&mut dyn Write),
) -> W {
    let mut zip = zip::ZipWriter::new(out);
    let options = match packing {
        Packing::Deflated => SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .compression_level(Some(1)),
        Packing::Stored => {
            SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored)
        }
    }
    .large_file(true);
    let part = |zip: &mut zip::ZipWriter<W>, name: &str, text: &str| {
        zip.start_file(name, options).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    };
    part(
        &mut zip,
        "[Content_Types].xml",
        r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>"#,
    );
    part(
        &mut zip,
        "_rels/.rels",
        r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#,
    );
    part(
        &mut zip,
        "xl/workbook.xml",
        r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>"#,
    );
    part(
        &mut zip,
        "xl/_rels/workbook.xml.rels",
        r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>"#,
    );
    zip.start_file("xl/sharedStrings.xml", options).unwrap();
    zip.write_all(br#"<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#).unwrap();
    shared(&mut zip);
    zip.write_all(b"</sst>").unwrap();
    zip.start_file("xl/worksheets/sheet1.xml", options).unwrap();
    zip.write_all(br#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#).unwrap();
    sheet_data(&mut zip);
    zip.write_all(b"</sheetData></worksheet>").unwrap();
    zip.finish().unwrap()
}

/// A sheet whose row `row` holds, in column B, a value of `bytes` bytes (placed as `giant` says); row 1 is a
/// header `Email, Notes` unless the giant is in row 1 itself.
pub fn giant_cell<W: Write + Seek>(
    out: W,
    packing: Packing,
    giant: Giant,
    row: u32,
    bytes: usize,
) -> W {
    xlsx(
        out,
        packing,
        |s| {
            s.write_all(b"<si><t>Email</t></si><si><t>Notes</t></si><si><t>")
                .unwrap();
            if giant == Giant::SharedString {
                repeat(s, b'x', bytes);
            }
            s.write_all(b"</t></si>").unwrap();
        },
        |d| {
            if row > 1 {
                d.write_all(
                    br#"<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>"#,
                )
                .unwrap();
            }
            write!(
                d,
                r#"<row r="{row}"><c r="A{row}" t="inlineStr"><is><t>ann@example.org</t></is></c>"#
            )
            .unwrap();
            match giant {
                Giant::SharedString => write!(d, r#"<c r="B{row}" t="s"><v>2</v></c>"#).unwrap(),
                Giant::InlineString => {
                    write!(d, r#"<c r="B{row}" t="inlineStr"><is><t>"#).unwrap();
                    repeat(d, b'x', bytes);
                    d.write_all(b"</t></is></c>").unwrap();
                }
                Giant::Number => {
                    write!(d, r#"<c r="B{row}"><v>"#).unwrap();
                    repeat(d, b'7', bytes);
                    d.write_all(b"</v></c>").unwrap();
                }
                Giant::Formula => {
                    write!(d, r#"<c r="B{row}"><f>"#).unwrap();
                    repeat(d, b'1', bytes);
                    d.write_all(b"</f><v>1</v></c>").unwrap();
                }
            }
            d.write_all(b"</row>").unwrap();
        },
    )
}

/// A sheet with one row of `cells` cells of `bytes` bytes each (inline strings), after an `Email` header.
pub fn wide_row<W: Write + Seek>(out: W, packing: Packing, cells: usize, bytes: usize) -> W {
    xlsx(
        out,
        packing,
        |_| {},
        |d| {
            d.write_all(
                br#"<row r="1"><c r="A1" t="inlineStr"><is><t>Email</t></is></c></row><row r="2">"#,
            )
            .unwrap();
            for _ in 0..cells {
                d.write_all(br#"<c t="inlineStr"><is><t>"#).unwrap();
                repeat(d, b'w', bytes);
                d.write_all(b"</t></is></c>").unwrap();
            }
            d.write_all(b"</row>").unwrap();
        },
    )
}

/// A shared string table of `count` distinct short texts (a large but legitimate table), used by a two-row
/// sheet whose second row names the last of them.
pub fn many_strings<W: Write + Seek>(out: W, packing: Packing, count: usize) -> W {
    xlsx(
        out,
        packing,
        |s| {
            s.write_all(b"<si><t>Email</t></si>").unwrap();
            for i in 1..count {
                write!(s, "<si><t>person{i}@example.org</t></si>").unwrap();
            }
        },
        |d| {
            write!(
                d,
                r#"<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>{}</v></c></row>"#,
                count - 1
            )
            .unwrap();
        },
    )
}

/// A CSV whose row 2, column 2 holds `bytes` bytes.
pub fn giant_csv(out: &mut dyn Write, bytes: usize) {
    out.write_all(b"Email,Notes\nann@example.org,").unwrap();
    repeat(out, b'x', bytes);
    out.write_all(b"\n").unwrap();
}
