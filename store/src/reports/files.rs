//! A report as a file: CSV or XLSX from the same [`Table`] the page shows, and the files jobs build.

use super::{ColumnKind, ReportError, ReportKind, Table};
use chrono::NaiveDate;
use sqlx::PgConnection;

/// Serialized (in a job's payload) by the same key as [`Format::key`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    Csv,
    Xlsx,
}

impl Format {
    pub fn key(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::Xlsx => "xlsx",
        }
    }

    pub fn parse(key: &str) -> Result<Self, ReportError> {
        match key {
            "csv" => Ok(Self::Csv),
            "xlsx" => Ok(Self::Xlsx),
            other => Err(ReportError::Invalid(format!(
                "Unknown file format {other:?}"
            ))),
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Csv => "text/csv; charset=utf-8",
            Self::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        }
    }
}

/// `lybunt-2026-01-01-2026-01-31.csv`
pub fn file_name(kind: ReportKind, from: NaiveDate, to: NaiveDate, format: Format) -> String {
    format!("{}-{from}-{to}.{}", kind.key(), format.key())
}

/// A text that a spreadsheet would run as a formula gets a leading apostrophe.
pub fn neutralise(cell: &str) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}")
    } else {
        cell.to_owned()
    }
}

pub fn render(table: &Table, format: Format) -> Result<Vec<u8>, ReportError> {
    match format {
        Format::Csv => csv(table),
        Format::Xlsx => xlsx(table),
    }
}

/// Header of column labels, then the rows; money and rates exactly as the page's strings.
pub fn csv(table: &Table) -> Result<Vec<u8>, ReportError> {
    let fail = |e: csv::Error| ReportError::File(e.to_string());
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record(table.columns.iter().map(|c| c.label))
        .map_err(fail)?;
    for row in &table.rows {
        out.write_record(table.columns.iter().zip(row).map(|(c, cell)| {
            if c.kind == ColumnKind::Text {
                neutralise(cell)
            } else {
                cell.clone()
            }
        }))
        .map_err(fail)?;
    }
    out.into_inner()
        .map_err(|e| ReportError::File(e.to_string()))
}

/// One sheet named after the report: a bold header row, then numbers as numbers (money `#,##0.00`, rates as
/// percentages), dates and texts as text.
pub fn xlsx(table: &Table) -> Result<Vec<u8>, ReportError> {
    use rust_xlsxwriter::{Format as Style, Workbook};
    let fail = |e: rust_xlsxwriter::XlsxError| ReportError::File(e.to_string());
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.set_name(table.kind.title()).map_err(fail)?;
    let bold = Style::new().set_bold();
    let money = Style::new().set_num_format("#,##0.00");
    let rate = Style::new().set_num_format("0.00%");
    let ratio = Style::new().set_num_format("0.00");
    for (col, column) in (0u16..).zip(table.columns) {
        sheet
            .write_string_with_format(0, col, column.label, &bold)
            .map_err(fail)?;
    }
    for (r, row) in (1u32..).zip(&table.rows) {
        for ((col, column), cell) in (0u16..).zip(table.columns).zip(row) {
            // Money comes from Postgres as a two-place decimal string; a double holds every such amount below
            // 10^13 to the cent.
            let number = cell.parse::<f64>().ok();
            match (column.kind, number) {
                (ColumnKind::Money, Some(n)) => sheet.write_number_with_format(r, col, n, &money),
                (ColumnKind::Rate, Some(n)) => sheet.write_number_with_format(r, col, n, &rate),
                (ColumnKind::Ratio, Some(n)) => sheet.write_number_with_format(r, col, n, &ratio),
                (ColumnKind::Integer, Some(n)) => sheet.write_number(r, col, n),
                (ColumnKind::Text, _) => sheet.write_string(r, col, neutralise(cell)),
                _ => sheet.write_string(r, col, cell),
            }
            .map_err(fail)?;
        }
    }
    book.save_to_buffer().map_err(fail)
}

/// A stored report file.
#[derive(Debug, sqlx::FromRow)]
pub struct StoredFile {
    pub id: i64,
    pub file_name: String,
    pub format: String,
    pub rows: i64,
    pub content: Vec<u8>,
}

/// Keeps the file a job built; a second call for the same job keeps the first. Returns the file's id.
pub async fn save(
    conn: &mut PgConnection,
    job_id: i64,
    table: &Table,
    format: Format,
    content: &[u8],
) -> Result<i64, ReportError> {
    Ok(sqlx::query_scalar(
        "insert into report_files (job_id, kind, format, from_date, to_date, file_name, rows, content)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (job_id) do update set job_id = excluded.job_id
         returning id",
    )
    .bind(job_id)
    .bind(table.kind.key())
    .bind(format.key())
    .bind(table.from)
    .bind(table.to)
    .bind(file_name(table.kind, table.from, table.to, format))
    .bind(table.total_rows)
    .bind(content)
    .fetch_one(conn)
    .await?)
}

pub async fn load(conn: &mut PgConnection, id: i64) -> Result<Option<StoredFile>, ReportError> {
    Ok(sqlx::query_as::<_, StoredFile>(
        "select id, file_name, format, rows, content from report_files where id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?)
}
