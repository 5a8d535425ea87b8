//! Reading a file of sends made elsewhere (another e-mail platform's campaign report, a lemlist export): which
//! column feeds which field — by the user's mapping, else by header name with common synonyms — and one data row
//! turned into one send. Pure functions; the worker's job reads the file and hands the sends to [`super::upsert`].

use crate::media::import::{normalize_header, parse_count, parse_day, parse_decimal};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where the sends were made: `esp` (another e-mail platform) or `lemlist`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Esp,
    Lemlist,
}

impl Source {
    pub fn from_id(id: &str) -> Option<Self> {
        match id.trim().to_ascii_lowercase().as_str() {
            "esp" | "other" => Some(Self::Esp),
            "lemlist" => Some(Self::Lemlist),
            _ => None,
        }
    }

    /// The value of `external_mailings.source`.
    pub fn stored(self) -> &'static str {
        match self {
            Self::Esp => "esp",
            Self::Lemlist => "lemlist",
        }
    }

    /// A platform cell: lemlist when it names lemlist, the file's default when empty, else another platform.
    fn of_cell(cell: &str, default: Source) -> Source {
        let cell = cell.trim().to_ascii_lowercase();
        if cell.is_empty() {
            default
        } else if cell.contains("lemlist") {
            Self::Lemlist
        } else {
            Self::Esp
        }
    }
}

/// What a column of an external mailings file feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MailingField {
    Name,
    SentOn,
    Platform,
    ExternalId,
    Recipients,
    Delivered,
    Bounces,
    Opens,
    Clicks,
    Unsubscribes,
    Gifts,
    Revenue,
}

impl MailingField {
    pub const ALL: [MailingField; 12] = [
        Self::Name,
        Self::SentOn,
        Self::Platform,
        Self::ExternalId,
        Self::Recipients,
        Self::Delivered,
        Self::Bounces,
        Self::Opens,
        Self::Clicks,
        Self::Unsubscribes,
        Self::Gifts,
        Self::Revenue,
    ];

    pub const REQUIRED: [MailingField; 2] = [Self::Name, Self::SentOn];

    pub fn id(self) -> &'static str {
        match self {
            Self::Name => "name",
            Self::SentOn => "sent_on",
            Self::Platform => "platform",
            Self::ExternalId => "external_id",
            Self::Recipients => "recipients",
            Self::Delivered => "delivered",
            Self::Bounces => "bounces",
            Self::Opens => "opens",
            Self::Clicks => "clicks",
            Self::Unsubscribes => "unsubscribes",
            Self::Gifts => "gifts",
            Self::Revenue => "revenue",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Name => "Name",
            Self::SentOn => "Send date",
            Self::Platform => "Platform",
            Self::ExternalId => "Mailing ID",
            Self::Recipients => "Recipients",
            Self::Delivered => "Delivered",
            Self::Bounces => "Bounces",
            Self::Opens => "Opens",
            Self::Clicks => "Clicks",
            Self::Unsubscribes => "Unsubscribes",
            Self::Gifts => "Gifts",
            Self::Revenue => "Revenue",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.id() == id)
    }

    /// Headers (lower case, letters and digits only) that name the field in common platforms' exports, besides
    /// its id and label. "Sent" is a count of messages in most reports, so it names recipients, not the date.
    pub fn synonyms(self) -> &'static [&'static str] {
        match self {
            Self::Name => &[
                "campaign",
                "campaignname",
                "mailing",
                "mailingname",
                "emailname",
                "subject",
                "subjectline",
                "title",
            ],
            Self::SentOn => &[
                "date",
                "day",
                "sentdate",
                "senddate",
                "sentat",
                "sendtime",
                "senton",
                "datesent",
                "deliverydate",
                "startdate",
            ],
            Self::Platform => &["source", "esp", "tool", "provider"],
            Self::ExternalId => &["id", "campaignid", "mailingid", "externalid", "sendid"],
            Self::Recipients => &[
                "sent",
                "emailssent",
                "totalrecipients",
                "recipientscount",
                "contacted",
                "sends",
            ],
            Self::Delivered => &["emailsdelivered", "delivery", "successfuldeliveries"],
            Self::Bounces => &["bounced", "bounce", "hardbounces", "totalbounces"],
            Self::Opens => &[
                "opened",
                "uniqueopens",
                "openers",
                "humanopens",
                "uniqueopened",
            ],
            Self::Clicks => &[
                "clicked",
                "uniqueclicks",
                "clickers",
                "humanclicks",
                "uniqueclicked",
            ],
            Self::Unsubscribes => &["unsubscribed", "unsubs", "optouts", "unsubscribe"],
            Self::Gifts => &["donations", "contributions", "giftcount", "donationcount"],
            Self::Revenue => &[
                "raised",
                "amount",
                "totalraised",
                "donationamount",
                "amountraised",
            ],
        }
    }
}

