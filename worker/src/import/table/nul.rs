//! Rows holding a NUL byte: PostgreSQL text cannot store one, so such a row is skipped, counted and named, and
//! the rest of the file is imported.

use serde_json::{json, Value};

/// At most this many row numbers are listed; the count is always whole.
const LISTED: usize = 1000;

pub fn has_nul(cells: &[String]) -> bool {
    cells.iter().any(|c| c.contains('\0'))
}

#[derive(Debug, Default, Clone)]
pub struct NulRows {
    pub count: i64,
    pub rows: Vec<i64>,
}

impl NulRows {
    pub fn note(&mut self, row: i64) {
        self.count += 1;
        if self.rows.len() < LISTED {
            self.rows.push(row);
        }
    }

    /// The sentence a job's message ends with, naming the rows; empty when there are none.
    pub fn sentence(&self) -> String {
        let listed = self
            .rows
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let more = self.count - self.rows.len() as i64;
        match self.count {
            0 => String::new(),
            1 => format!(" Row {listed} was skipped: it holds a NUL byte."),
            _ if more > 0 => {
                format!(" Rows {listed} and {more} more were skipped: they hold a NUL byte.")
            }
            _ => format!(" Rows {listed} were skipped: they hold a NUL byte."),
        }
    }

    /// The rows for a job's details: `{"count": n, "rows": [...]}`.
    pub fn details(&self) -> Value {
        json!({ "count": self.count, "rows": self.rows })
    }
}
