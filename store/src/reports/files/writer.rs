//! Writing a report's rows to a temporary file, one row at a time, through [`crate::tabular`]: money and rates
//! are exactly the page's strings in CSV and numbers in XLSX, dates are date cells, texts are neutralised.

use super::super::{ColumnKind, ReportError, ReportKind};
use super::Format;
use crate::tabular::{TableWriter, TabularError};
use std::fs::File;

impl From<TabularError> for ReportError {
    fn from(e: TabularError) -> Self {
        ReportError::File(e.to_string())
    }
}

/// The header: column labels, a date column naming the client's time zone its days are counted in.
fn header(kind: ReportKind, tz: &str) -> Vec<String> {
    kind.columns()
        .iter()
        .map(|c| match c.kind {
            ColumnKind::Date | ColumnKind::DateTime => format!("{} ({tz})", c.label),
            _ => c.label.to_owned(),
        })
        .collect()
}

/// A report file being written.
pub struct FileWriter(TableWriter);

impl FileWriter {
    pub fn new(kind: ReportKind, format: Format, tz: &str) -> Result<Self, ReportError> {
        let kinds: Vec<ColumnKind> = kind.columns().iter().map(|c| c.kind).collect();
        Ok(Self(TableWriter::new(
            format,
            kind.title(),
            &header(kind, tz),
            &kinds,
        )?))
    }

    pub fn row(&mut self, row: &[String]) -> Result<(), ReportError> {
        Ok(self.0.row(row)?)
    }

    /// The finished file, rewound to its start.
    pub fn finish(self) -> Result<File, ReportError> {
        Ok(self.0.finish()?)
    }
}
