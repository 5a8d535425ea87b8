//! The payload of a media import (a Meta Ads Manager or Google Ads export, or a column-mapped ads file).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use store::media::import::{AdField, AdPlatform};

/// Everything a media import needs, stored as the job's payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaPlan {
    pub upload_id: i64,
    pub filename: String,
    pub platform: AdPlatform,
    /// For `Other`: file column header → field.
    #[serde(default)]
    pub mapping: BTreeMap<String, AdField>,
}
