//! The bodies of the mailing operations.

use super::audience::{MailingVariant, Suppression, VariantInput};
use crate::auth::{ClientSession, PAGE_CONTRIBUTIONS, PAGE_PERFORMANCE};
use chrono::{DateTime, Utc};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object};

#[derive(Debug, Object)]
pub struct Mailing {
    pub id: i64,
    pub name: String,
    #[oai(rename = "subjectLine")]
    pub subject_line: String,
    #[oai(nullable, rename = "senderId")]
    pub sender_id: Option<i64>,
    #[oai(nullable, rename = "senderName")]
    pub sender_name: Option<String>,
    #[oai(nullable, rename = "sendTime")]
    pub send_time: Option<DateTime<Utc>>,
    #[oai(nullable, rename = "listId")]
    pub list_id: Option<i64>,
    #[oai(nullable, rename = "listName")]
    pub list_name: Option<String>,
    #[oai(rename = "bodyHtml")]
    pub body_html: String,
    #[oai(rename = "isDraft")]
    pub is_draft: bool,
    /// When the send started; null until then.
    #[oai(nullable, rename = "sendAttempt")]
    pub send_attempt: Option<DateTime<Utc>>,
    /// Recipients who opened (people, not machines), counted once each.
    #[oai(rename = "openCount")]
    pub open_count: i64,
    #[oai(rename = "recipCount")]
    pub recip_count: i64,
    /// idle, sending, done or paused
    pub delivery: String,
    #[oai(nullable, rename = "deliveryMessage")]
    pub delivery_message: Option<String>,
    pub created: DateTime<Utc>,
    /// Recipients whose message was accepted and not bounced.
    pub delivered: i64,
    /// Net of the gifts attributed to the mailing (decimal string). Money figures (revenue, gifts, donors,
    /// responseRate, rpm) are left out unless the user holds pageContributions or pagePerformance.
    #[oai(skip_serializing_if_is_none)]
    pub revenue: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub gifts: Option<i64>,
    #[oai(skip_serializing_if_is_none)]
    pub donors: Option<i64>,
    /// gifts ÷ delivered (0 while nothing is delivered).
    #[oai(rename = "responseRate", skip_serializing_if_is_none)]
    pub response_rate: Option<f64>,
    /// revenue ÷ delivered × 1000 (decimal string).
    #[oai(skip_serializing_if_is_none)]
    pub rpm: Option<String>,
    /// The segment the mailing goes to, when its audience is a segment rather than a list.
    #[oai(nullable, rename = "segmentId")]
    pub segment_id: Option<i64>,
    #[oai(nullable, rename = "segmentName")]
    pub segment_name: Option<String>,
    /// The inbox preview text of variant A.
    #[oai(rename = "previewText")]
    pub preview_text: String,
    /// The seed the audience is split among the variants with.
    #[oai(rename = "variantSeed")]
    pub variant_seed: i64,
    /// Whether the send leaves out those who already had the programme's frequency cap of e-mails that day or
    /// week (`GET /api/journeys/limits`).
    #[oai(rename = "respectCap")]
    pub respect_cap: bool,
    /// Audience members the frequency cap left out when the send chose its recipients.
    #[oai(rename = "heldBack")]
    pub held_back: i64,
    /// Lists and segments whose members are left out.
    pub suppressions: Vec<Suppression>,
    /// Variants B, C … (A is the mailing itself).
    pub variants: Vec<MailingVariant>,
}

/// The pages that report what mailings raised: a mailing's money figures need one of them.
pub const MONEY_PERMISSIONS: [&str; 2] = [PAGE_CONTRIBUTIONS, PAGE_PERFORMANCE];

impl Mailing {
    /// The mailing as `session`'s user may see it: without its money figures unless they may see money.
    pub fn shown_to(mut self, session: &ClientSession) -> Self {
        if !session.may(&MONEY_PERMISSIONS) {
            self.revenue = None;
            self.gifts = None;
            self.donors = None;
            self.response_rate = None;
            self.rpm = None;
        }
        self
    }
}

