//! A segment's rule: a tree of AND/OR groups of conditions, as the browser sends it (JSON), checked field by field.
//!
//! The JSON is read by hand rather than by a derive so every refusal names the exact place in the rule
//! (`rule.groups[1].conditions[0].field`) and so no key the code does not know is ever accepted.

mod read;
mod values;

use chrono::NaiveDate;
use serde_json::{Map, Value};
pub use values::amount;

use read::*;
use values::*;

/// Groups may nest this deep (the top group is level 1).
pub const MAX_DEPTH: usize = 5;
/// At most this many conditions in one rule, all groups together.
pub const MAX_CONDITIONS: usize = 50;
/// At most this many entries in one condition's list of ids or words.
pub const MAX_VALUES: usize = 200;
/// The longest word (state, channel, campaign, ZIP prefix) a condition may hold.
pub const MAX_TEXT: usize = 100;
/// The longest window, in days (100 years).
pub const MAX_DAYS: i64 = 36_500;
/// The largest amount a condition may name, in dollars.
pub const MAX_AMOUNT: i64 = 1_000_000_000;

/// An invalid rule: where, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct RuleError {
    pub path: String,
    pub message: String,
}

fn err<T>(path: &str, message: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError {
        path: path.to_owned(),
        message: message.into(),
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Join {
    And,
    Or,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub join: Join,
    pub conditions: Vec<Cond>,
    pub groups: Vec<Group>,
}

/// A time window: the last `n` days, or whole client days from `from` to `to` (both included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    Days(i64),
    Between(NaiveDate, NaiveDate),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Gte,
    Lte,
    Eq,
}

/// A test on an amount: compared with one amount, or between two (both included). Amounts are decimal text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AmountTest {
    Cmp(Cmp, String),
    Between(String, String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
    Active,
    Lapsed,
    LongLapsed,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DonorStatus {
    Lybunt,
    Sybunt,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RfmDim {
    Recency,
    Frequency,
    Monetary,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Membership {
    OriginCode,
    List,
    Segment,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceText {
    Channel,
    Campaign,
}

/// One condition, typed. docs/segments.md gives each one's exact definition.
#[derive(Debug, Clone, PartialEq)]
pub enum Cond {
    Gave(Window),
    NeverGave,
    FirstGift(Window),
    TotalGiven(Cmp, String, Option<Window>),
    GiftCount(Cmp, i64, Option<Window>),
    Hpc(AmountTest),
    Mrc(AmountTest),
    ActiveSustainer(bool),
    SourceCode(Vec<i64>, Option<Window>),
    SourceText(SourceText, Vec<String>, Option<Window>),
    RecencyBand(Vec<Band>),
    DonorStatus(DonorStatus),
    Rfm(RfmDim, Cmp, i64),
    RfmCell(Vec<String>),
    Opened(i64),
    Clicked(i64),
    MailingsReceived(Cmp, i64, i64),
    Member(Membership, Vec<i64>, bool),
    State(Vec<String>),
    ZipPrefix(String),
    Created(Window),
    Subscription(Vec<domain::SubscriptionStatus>),
}

/// Every field a condition may name, for the rule builder and for error messages.
pub const FIELDS: [&str; 26] = [
    "gave",
    "firstGift",
    "totalGiven",
    "giftCount",
    "hpc",
    "mrc",
    "activeSustainer",
    "sourceCode",
    "channel",
    "campaign",
    "recencyBand",
    "donorStatus",
    "rfmRecency",
    "rfmFrequency",
    "rfmMonetary",
    "rfmCell",
    "opened",
    "clicked",
    "mailingsReceived",
    "originCode",
    "list",
    "segment",
    "state",
    "zipPrefix",
    "created",
    "subscription",
];

/// Reads and checks a rule. `path` names the root in errors ("rule").
pub fn parse(value: &Value) -> Result<Group, RuleError> {
    let mut count = 0;
    let group = parse_group(value, "rule", 1, &mut count)?;
    Ok(group)
}

impl Group {
    /// Whether any condition reads RFM scores (a compute then refreshes them first).
    pub fn uses_rfm(&self) -> bool {
        self.conditions
            .iter()
            .any(|c| matches!(c, Cond::Rfm(..) | Cond::RfmCell(_)))
            || self.groups.iter().any(Group::uses_rfm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn path_of(rule: Value) -> String {
        parse(&rule).unwrap_err().path
    }

    #[test]
    fn refusals_name_the_place_in_the_rule() {
        let ok = json!({ "field": "gave", "op": "withinDays", "value": 30 });
        assert_eq!(
            path_of(json!({ "op": "and", "groups": [
                { "conditions": [ok.clone()] },
                { "op": "or", "conditions": [{ "field": "favouriteColour", "op": "in", "value": ["red"] }] }
            ]})),
            "rule.groups[1].conditions[0].field"
        );
        assert_eq!(
            path_of(
                json!({ "conditions": [{ "field": "gave", "op": "withinDays", "value": "30" }] })
            ),
            "rule.conditions[0].value"
        );
        assert_eq!(
            path_of(json!({ "conditions": [{ "field": "gave", "op": "like", "value": 3 }] })),
            "rule.conditions[0].op"
        );
        assert_eq!(
            path_of(json!({ "conditions": [{ "field": "gave", "op": "never", "extra": 1 }] })),
            "rule.conditions[0].extra"
        );
        assert_eq!(path_of(json!({ "op": "xor" })), "rule.op");
        assert_eq!(
            path_of(
                json!({ "conditions": [{ "field": "totalGiven", "op": "gte", "value": "1e308" }] })
            ),
            "rule.conditions[0].value"
        );
        assert_eq!(
            path_of(
                json!({ "conditions": [{ "field": "gave", "op": "withinDays", "value": 99999999999u64 }] })
            ),
            "rule.conditions[0].value"
        );
    }

    #[test]
    fn nesting_deeper_than_five_and_more_than_fifty_conditions_are_refused() {
        let mut rule = json!({ "conditions": [] });
        for _ in 0..4 {
            rule = json!({ "groups": [rule] });
        }
        assert!(parse(&rule).is_ok());
        let deeper = json!({ "groups": [rule] });
        assert_eq!(
            path_of(deeper),
            "rule.groups[0].groups[0].groups[0].groups[0].groups[0]"
        );
        let many: Vec<Value> = (0..51)
            .map(|_| json!({ "field": "gave", "op": "never" }))
            .collect();
        assert_eq!(
            path_of(json!({ "conditions": many })),
            "rule.conditions[50]"
        );
    }
}
