//! Comparing figures: mismatches collected, and money read and written in cents.

use serde_json::Value;

/// Collects every mismatch so one run names them all.
#[derive(Default)]
pub(super) struct Check(pub(super) Vec<String>);

impl Check {
    pub(super) fn eq(&mut self, what: &str, got: impl Into<String>, want: &str) {
        let got = got.into();
        if got != want {
            self.0.push(format!("{what}: got {got}, want {want}"));
        }
    }
}

pub(super) fn s(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "null".to_owned(),
        other => other.to_string(),
    }
}

pub(super) fn cents(v: &str) -> i64 {
    let v = v.trim().replace(',', "");
    let (neg, v) = v
        .strip_prefix('-')
        .map_or((false, v.as_str()), |r| (true, r));
    let (units, frac) = v.split_once('.').unwrap_or((v, "0"));
    let frac = format!("{frac:0<2}");
    let c = units.parse::<i64>().unwrap() * 100 + frac[..2].parse::<i64>().unwrap();
    if neg {
        -c
    } else {
        c
    }
}

pub(super) fn money(c: i64) -> String {
    format!(
        "{}{}.{:02}",
        if c < 0 { "-" } else { "" },
        c.abs() / 100,
        c.abs() % 100
    )
}

/// Sum of a money field over rows.
pub(super) fn sum(rows: &Value, field: &str) -> String {
    money(
        rows.as_array()
            .unwrap()
            .iter()
            .map(|r| cents(&s(&r[field])))
            .sum(),
    )
}

pub(super) fn count(rows: &Value, field: &str) -> String {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| r[field].as_i64().unwrap())
        .sum::<i64>()
        .to_string()
}
