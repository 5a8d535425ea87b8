//! Where a file's sends were made.

use serde::{Deserialize, Serialize};

/// Where the sends were made: `esp` (another e-mail platform) or `lemlist`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Esp,
    Lemlist,
}

impl Source {
    pub fn from_id(id: &str) -> Option<Self> {
        match id.trim().to_ascii_lowercase().as_str() {
            "esp" | "other" => Some(Self::Esp),
            "lemlist" => Some(Self::Lemlist),
            _ => None,
        }
    }

    /// The value of `external_mailings.source`.
    pub fn stored(self) -> &'static str {
        match self {
            Self::Esp => "esp",
            Self::Lemlist => "lemlist",
        }
    }

    /// A platform cell: lemlist when it names lemlist, the file's default when empty, else another platform.
    pub(super) fn of_cell(cell: &str, default: Source) -> Source {
        let cell = cell.trim().to_ascii_lowercase();
        if cell.is_empty() {
            default
        } else if cell.contains("lemlist") {
            Self::Lemlist
        } else {
            Self::Esp
        }
    }
}
