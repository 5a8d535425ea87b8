//! A journey's definition: the JSON the builder edits and the engine runs, stored once per version.

mod validate;

pub use validate::{InvalidJourney, Refs, DATE_FIELDS};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Definition {
    #[serde(default)]
    pub triggers: Vec<Trigger>,
    #[serde(default)]
    pub reentry: Reentry,
    #[serde(default)]
    pub exit_on_gift: bool,
    pub start: String,
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Trigger {
    FormSignup {
        form_id: i64,
    },
    OriginCodeSignup {
        origin_code: String,
    },
    ListAdded {
        list_id: i64,
    },
    SegmentEntered {
        segment_id: i64,
    },
    FirstGift {},
    GiftOver {
        amount_cents: i64,
    },
    RecurringStarted {},
    RecurringFailed {},
    RecurringEnded {},
    FirstGiftAnniversary {},
    /// Each year on the date in the field (one of [`DATE_FIELDS`]).
    DateField {
        field: String,
    },
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Reentry {
    #[default]
    Never,
    AfterDays {
        days: u32,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub id: String,
    #[serde(flatten)]
    pub action: Action,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnCap {
    /// Due again at the next time the cap and quiet hours allow.
    #[default]
    Wait,
    /// Goes on to the next step without the e-mail.
    Skip,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// An e-mail: a template's body or the step's own (`body_html`), with variants B, C … that recipients are
    /// dealt to evenly (as a mailing's are).
    Send {
        #[serde(default)]
        template_id: Option<i64>,
        subject: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        body_html: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        variants: Vec<SendVariant>,
        #[serde(default)]
        on_cap: OnCap,
        #[serde(default)]
        next: Option<String>,
    },
    Wait {
        hours: u32,
        #[serde(default)]
        next: Option<String>,
    },
    WaitUntil {
        weekday: u8,
        hour: u8,
        #[serde(default)]
        next: Option<String>,
    },
    WaitDate {
        date: chrono::NaiveDate,
        #[serde(default)]
        next: Option<String>,
    },
    Branch {
        condition: Condition,
        yes: Option<String>,
        no: Option<String>,
    },
    Split {
        percent: u8,
        a: Option<String>,
        b: Option<String>,
    },
    AddToList {
        list_id: i64,
        #[serde(default)]
        next: Option<String>,
    },
    RemoveFromList {
        list_id: i64,
        #[serde(default)]
        next: Option<String>,
    },
    SetOriginCode {
        origin_code: String,
        #[serde(default)]
        next: Option<String>,
    },
    End {},
}

/// A send step's variant: its own subject, its own body, or both (a missing one is the step's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SendVariant {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_html: Option<String>,
}

/// A send step has at most this many variants besides A (B to E).
pub const MAX_SEND_VARIANTS: usize = 4;
/// The longest body a send step (or one of its variants) may hold, as a mailing's.
pub const MAX_BODY_CHARS: usize = 500_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Condition {
    Opened {},
    Clicked {},
    Gave {},
    GaveAtLeast { amount_cents: i64 },
    InSegment { segment_id: i64 },
}

impl Action {
    /// The steps this one can lead to (a missing `next` ends the journey).
    pub fn exits(&self) -> Vec<&str> {
        fn one(n: &Option<String>) -> Vec<&str> {
            n.iter().map(String::as_str).collect()
        }
        match self {
            Action::Send { next, .. }
            | Action::Wait { next, .. }
            | Action::WaitUntil { next, .. }
            | Action::WaitDate { next, .. }
            | Action::AddToList { next, .. }
            | Action::RemoveFromList { next, .. }
            | Action::SetOriginCode { next, .. } => one(next),
            Action::Branch { yes, no, .. } => [yes, no].into_iter().flat_map(one).collect(),
            Action::Split { a, b, .. } => [a, b].into_iter().flat_map(one).collect(),
            Action::End {} => Vec::new(),
        }
    }

    pub fn is_wait(&self) -> bool {
        matches!(
            self,
            Action::Wait { .. } | Action::WaitUntil { .. } | Action::WaitDate { .. }
        )
    }
}

impl Definition {
    pub fn step(&self, id: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.id == id)
    }
}
