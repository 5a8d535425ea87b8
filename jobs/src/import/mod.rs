//! The payloads of the import jobs: which upload, how its columns are found, what the import does with it. The
//! worker reads and imports the files (`worker/src/import`); the api builds these plans from a user's request.

mod columns;
pub mod contributions;
pub mod external_mailings;
pub mod media;

pub use columns::{Columns, Field};

use serde::{Deserialize, Serialize};

/// Everything an import job needs, stored as the job's payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportPlan {
    pub upload_id: i64,
    pub filename: String,
    pub columns: Columns,
    /// The name of the new list the contacts join (list uploads). The job creates it in its transaction, so a
    /// failed upload leaves no empty list behind.
    pub list_name: Option<String>,
    /// The origin code new contacts get (list uploads); overrides a mapped origin code column.
    pub origin_code_id: Option<i64>,
    pub create_new_contacts: bool,
    pub overwrite_origin_code: bool,
    /// NGP "Actives": only rows created within this many days.
    pub days: Option<i64>,
}

/// The kind of spreadsheet an upload is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Delimited,
    Excel,
}

impl Format {
    /// From the file name the user uploaded; anything else is refused before it is stored.
    pub fn from_filename(name: &str, allow_txt: bool) -> Option<Self> {
        let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase())?;
        match ext.as_str() {
            "csv" => Some(Self::Delimited),
            "txt" if allow_txt => Some(Self::Delimited),
            "xls" | "xlsx" => Some(Self::Excel),
            _ => None,
        }
    }
}
