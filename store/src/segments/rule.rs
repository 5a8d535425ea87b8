//! A segment's rule: a tree of AND/OR groups of conditions, as the browser sends it (JSON), checked field by field.
//!
//! The JSON is read by hand rather than by a derive so every refusal names the exact place in the rule
//! (`rule.groups[1].conditions[0].field`) and so no key the code does not know is ever accepted.

use chrono::NaiveDate;
use serde_json::{Map, Value};

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

/// One condition, typed. README "Segments" gives each one's exact definition.
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
    Subscription(Vec<String>),
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

fn object<'a>(value: &'a Value, path: &str) -> Result<&'a Map<String, Value>, RuleError> {
    value
        .as_object()
        .map_or_else(|| err(path, "must be an object"), Ok)
}

fn only_keys(obj: &Map<String, Value>, path: &str, allowed: &[&str]) -> Result<(), RuleError> {
    for key in obj.keys() {
        if !allowed.contains(&key.as_str()) {
            // The key is request text: it goes into the message (as data), never into SQL.
            return err(&format!("{path}.{}", printable(key)), "unknown field");
        }
    }
    Ok(())
}

/// A key as shown in an error: at most 40 characters, control characters dropped.
fn printable(key: &str) -> String {
    key.chars().filter(|c| !c.is_control()).take(40).collect()
}

fn parse_group(
    value: &Value,
    path: &str,
    depth: usize,
    count: &mut usize,
) -> Result<Group, RuleError> {
    if depth > MAX_DEPTH {
        return err(path, format!("groups nest at most {MAX_DEPTH} deep"));
    }
    let obj = object(value, path)?;
    only_keys(obj, path, &["op", "conditions", "groups"])?;
    let join = match obj.get("op") {
        None => Join::And,
        Some(Value::String(s)) if s == "and" => Join::And,
        Some(Value::String(s)) if s == "or" => Join::Or,
        Some(_) => return err(&format!("{path}.op"), "must be \"and\" or \"or\""),
    };
    let list = |key: &str| -> Result<&[Value], RuleError> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Array(items)) => Ok(items.as_slice()),
            Some(_) => err(&format!("{path}.{key}"), "must be an array"),
        }
    };
    let mut conditions = Vec::new();
    for (i, c) in list("conditions")?.iter().enumerate() {
        *count += 1;
        if *count > MAX_CONDITIONS {
            return err(
                &format!("{path}.conditions[{i}]"),
                format!("a rule holds at most {MAX_CONDITIONS} conditions"),
            );
        }
        conditions.push(parse_condition(c, &format!("{path}.conditions[{i}]"))?);
    }
    let mut groups = Vec::new();
    for (i, g) in list("groups")?.iter().enumerate() {
        groups.push(parse_group(
            g,
            &format!("{path}.groups[{i}]"),
            depth + 1,
            count,
        )?);
    }
    Ok(Group {
        join,
        conditions,
        groups,
    })
}

