//! The values inside a condition: comparisons, numbers, days, dates, amounts, ids and words.

use super::*;

pub(super) fn cmp(op: &str, with_eq: bool) -> Option<Cmp> {
    match op {
        "gte" => Some(Cmp::Gte),
        "lte" => Some(Cmp::Lte),
        "eq" if with_eq => Some(Cmp::Eq),
        _ => None,
    }
}

pub(super) fn integer(value: &Value, path: &str, min: i64, max: i64) -> Result<i64, RuleError> {
    match value.as_i64() {
        Some(n) if (min..=max).contains(&n) => Ok(n),
        _ => err(path, format!("must be a whole number from {min} to {max}")),
    }
}

pub(super) fn days(value: &Value, path: &str) -> Result<i64, RuleError> {
    integer(value, path, 1, MAX_DAYS)
}

pub(super) fn date(value: &Value, path: &str) -> Result<NaiveDate, RuleError> {
    value
        .as_str()
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
        .filter(|d| (1900..=2200).contains(&chrono::Datelike::year(d)))
        .map_or_else(|| err(path, "must be a date YYYY-MM-DD"), Ok)
}

/// `{"days": N}` or `{"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}`.
pub(super) fn parse_window_object(value: &Value, path: &str) -> Result<Window, RuleError> {
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
    match domain::Money::parse(&text) {
        Ok(money) if money.whole() <= MAX_AMOUNT => Ok(money.to_string()),
        _ => err(
            path,
            format!("must be an amount from 0 to {MAX_AMOUNT} with at most two decimals"),
        ),
    }
}

pub(super) fn array<'a>(value: &'a Value, path: &str) -> Result<&'a [Value], RuleError> {
    match value {
        Value::Array(items) if !items.is_empty() && items.len() <= MAX_VALUES => Ok(items),
        _ => err(path, format!("must be a list of 1 to {MAX_VALUES} entries")),
    }
}

pub(super) fn ids(value: &Value, path: &str) -> Result<Vec<i64>, RuleError> {
    array(value, path)?
        .iter()
        .enumerate()
        .map(|(i, v)| match v.as_i64() {
            Some(n) if n > 0 => Ok(n),
            _ => err(&format!("{path}[{i}]"), "must be an id"),
        })
        .collect()
}

pub(super) fn words(value: &Value, path: &str) -> Result<Vec<String>, RuleError> {
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
