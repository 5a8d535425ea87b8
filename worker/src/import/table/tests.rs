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

fn limits_error(bytes: &[u8]) -> String {
    rows_of(bytes)
        .into_iter()
        .find_map(Result::err)
        .unwrap_or_default()
}

#[test]
fn a_csv_cell_or_row_past_the_limits_is_refused_naming_row_and_column() {
    let mut csv = b"Email,Notes\r\nann@x.org,short\r\n\r\nbob@x.org,".to_vec();
    csv.extend(vec![b'x'; 70_000]);
    csv.extend_from_slice(b"\r\n");
    assert_eq!(
        limits_error(&csv),
        "Row 4, column 2: the cell is longer than 65536 bytes"
    );
    // A quoted cell may span lines: the row is named by the line it starts on.
    let mut csv = b"Email,Notes\n\"a\nb\",".to_vec();
    for _ in 0..20 {
        csv.extend(vec![b'y'; 60_000]);
        csv.push(b',');
    }
    assert_eq!(
        limits_error(&csv),
        "Row 2, column 19: the row is longer than 1048576 bytes"
    );
}

#[test]
fn a_nul_byte_in_a_row_is_a_row_to_skip_but_in_the_header_a_binary_file() {
    let rows = rows_of(b"Em\x00ail\n\x00\x01\x02");
    assert_eq!(
        rows,
        vec![Err("The file is not a text file (CSV or TXT)".to_owned())]
    );
    // Past the header, wherever it is (the first 64 KB included), a NUL byte is the row's problem only.
    let rows = rows_of(b"Email,First\na@x.org,A\x00n\nb@x.org,Bob\n");
    assert_eq!(rows.len(), 3);
    assert!(has_nul(rows[1].as_ref().unwrap()));
    assert_eq!(rows[2], Ok(vec!["b@x.org".to_owned(), "Bob".to_owned()]));
}

/// The rows calamine gives for the file, as the importer used to read them.
fn calamine_rows(path: &Path) -> Vec<Vec<String>> {
    use calamine::Reader;
    let mut book = calamine::open_workbook_auto(path).unwrap();
    let range = book.worksheet_range_at(0).unwrap().unwrap();
    range
        .rows()
        .map(|r| r.iter().map(cell_text).collect())
        .collect()
}

fn streamed_rows(path: &Path) -> Vec<Vec<String>> {
    let mut rows: Vec<Vec<String>> = open(path, Format::Excel)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    // calamine pads every row to the sheet's width; the importers read a missing cell as an empty one.
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    for row in &mut rows {
        row.resize(width, String::new());
    }
    rows
}

#[test]
fn an_xlsx_streams_to_the_same_cells_calamine_reads() {
    use rust_xlsxwriter::{ExcelDateTime, Format as CellFormat, Workbook};
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let date = CellFormat::new().set_num_format("yyyy-mm-dd hh:mm");
    let money = CellFormat::new().set_num_format("#,##0.00");
    for (c, h) in ["Email", "Name", "Amount", "Date", "Flag", "Note"]
        .iter()
        .enumerate()
    {
        sheet.write_string(1, c as u16, *h).unwrap();
    }
    sheet.write_string(2, 0, "ann@x.org").unwrap();
    sheet.write_string(2, 1, "Ann & <Lee> \"A\" Zoë").unwrap();
    sheet
        .write_number_with_format(2, 2, 1234.5, &money)
        .unwrap();
    let when = ExcelDateTime::parse_from_str("2026-03-04 05:06:07").unwrap();
    sheet
        .write_datetime_with_format(2, 3, &when, &date)
        .unwrap();
    sheet.write_boolean(2, 4, true).unwrap();
    sheet.write_string(2, 5, "line\nbreak\ttab").unwrap();
    // A gap of two rows, then a row with cells out of the first columns.
    sheet.write_number(5, 2, 42).unwrap();
    sheet.write_string(5, 5, "  padded  ").unwrap();
    sheet.write_formula(6, 2, "=1+2").unwrap();
    let file = tempfile::NamedTempFile::new().unwrap();
    book.save(file.path()).unwrap();
    let path = file.path().with_extension("xlsx");
    std::fs::copy(file.path(), &path).unwrap();
    let streamed = streamed_rows(&path);
    let expected = calamine_rows(&path);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(streamed, expected);
    assert_eq!(streamed[1][3], "2026-03-04 05:06:07");
    assert_eq!(streamed[1][2], "1234.5");
    assert_eq!(streamed[1][4], "true");
}