fn parse_condition(value: &Value, path: &str) -> Result<Cond, RuleError> {
    let obj = object(value, path)?;
    only_keys(obj, path, &["field", "op", "value", "window"])?;
    let field = match obj.get("field") {
        Some(Value::String(s)) if FIELDS.contains(&s.as_str()) => s.as_str(),
        Some(Value::String(_)) => return err(&format!("{path}.field"), "unknown field"),
        _ => return err(&format!("{path}.field"), "must be a field name"),
    };
    let op = match obj.get("op") {
        Some(Value::String(s)) => s.as_str(),
        _ => return err(&format!("{path}.op"), "must be an operator"),
    };
    let vpath = format!("{path}.value");
    let value = obj.get("value").unwrap_or(&Value::Null);
    let window = match obj.get("window") {
        None | Some(Value::Null) => None,
        Some(w) => Some(parse_window_object(w, &format!("{path}.window"))?),
    };
    let no_window = |c: Cond| {
        if window.is_some() {
            err(&format!("{path}.window"), "this field takes no window")
        } else {
            Ok(c)
        }
    };
    let bad_op = || err(&format!("{path}.op"), format!("not an operator of {field}"));
    let op_error = || RuleError {
        path: format!("{path}.op"),
        message: format!("not an operator of {field}"),
    };
    match field {
        "gave" | "firstGift" | "created" => {
            let w = match op {
                "withinDays" => Window::Days(days(value, &vpath)?),
                "between" => parse_window_object(value, &vpath)?,
                "never" if field == "gave" => return no_window(Cond::NeverGave),
                _ => return bad_op(),
            };
            no_window(match field {
                "gave" => Cond::Gave(w),
                "firstGift" => Cond::FirstGift(w),
                _ => Cond::Created(w),
            })
        }
        "totalGiven" => {
            let cmp = cmp(op, false).ok_or_else(op_error)?;
            Ok(Cond::TotalGiven(cmp, amount(value, &vpath)?, window))
        }
        "giftCount" => {
            let cmp = cmp(op, true).ok_or_else(op_error)?;
            Ok(Cond::GiftCount(
                cmp,
                integer(value, &vpath, 0, 1_000_000)?,
                window,
            ))
        }
        "hpc" | "mrc" => {
            let test = if op == "between" {
                let o = object(value, &vpath)?;
                only_keys(o, &vpath, &["min", "max"])?;
                let min = amount(
                    o.get("min").unwrap_or(&Value::Null),
                    &format!("{vpath}.min"),
                )?;
                let max = amount(
                    o.get("max").unwrap_or(&Value::Null),
                    &format!("{vpath}.max"),
                )?;
                AmountTest::Between(min, max)
            } else {
                AmountTest::Cmp(cmp(op, false).ok_or_else(op_error)?, amount(value, &vpath)?)
            };
            no_window(if field == "hpc" {
                Cond::Hpc(test)
            } else {
                Cond::Mrc(test)
            })
        }
        "activeSustainer" => {
            if op != "is" {
                return bad_op();
            }
            match value {
                Value::Bool(b) => no_window(Cond::ActiveSustainer(*b)),
                _ => err(&vpath, "must be true or false"),
            }
        }
        "sourceCode" => {
            if op != "in" {
                return bad_op();
            }
            Ok(Cond::SourceCode(ids(value, &vpath)?, window))
        }
        "channel" | "campaign" => {
            if op != "in" {
                return bad_op();
            }
            let kind = if field == "channel" {
                SourceText::Channel
            } else {
                SourceText::Campaign
            };
            Ok(Cond::SourceText(kind, words(value, &vpath)?, window))
        }
        "recencyBand" => {
            if op != "in" {
                return bad_op();
            }
            let bands = words(value, &vpath)?
                .iter()
                .enumerate()
                .map(|(i, w)| match w.as_str() {
                    "active" => Ok(Band::Active),
                    "lapsed" => Ok(Band::Lapsed),
                    "longLapsed" => Ok(Band::LongLapsed),
                    "never" => Ok(Band::Never),
                    _ => err(
                        &format!("{vpath}[{i}]"),
                        "must be active, lapsed, longLapsed or never",
                    ),
                })
                .collect::<Result<Vec<_>, _>>()?;
            no_window(Cond::RecencyBand(bands))
        }
        "donorStatus" => {
            if op != "is" {
                return bad_op();
            }
            match value.as_str() {
                Some("lybunt") => no_window(Cond::DonorStatus(DonorStatus::Lybunt)),
                Some("sybunt") => no_window(Cond::DonorStatus(DonorStatus::Sybunt)),
                _ => err(&vpath, "must be lybunt or sybunt"),
            }
        }
        "rfmRecency" | "rfmFrequency" | "rfmMonetary" => {
            let cmp = cmp(op, true).ok_or_else(op_error)?;
            let dim = match field {
                "rfmRecency" => RfmDim::Recency,
                "rfmFrequency" => RfmDim::Frequency,
                _ => RfmDim::Monetary,
            };
            no_window(Cond::Rfm(dim, cmp, integer(value, &vpath, 1, 5)?))
        }
        "rfmCell" => {
            if op != "in" {
                return bad_op();
            }
            let cells = words(value, &vpath)?;
            for (i, c) in cells.iter().enumerate() {
                if c.len() != 3 || !c.bytes().all(|b| (b'1'..=b'5').contains(&b)) {
                    return err(
                        &format!("{vpath}[{i}]"),
                        "must be three scores 1-5, e.g. \"545\"",
                    );
                }
            }
            no_window(Cond::RfmCell(cells))
        }
        "opened" | "clicked" => {
            if op != "withinDays" {
                return bad_op();
            }
            let n = days(value, &vpath)?;
            no_window(if field == "opened" {
                Cond::Opened(n)
            } else {
                Cond::Clicked(n)
            })
        }
        "mailingsReceived" => {
            let cmp = cmp(op, false).ok_or_else(op_error)?;
            let k = integer(value, &vpath, 0, 1_000_000)?;
            match window {
                Some(Window::Days(n)) => Ok(Cond::MailingsReceived(cmp, k, n)),
                _ => err(&format!("{path}.window"), "must be {\"days\": N}"),
            }
        }
        "originCode" | "list" | "segment" => {
            let negate = match op {
                "in" => false,
                "notIn" => true,
                _ => return bad_op(),
            };
            let kind = match field {
                "originCode" => Membership::OriginCode,
                "list" => Membership::List,
                _ => Membership::Segment,
            };
            no_window(Cond::Member(kind, ids(value, &vpath)?, negate))
        }
        "state" => {
            if op != "in" {
                return bad_op();
            }
            let states = words(value, &vpath)?
                .into_iter()
                .map(|s| s.to_uppercase())
                .collect();
            no_window(Cond::State(states))
        }
        "zipPrefix" => {
            if op != "startsWith" {
                return bad_op();
            }
            match value.as_str() {
                Some(s) if !s.is_empty() && s.chars().count() <= 10 => {
                    no_window(Cond::ZipPrefix(s.to_owned()))
                }
                _ => err(&vpath, "must be 1 to 10 characters"),
            }
        }
        "subscription" => {
            if op != "in" {
                return bad_op();
            }
            let states = words(value, &vpath)?;
            for (i, s) in states.iter().enumerate() {
                if !["subscribed", "unsubscribed", "bounced"].contains(&s.as_str()) {
                    return err(
                        &format!("{vpath}[{i}]"),
                        "must be subscribed, unsubscribed or bounced",
                    );
                }
            }
            no_window(Cond::Subscription(states))
        }
        _ => err(&format!("{path}.field"), "unknown field"),
    }
}

