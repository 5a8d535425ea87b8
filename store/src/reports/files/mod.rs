//! A report as a file: CSV or XLSX from the rows the page shows. Files are written to a temporary file as the
//! rows arrive from the database ([`write`]), and a job's file is kept in 1 MB chunks ([`stored`]), so neither
//! the worker nor the api holds a whole report, however many donors it lists.

mod stored;
mod writer;

pub use stored::{chunks, load, save, StoredFile};
pub use writer::FileWriter;

use super::{ReportError, ReportKind, ReportRange};
use chrono::NaiveDate;
use sqlx::PgConnection;

pub use crate::tabular::Format;

impl Format {
    pub fn parse(key: &str) -> Result<Self, ReportError> {
        match key {
            "csv" => Ok(Self::Csv),
            "xlsx" => Ok(Self::Xlsx),
            other => Err(ReportError::Invalid(format!(
                "Unknown file format {other:?}"
            ))),
        }
    }
}

/// `lybunt-2026-01-01-2026-01-31.csv`
pub fn file_name(kind: ReportKind, from: NaiveDate, to: NaiveDate, format: Format) -> String {
    format!("{}-{from}-{to}.{}", kind.key(), format.key())
}

/// A report written to a file: the file (rewound) and how many rows it holds.
pub struct Written {
    pub file: std::fs::File,
    pub rows: i64,
}

/// Writes the report over `range` to a temporary file in `format`. The rows are read as the database sends them
/// and handed to a blocking writer through a small channel, so memory stays a few rows deep.
pub async fn write(
    conn: &mut PgConnection,
    kind: ReportKind,
    range: &ReportRange,
    format: Format,
) -> Result<Written, ReportError> {
    let (sender, mut receiver) = tokio::sync::mpsc::channel::<Vec<String>>(1024);
    let tz = range.tz.clone();
    let writer = tokio::task::spawn_blocking(move || -> Result<std::fs::File, ReportError> {
        let mut out = FileWriter::new(kind, format, &tz)?;
        while let Some(row) = receiver.blocking_recv() {
            out.row(&row)?;
        }
        out.finish()
    });
    let sent = super::send_rows(conn, kind, range, sender).await;
    // The writer's own failure is the cause when it stopped taking rows; otherwise a read error is.
    let file = writer
        .await
        .map_err(|e| ReportError::File(e.to_string()))??;
    Ok(Written { file, rows: sent? })
}
