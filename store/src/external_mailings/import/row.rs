//! One data row of an external mailings file turned into one send.

use super::{MailingField, Source};
use crate::media::import::{parse_count, parse_day, parse_decimal};
use chrono::NaiveDate;
use std::collections::BTreeMap;

/// One external send as a file row gives it. Revenue is exact decimal text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalSend {
    pub source: Source,
    pub name: String,
    pub sent_on: NaiveDate,
    pub external_id: Option<String>,
    pub recipients: i64,
    pub delivered: i64,
    pub bounces: i64,
    pub opens: i64,
    pub clicks: i64,
    pub unsubscribes: i64,
    pub gifts: i64,
    pub revenue: String,
}

impl ExternalSend {
    /// What identifies the send across imports: the platform's id when the file has one, else its name and
    /// send date (the source is the other half of the key).
    pub fn key(&self) -> String {
        match &self.external_id {
            Some(id) => format!("id:{id}"),
            None => format!("name:{}|{}", self.name, self.sent_on),
        }
    }
}

/// One data row turned into a send (`None` for an empty row), or an error naming the row and column.
pub fn parse_row(
    columns: &BTreeMap<MailingField, usize>,
    header: &[String],
    row: &[String],
    row_no: i64,
    default_source: Source,
) -> Result<Option<ExternalSend>, String> {
    if row.iter().all(|c| c.trim().is_empty()) {
        return Ok(None);
    }
    let cell = |f: MailingField| {
        columns
            .get(&f)
            .and_then(|&i| row.get(i))
            .map(|c| c.trim())
            .unwrap_or("")
    };
    let bad = |f: MailingField, what: String| {
        let name = columns
            .get(&f)
            .and_then(|&i| header.get(i))
            .map(|h| h.trim_start_matches('\u{feff}').trim().to_owned())
            .unwrap_or_else(|| f.label().to_owned());
        format!("Row {row_no}, column '{name}': {what}")
    };
    let name: String = cell(MailingField::Name).chars().take(300).collect();
    if name.is_empty() {
        return Err(bad(MailingField::Name, "no name".to_owned()));
    }
    let raw_day = cell(MailingField::SentOn);
    let sent_on = parse_day(raw_day)
        .ok_or_else(|| bad(MailingField::SentOn, format!("{raw_day:?} is not a date")))?;
    let count = |f: MailingField| -> Result<Option<i64>, String> {
        let raw = cell(f);
        if !columns.contains_key(&f) || raw.is_empty() {
            return Ok(None);
        }
        parse_count(raw)
            .map(Some)
            .ok_or_else(|| bad(f, format!("{raw:?} is not a whole number")))
    };
    let bounces = count(MailingField::Bounces)?.unwrap_or(0);
    let (recipients, delivered) = match (
        count(MailingField::Recipients)?,
        count(MailingField::Delivered)?,
    ) {
        (Some(r), Some(d)) if d > r => {
            return Err(bad(
                MailingField::Delivered,
                format!("{d} delivered is more than the {r} recipients"),
            ))
        }
        (Some(r), Some(d)) => (r, d),
        (Some(r), None) => (r, (r - bounces).max(0)),
        (None, Some(d)) => (d + bounces, d),
        (None, None) => (bounces, 0),
    };
    let raw_revenue = cell(MailingField::Revenue);
    let revenue = parse_decimal(raw_revenue).ok_or_else(|| {
        bad(
            MailingField::Revenue,
            format!("{raw_revenue:?} is not an amount"),
        )
    })?;
    let external_id = Some(cell(MailingField::ExternalId).chars().take(200).collect())
        .filter(|id: &String| !id.is_empty());
    Ok(Some(ExternalSend {
        source: Source::of_cell(cell(MailingField::Platform), default_source),
        name,
        sent_on,
        external_id,
        recipients,
        delivered,
        bounces,
        opens: count(MailingField::Opens)?.unwrap_or(0),
        clicks: count(MailingField::Clicks)?.unwrap_or(0),
        unsubscribes: count(MailingField::Unsubscribes)?.unwrap_or(0),
        gifts: count(MailingField::Gifts)?.unwrap_or(0),
        revenue,
    }))
}