fn cmp(op: &str, with_eq: bool) -> Option<Cmp> {
    match op {
        "gte" => Some(Cmp::Gte),
        "lte" => Some(Cmp::Lte),
        "eq" if with_eq => Some(Cmp::Eq),
        _ => None,
    }
}

fn integer(value: &Value, path: &str, min: i64, max: i64) -> Result<i64, RuleError> {
    match value.as_i64() {
        Some(n) if (min..=max).contains(&n) => Ok(n),
        _ => err(path, format!("must be a whole number from {min} to {max}")),
    }
}

fn days(value: &Value, path: &str) -> Result<i64, RuleError> {
    integer(value, path, 1, MAX_DAYS)
}

fn date(value: &Value, path: &str) -> Result<NaiveDate, RuleError> {
    value
        .as_str()
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
        .filter(|d| (1900..=2200).contains(&chrono::Datelike::year(d)))
        .map_or_else(|| err(path, "must be a date YYYY-MM-DD"), Ok)
}

/// `{"days": N}` or `{"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}`.
fn parse_window_object(value: &Value, path: &str) -> Result<Window, RuleError> {
    let obj = object(value, path)?;
    if obj.contains_key("days") {
        only_keys(obj, path, &["days"])?;
        return Ok(Window::Days(days(
            obj.get("days").unwrap_or(&Value::Null),
            &format!("{path}.days"),
        )?));
    }
    only_keys(obj, path, &["from", "to"])?;
    let from = date(
        obj.get("from").unwrap_or(&Value::Null),
        &format!("{path}.from"),
    )?;
    let to = date(obj.get("to").unwrap_or(&Value::Null), &format!("{path}.to"))?;
    if to < from {
        return err(&format!("{path}.to"), "must not be before from");
    }
    Ok(Window::Between(from, to))
}

/// An amount in dollars: a JSON number or decimal text, at most two decimals, 0 to [`MAX_AMOUNT`]. Returned as
/// canonical decimal text (bound as a parameter and cast to numeric; never a float).
pub fn amount(value: &Value, path: &str) -> Result<String, RuleError> {
    let text = match value {
        Value::String(s) => s.trim().to_owned(),
        Value::Number(n) => n.to_string(),
        _ => return err(path, "must be an amount"),
    };
    let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
    let ok = !whole.is_empty()
        && whole.len() <= 10
        && whole.bytes().all(|b| b.is_ascii_digit())
        && frac.len() <= 2
        && frac.bytes().all(|b| b.is_ascii_digit())
        && whole.parse::<i64>().is_ok_and(|w| w <= MAX_AMOUNT);
    if !ok {
        return err(
            path,
            format!("must be an amount from 0 to {MAX_AMOUNT} with at most two decimals"),
        );
    }
    Ok(text)
}

fn array<'a>(value: &'a Value, path: &str) -> Result<&'a [Value], RuleError> {
    match value {
        Value::Array(items) if !items.is_empty() && items.len() <= MAX_VALUES => Ok(items),
        _ => err(path, format!("must be a list of 1 to {MAX_VALUES} entries")),
    }
}

fn ids(value: &Value, path: &str) -> Result<Vec<i64>, RuleError> {
    array(value, path)?
        .iter()
        .enumerate()
        .map(|(i, v)| match v.as_i64() {
            Some(n) if n > 0 => Ok(n),
            _ => err(&format!("{path}[{i}]"), "must be an id"),
        })
        .collect()
}

fn words(value: &Value, path: &str) -> Result<Vec<String>, RuleError> {
    array(value, path)?
        .iter()
        .enumerate()
        .map(|(i, v)| match v.as_str() {
            Some(s) if !s.trim().is_empty() && s.chars().count() <= MAX_TEXT => {
                Ok(s.trim().to_owned())
            }
            _ => err(
                &format!("{path}[{i}]"),
                format!("must be text of 1 to {MAX_TEXT} characters"),
            ),
        })
        .collect()
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