/// The fields of a mailing; every one of senderId, subjectLine, name and sendTime is required, and the audience:
/// listId, or segmentId instead.
#[derive(Debug, Object)]
pub struct MailingInput {
    #[oai(validator(max_length = 200))]
    pub name: String,
    #[oai(rename = "subjectLine", validator(max_length = 300))]
    pub subject_line: String,
    #[oai(rename = "senderId")]
    pub sender_id: i64,
    /// An ISO date-time.
    #[oai(rename = "sendTime")]
    pub send_time: DateTime<Utc>,
    #[oai(nullable, rename = "listId")]
    pub list_id: Option<i64>,
    #[oai(rename = "bodyHtml", validator(max_length = 500000))]
    pub body_html: String,
    #[oai(rename = "isDraft")]
    pub is_draft: bool,
    /// A segment as the audience, instead of a list.
    #[oai(nullable, rename = "segmentId")]
    pub segment_id: Option<i64>,
    /// Lists whose members are left out.
    #[oai(nullable, rename = "suppressionListIds", validator(max_items = 100))]
    pub suppression_list_ids: Option<Vec<i64>>,
    /// Segments whose members are left out.
    #[oai(nullable, rename = "suppressionSegmentIds", validator(max_items = 100))]
    pub suppression_segment_ids: Option<Vec<i64>>,
    #[oai(nullable, rename = "previewText", validator(max_length = 300))]
    pub preview_text: Option<String>,
    /// Variants B, C … in order; none when absent.
    #[oai(nullable, validator(max_items = 25))]
    pub variants: Option<Vec<VariantInput>>,
    /// Leave out those who already had the programme's frequency cap of e-mails that day or week; true when
    /// absent. False for an urgent mailing that must reach everyone.
    #[oai(nullable, rename = "respectCap")]
    pub respect_cap: Option<bool>,
}

/// What happened to a sent mailing.
#[derive(Debug, Object)]
pub struct MailingStats {
    pub recipients: i64,
    /// Accepted by the receiving server (sent) and not bounced.
    pub delivered: i64,
    /// Not sent: unsubscribed or bounced before sending, or still waiting.
    pub failed: i64,
    pub bounced: i64,
    /// People who opened at least once (machine opens apart).
    #[oai(rename = "uniqueOpens")]
    pub unique_opens: i64,
    /// Opens by privacy proxies and link scanners.
    #[oai(rename = "machineOpens")]
    pub machine_opens: i64,
    /// People who clicked at least once (machine clicks apart).
    #[oai(rename = "uniqueClicks")]
    pub unique_clicks: i64,
    pub clicks: i64,
    pub unsubscribes: i64,
    /// Left out by the programme's frequency cap: they already had their e-mails for the day or week.
    #[oai(rename = "heldBack")]
    pub held_back: i64,
}

/// A mailing's fields for a test send: everything but `isDraft`.
#[derive(Debug, Object)]
pub struct TestSendInput {
    #[oai(validator(max_length = 200))]
    pub name: String,
    #[oai(rename = "subjectLine", validator(max_length = 300))]
    pub subject_line: String,
    #[oai(rename = "senderId")]
    pub sender_id: i64,
    #[oai(nullable, rename = "sendTime")]
    pub send_time: Option<DateTime<Utc>>,
    #[oai(nullable, rename = "listId")]
    pub list_id: Option<i64>,
    #[oai(rename = "bodyHtml", validator(max_length = 500000))]
    pub body_html: String,
    /// The saved mailing being tested: its donation links get the refcode its send will give them. Absent for
    /// a mailing not saved yet.
    #[oai(nullable, rename = "mailingId")]
    pub mailing_id: Option<i64>,
    #[oai(nullable, rename = "previewText", validator(max_length = 300))]
    pub preview_text: Option<String>,
}

#[derive(Debug, Object)]
pub struct TestSendResult {
    pub message: String,
    /// The address the copy went to: the signed-in user's.
    pub to: String,
}

#[derive(ApiResponse)]
pub enum Created<T: poem_openapi::types::ToJSON + Send + Sync> {
    #[oai(status = 201)]
    Created(Json<T>),
}
