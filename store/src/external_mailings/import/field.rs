//! What a column of an external mailings file feeds, and which column feeds each field.

use crate::media::import::normalize_header;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