/// Column index of each field: by the user's mapping when there is one (only the mapped columns are read), else
/// by header name. An error names what is missing.
pub fn resolve(
    mapping: &BTreeMap<String, MailingField>,
    header: &[String],
) -> Result<BTreeMap<MailingField, usize>, String> {
    let normalized: Vec<String> = header.iter().map(|h| normalize_header(h)).collect();
    let mut found = BTreeMap::new();
    if mapping.is_empty() {
        for field in MailingField::ALL {
            let names = [
                normalize_header(field.id()),
                normalize_header(field.label()),
            ];
            let free = |i: &usize| !found.values().any(|used| used == i);
            // The field's own name before a synonym: "Name" wins over "Campaign".
            let hit = (0..normalized.len())
                .filter(free)
                .find(|&i| names.contains(&normalized[i]))
                .or_else(|| {
                    (0..normalized.len())
                        .filter(free)
                        .find(|&i| field.synonyms().contains(&normalized[i].as_str()))
                });
            if let Some(i) = hit {
                found.insert(field, i);
            }
        }
    } else {
        for (column, field) in mapping {
            let key = normalize_header(column);
            let i = normalized
                .iter()
                .position(|h| *h == key)
                .ok_or_else(|| format!("The file has no column '{column}'"))?;
            found.insert(*field, i);
        }
    }
    let missing: Vec<String> = MailingField::REQUIRED
        .iter()
        .filter(|f| !found.contains_key(f))
        .map(|f| format!("'{}'", f.label()))
        .collect();
    if missing.is_empty() {
        Ok(found)
    } else {
        Err(format!("Map a column to {}", missing.join(" and ")))
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(s: &str) -> Vec<String> {
        s.split(',').map(str::to_owned).collect()
    }

    #[test]
    fn headers_are_found_by_synonyms() {
        let header = strings("Campaign Name,Sent At,Emails Sent,Unique Opens,Unique Clicks,Unsubscribed,Amount Raised,Tool");
        let cols = resolve(&BTreeMap::new(), &header).unwrap();
        assert_eq!(cols[&MailingField::Name], 0);
        assert_eq!(cols[&MailingField::SentOn], 1);
        assert_eq!(cols[&MailingField::Recipients], 2);
        assert_eq!(cols[&MailingField::Revenue], 6);
        let row = strings("Fall,2026-11-03T14:00:00.000Z,1000,300,40,2,125.50,lemlist");
        let send = parse_row(&cols, &header, &row, 2, Source::Esp)
            .unwrap()
            .unwrap();
        assert_eq!(send.source, Source::Lemlist);
        assert_eq!(
            (send.recipients, send.delivered, send.opens),
            (1000, 1000, 300)
        );
        assert_eq!(send.key(), "name:Fall|2026-11-03");
    }

    #[test]
    fn a_bad_cell_names_its_row_and_column() {
        let header = strings("Name,Date,Recipients,Delivered,Opens");
        let cols = resolve(&BTreeMap::new(), &header).unwrap();
        let err = parse_row(
            &cols,
            &header,
            &strings("A,2026-11-03,10,5,many"),
            4,
            Source::Esp,
        )
        .unwrap_err();
        assert_eq!(err, "Row 4, column 'Opens': \"many\" is not a whole number");
        let err = parse_row(
            &cols,
            &header,
            &strings("A,2026-11-03,10,12,1"),
            5,
            Source::Esp,
        )
        .unwrap_err();
        assert_eq!(
            err,
            "Row 5, column 'Delivered': 12 delivered is more than the 10 recipients"
        );
        assert!(resolve(&BTreeMap::new(), &strings("Email,Opens"))
            .unwrap_err()
            .contains("'Name' and 'Send date'"));
    }
}
