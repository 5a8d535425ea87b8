//! What the suppression operations take and answer.

use chrono::{DateTime, Utc};
use poem_openapi::payload::{Binary, PlainText};
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiResponse, Enum, Multipart, Object};
use store::deliverability::suppressions::Suppression;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "snake_case")]
pub enum SuppressionReason {
    HardBounce,
    SoftBounces,
    Complaint,
    Manual,
    Import,
}

impl SuppressionReason {
    fn from_stored(word: &str) -> Self {
        match word {
            "hard_bounce" => Self::HardBounce,
            "soft_bounces" => Self::SoftBounces,
            "complaint" => Self::Complaint,
            "import" => Self::Import,
            _ => Self::Manual,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Self::HardBounce => "Hard bounce",
            Self::SoftBounces => "Repeated soft bounces",
            Self::Complaint => "Spam complaint",
            Self::Manual => "Added by hand",
            Self::Import => "Imported",
        }
    }
}

/// One active suppression.
#[derive(Debug, Object)]
pub struct SuppressionRow {
    pub id: i64,
    pub email: String,
    pub reason: SuppressionReason,
    /// The reason in words.
    #[oai(rename = "reasonText")]
    pub reason_text: String,
    /// Where it came from: the event's source (`smtp`, `dsn`, `arf`, `ses` …) or the person who added it.
    pub source: String,
    pub created: DateTime<Utc>,
    #[oai(nullable, rename = "mailingId")]
    pub mailing_id: Option<i64>,
    #[oai(nullable, rename = "mailingName")]
    pub mailing_name: Option<String>,
    /// The enhanced status code, e.g. 5.1.1.
    #[oai(nullable, rename = "statusCode")]
    pub status_code: Option<String>,
    #[oai(nullable)]
    pub diagnostic: Option<String>,
    /// The raw evidence (GET /api/delivery-evidence/{id}), kept 90 days.
    #[oai(nullable, rename = "evidenceId")]
    pub evidence_id: Option<i64>,
    #[oai(nullable)]
    pub note: Option<String>,
}

impl From<Suppression> for SuppressionRow {
    fn from(s: Suppression) -> Self {
        let reason = SuppressionReason::from_stored(&s.reason);
        Self {
            id: s.id,
            email: s.email,
            reason,
            reason_text: reason.words().to_owned(),
            source: s
                .event_source
                .or(s.created_by)
                .unwrap_or_else(|| "Compass".to_owned()),
            created: s.created,
            mailing_id: s.event_mailing_id,
            mailing_name: s.event_mailing_name,
            status_code: s.event_status_code,
            diagnostic: s.event_diagnostic,
            evidence_id: s.event_evidence_id,
            note: s.note,
        }
    }
}

#[derive(Debug, Object)]
pub struct SuppressionPage {
    pub suppressions: Vec<SuppressionRow>,
    /// How many active suppressions match the search.
    pub total: i64,
    /// 1-based.
    pub page: i64,
    #[oai(rename = "pageSize")]
    pub page_size: i64,
}

#[derive(Debug, Object)]
pub struct SuppressionInput {
    /// Addresses to suppress.
    #[oai(validator(min_items = 1, max_items = 10000))]
    pub emails: Vec<String>,
    #[oai(validator(max_length = 500))]
    pub note: Option<String>,
}

#[derive(Debug, Multipart)]
pub struct SuppressionUpload {
    /// A CSV file whose first column holds the addresses (a header row is allowed).
    pub file: Upload,
}

/// A row or entry that was not taken, and why.
#[derive(Debug, Object)]
pub struct RejectedAddress {
    /// 1-based row of the file, or position in the list.
    pub row: i64,
    pub value: String,
    pub reason: String,
}

#[derive(Debug, Object)]
pub struct SuppressionsAdded {
    /// Addresses newly suppressed.
    pub added: i64,
    /// Valid addresses that were suppressed already.
    #[oai(rename = "alreadySuppressed")]
    pub already_suppressed: i64,
    pub rejected: Vec<RejectedAddress>,
}

#[derive(ApiResponse)]
pub enum Lifted {
    #[oai(status = 204)]
    Lifted,
}

#[derive(ApiResponse)]
pub enum SuppressionsCsv {
    #[oai(status = 200, content_type = "text/csv; charset=utf-8")]
    Csv(
        PlainText<String>,
        #[oai(header = "Content-Disposition")] String,
    ),
}

#[derive(ApiResponse)]
pub enum EvidenceFile {
    /// The raw message or webhook body as it arrived.
    #[oai(status = 200, content_type = "application/octet-stream")]
    File(
        Binary<Vec<u8>>,
        #[oai(header = "Content-Disposition")] String,
    ),
}