fn hand_made(sheet_data: &str, shared: &str) -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().unwrap();
    let mut zip = zip::ZipWriter::new(file.reopen().unwrap());
    let options = zip::write::SimpleFileOptions::default();
    for (name, text) in [
        ("xl/workbook.xml", r#"<x:workbook xmlns:x="main" xmlns:r="rel"><x:workbookPr date1904="0"/><x:sheets><x:sheet name="S" sheetId="1" r:id="rId7"/></x:sheets></x:workbook>"#.to_owned()),
        ("xl/_rels/workbook.xml.rels", r#"<Relationships><Relationship Id="rId7" Type="x/worksheet" Target="/xl/worksheets/data.xml"/><Relationship Id="rId8" Type="x/sharedStrings" Target="strings.xml"/></Relationships>"#.to_owned()),
        ("xl/strings.xml", format!("<sst>{shared}</sst>")),
        ("xl/worksheets/data.xml", format!("<?xml version=\"1.0\"?><!-- made by hand --><worksheet><sheetData>{sheet_data}</sheetData></worksheet>")),
    ] {
        zip.start_file(name, options).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap();
    file
}

#[test]
fn prefixes_rich_text_cdata_escapes_and_relationships_are_followed() {
    let file = hand_made(
        r#"<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="C1" t="inlineStr"><x:is><x:t><![CDATA[a<b]]></x:t></x:is></x:c></x:row><x:row><x:c t="s"><x:v>1</x:v></x:c><x:c t="str"><x:f>A1</x:f><x:v>x&#233;&amp;</x:v></x:c></x:row>"#,
        r#"<si><r><t>Em</t></r><r><t xml:space="preserve">ail</t></r><rPh><t>phonetic</t></rPh></si><si><t>a_x0000_b</t></si>"#,
    );
    let rows: Vec<_> = open(file.path(), Format::Excel)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        rows,
        vec![
            vec!["Email".to_owned(), String::new(), "a<b".to_owned()],
            vec!["a\0b".to_owned(), "xé&".to_owned()],
        ]
    );
}

#[test]
fn an_xlsx_cell_or_row_past_the_limits_is_refused_naming_row_and_column() {
    let long = "z".repeat(70_000);
    let file = hand_made(
        r#"<row r="3"><c r="A3" t="s"><v>0</v></c></row><row r="4"><c r="D4" t="s"><v>1</v></c></row>"#,
        &format!("<si><t>Email</t></si><si><t>{long}</t></si>"),
    );
    let rows: Vec<_> = open(file.path(), Format::Excel).unwrap().collect();
    assert_eq!(rows[0].as_ref().unwrap(), &vec!["Email".to_owned()]);
    assert_eq!(
        rows[1].as_ref().unwrap_err().to_string(),
        "Row 4, column D: the cell is longer than 65536 bytes"
    );
    assert_eq!(rows.len(), 2);

    let file = hand_made(
        &format!(r#"<row r="2"><c r="AA2" t="inlineStr"><is><t>{long}</t></is></c></row>"#),
        "",
    );
    let err = open(file.path(), Format::Excel)
        .unwrap()
        .find_map(Result::err)
        .unwrap();
    assert_eq!(
        err.to_string(),
        "Row 2, column AA: the cell is longer than 65536 bytes"
    );
}

#[test]
fn an_old_xls_past_its_size_limit_is_refused_unread() {
    let file = tempfile::NamedTempFile::new().unwrap();
    file.as_file().set_len(33 * 1024 * 1024).unwrap();
    let err = open(file.path(), Format::Excel).err().expect("refused");
    assert_eq!(
        err.to_string(),
        "An .xls file is read whole, so it may be at most 32 MB: save it as .xlsx or .csv"
    );
}
