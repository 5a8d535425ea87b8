//! The shapes of the Journeys operations (field names as the journeys contract writes them).

use chrono::{DateTime, NaiveDate, Utc};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object};

/// A journey in the list; the money field is left out (null) without the permissions that show revenue.
#[derive(Debug, Object)]
pub struct JourneySummary {
    pub id: i64,
    pub name: String,
    /// draft, active, paused or archived
    pub status: String,
    pub version: i32,
    pub entered: i64,
    pub active: i64,
    pub finished: i64,
    pub converted: i64,
    #[oai(nullable)]
    pub revenue_cents: Option<i64>,
}

/// A journey's name and definition (the JSON the builder edits; see docs/journeys.md).
#[derive(Debug, Object)]
pub struct JourneyInput {
    #[oai(validator(max_length = 200))]
    pub name: String,
    pub definition: serde_json::Value,
}

#[derive(Debug, Object)]
pub struct JourneyId {
    pub id: i64,
}

#[derive(Debug, Object)]
pub struct JourneyVersionNumber {
    pub version: i32,
}

#[derive(Debug, Object)]
pub struct JourneyStatus {
    pub status: String,
}

#[derive(Debug, Object)]
pub struct JourneyVersion {
    pub version: i32,
    pub created_at: DateTime<Utc>,
    /// Whether contacts are still inside this version.
    pub active: bool,
}

#[derive(Debug, Object)]
pub struct JourneyDetail {
    pub id: i64,
    pub name: String,
    pub status: String,
    pub version: i32,
    pub definition: serde_json::Value,
    pub versions: Vec<JourneyVersion>,
}

/// A one-time push of a list's or a segment's contacts into the journey (one of the two).
#[derive(Debug, Object)]
pub struct EnrolInput {
    #[oai(nullable)]
    pub list_id: Option<i64>,
    #[oai(nullable)]
    pub segment_id: Option<i64>,
}

#[derive(Debug, Object)]
pub struct Enrolled {
    pub enrolled: i64,
}

#[derive(Debug, Object)]
pub struct JourneyStepFigures {
    pub step_id: String,
    pub reached: i64,
    pub sent: i64,
    /// Of the step's e-mails, those the receiving server accepted and that did not bounce (as on Performance).
    pub delivered: i64,
    pub human_opens: i64,
    pub clicks: i64,
    pub unsubscribes: i64,
    #[oai(nullable)]
    pub gifts: Option<i64>,
    #[oai(nullable)]
    pub revenue_cents: Option<i64>,
    /// Revenue per 1,000 e-mails delivered, in cents, rounded as a mailing's RPM (0 while none is delivered).
    #[oai(nullable)]
    pub rpm_cents: Option<i64>,
    /// A send step's figures per variant (one row, A, when it has none).
    pub variants: Vec<JourneyVariantFigures>,
}

#[derive(Debug, Object)]
pub struct JourneyVariantFigures {
    /// "A", "B" …
    pub variant: String,
    pub recipients: i64,
    /// Of its recipients' e-mails, those accepted and not bounced.
    pub delivered: i64,
    pub human_opens: i64,
    pub clicks: i64,
    #[oai(nullable)]
    pub gifts: Option<i64>,
    #[oai(nullable)]
    pub revenue_cents: Option<i64>,
    /// Revenue per 1,000 e-mails delivered, in cents, rounded as a mailing's RPM.
    #[oai(nullable)]
    pub rpm_cents: Option<i64>,
}

#[derive(Debug, Object)]
pub struct JourneyWeek {
    /// The Monday of the week (client's time zone) the contacts entered.
    pub week_start: NaiveDate,
    pub entered: i64,
    pub converted: i64,
}

#[derive(Debug, Object)]
pub struct JourneyFigures {
    pub version: i32,
    pub steps: Vec<JourneyStepFigures>,
    pub weeks: Vec<JourneyWeek>,
    pub entered: i64,
    pub active: i64,
    pub finished: i64,
    pub converted: i64,
    #[oai(nullable)]
    pub revenue_cents: Option<i64>,
}

/// Where a contact is (or was) in a journey.
#[derive(Debug, Object)]
pub struct ContactJourney {
    pub journey_id: i64,
    pub name: String,
    pub version: i32,
    pub step_id: String,
    /// waiting, finished or exited
    pub state: String,
    pub entered_at: DateTime<Utc>,
    #[oai(nullable)]
    pub due_at: Option<DateTime<Utc>>,
    #[oai(nullable)]
    pub exit_reason: Option<String>,
}

/// The programme-wide frequency cap and quiet hours; null is no limit.
#[derive(Debug, Object)]
pub struct JourneyLimits {
    #[oai(nullable, validator(minimum(value = "1"), maximum(value = "1000")))]
    pub per_day: Option<i32>,
    #[oai(nullable, validator(minimum(value = "1"), maximum(value = "1000")))]
    pub per_week: Option<i32>,
    #[oai(nullable, validator(minimum(value = "0"), maximum(value = "23")))]
    pub quiet_start_hour: Option<i32>,
    #[oai(nullable, validator(minimum(value = "0"), maximum(value = "23")))]
    pub quiet_end_hour: Option<i32>,
}

#[derive(Debug, Object)]
pub struct TestClockInput {
    #[oai(validator(minimum(value = "0"), maximum(value = "8784")))]
    pub advance_hours: f64,
}

#[derive(Debug, Object)]
pub struct TestClockNow {
    pub now: DateTime<Utc>,
}

#[derive(ApiResponse)]
pub enum JourneyCreated {
    #[oai(status = 201)]
    Created(Json<JourneyId>),
}
