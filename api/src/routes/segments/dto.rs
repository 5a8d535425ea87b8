//! What the segments operations send and receive.

use chrono::{DateTime, Utc};
use poem_openapi::payload::{Json, PlainText};
use poem_openapi::{ApiResponse, Object};

#[derive(Debug, Object)]
pub struct SegmentView {
    pub id: i64,
    pub name: String,
    /// The key of a standard segment ('active_donors', 'lybunt' …); null for a user's own.
    #[oai(nullable)]
    pub standard: Option<String>,
    /// The rule tree (docs/segments.md).
    pub rule: serde_json::Value,
    /// Members at the last compute.
    pub size: i32,
    /// Members at the compute before; null before a second compute.
    #[oai(nullable, rename = "previousSize")]
    pub previous_size: Option<i32>,
    /// size − previousSize; null without a previous compute.
    #[oai(nullable)]
    pub change: Option<i32>,
    /// When the members were last computed; null before the first compute.
    #[oai(nullable)]
    pub computed: Option<DateTime<Utc>>,
    pub created: DateTime<Utc>,
    pub updated: DateTime<Utc>,
}

impl From<store::segments::Segment> for SegmentView {
    fn from(s: store::segments::Segment) -> Self {
        Self {
            id: s.id,
            name: s.name,
            standard: s.standard,
            rule: s.rule.0,
            size: s.size,
            previous_size: s.previous_size,
            change: s.previous_size.map(|p| s.size - p),
            computed: s.computed,
            created: s.created,
            updated: s.updated,
        }
    }
}

#[derive(Debug, Object)]
pub struct SaveSegment {
    /// 1 to 200 characters, unique among the client's segments.
    pub name: String,
    /// The rule tree: `{op: "and"|"or", conditions: [...], groups: [...]}` (docs/segments.md).
    pub rule: serde_json::Value,
}

#[derive(Debug, Object)]
pub struct PreviewRequest {
    pub rule: serde_json::Value,
}

#[derive(Debug, Object)]
pub struct PreviewCount {
    /// Contacts the rule selects now.
    pub count: i64,
}

#[derive(Debug, Object)]
pub struct SaveAsListRequest {
    /// The new list's name, 1 to 200 characters.
    pub name: String,
}

#[derive(Debug, Object)]
pub struct SavedList {
    #[oai(rename = "listId")]
    pub list_id: i64,
}

#[derive(Debug, Object)]
pub struct SegmentMember {
    #[oai(rename = "contactId")]
    pub contact_id: i64,
    pub email: String,
    #[oai(rename = "firstName")]
    pub first_name: String,
    #[oai(rename = "lastName")]
    pub last_name: String,
    /// Highest previous contribution, decimal string; null for a contact who never gave.
    #[oai(nullable)]
    pub hpc: Option<String>,
    #[oai(nullable, rename = "lastGiftAt")]
    pub last_gift_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Object)]
pub struct SegmentMembersPage {
    pub total: i64,
    pub page: i64,
    #[oai(rename = "pageSize")]
    pub page_size: i64,
    pub members: Vec<SegmentMember>,
}

#[derive(Debug, Object)]
pub struct RfCell {
    /// Recency score 1–5.
    pub recency: i16,
    /// Frequency score 1–5.
    pub frequency: i16,
    pub members: i64,
}

#[derive(Debug, Object)]
pub struct HpcBandView {
    /// Lower edge (included), decimal string.
    pub min: String,
    /// Upper edge (excluded); null for the top band.
    #[oai(nullable)]
    pub max: Option<String>,
    pub donors: i64,
    #[oai(rename = "medianHpc")]
    pub median_hpc: String,
    /// Suggested asks: median HPC × 1, × 1.5, × 2 on the ask ladder, decimal strings.
    pub asks: Vec<String>,
}

#[derive(Debug, Object)]
pub struct SegmentAnalytics {
    pub size: i32,
    /// Members' counted gifts since the client's day 12 months ago, decimal string.
    #[oai(rename = "revenue12m")]
    pub revenue_12m: String,
    #[oai(rename = "gifts12m")]
    pub gifts_12m: i64,
    /// revenue12m ÷ gifts12m; null without gifts.
    #[oai(nullable, rename = "averageGift")]
    pub average_gift: Option<String>,
    #[oai(rename = "rfCells")]
    pub rf_cells: Vec<RfCell>,
    #[oai(rename = "hpcBands")]
    pub hpc_bands: Vec<HpcBandView>,
}

#[derive(ApiResponse)]
pub enum SegmentCreated {
    #[oai(status = 201)]
    Created(Json<SegmentView>),
}

#[derive(ApiResponse)]
pub enum SegmentCsv {
    /// The members as CSV: Contact ID, Email, First, Last.
    #[oai(status = 200, content_type = "text/csv; charset=utf-8")]
    Csv(
        PlainText<String>,
        #[oai(header = "Content-Disposition")] String,
    ),
}
