//! The payload of an external mailings import (another e-mail platform's or lemlist's campaign report).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use store::external_mailings::import::{MailingField, Source};

/// Everything an external mailings import needs, stored as the job's payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExternalMailingsPlan {
    pub upload_id: i64,
    pub filename: String,
    /// The platform of rows without a platform column or cell.
    pub source: Source,
    /// File column header → field; empty: columns are found by header name.
    #[serde(default)]
    pub mapping: BTreeMap<String, MailingField>,
}
