//! Reading Meta Ads Manager and Google Ads exports (or any file with a user's column mapping): which column feeds
//! which field, found by header name, and one data row turned into a day of one ad. Pure functions; the worker's
//! job reads the file and hands the rows to [`super::upsert_days`].

mod row;

use chrono::NaiveDate;
pub use row::{parse_count, parse_day, parse_decimal, parse_row, refcode_of, AdDay, Skip};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where an export comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdPlatform {
    Meta,
    Google,
    /// Any other platform's file, read through the user's column mapping.
    Other,
}

impl AdPlatform {
    pub fn from_id(id: &str) -> Option<Self> {
        match id.trim().to_ascii_lowercase().as_str() {
            "meta" | "facebook" => Some(Self::Meta),
            "google" => Some(Self::Google),
            "other" | "mapped" => Some(Self::Other),
            _ => None,
        }
    }

    /// The value of `ad_campaigns.platform` and `ads.platform`.
    pub fn stored(self) -> &'static str {
        match self {
            Self::Meta => "meta",
            Self::Google => "google",
            Self::Other => "other",
        }
    }

    fn export_name(self) -> &'static str {
        match self {
            Self::Meta => "a Meta Ads Manager",
            Self::Google => "a Google Ads",
            Self::Other => "a mapped",
        }
    }
}

/// What a column of an ads file feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdField {
    Day,
    Campaign,
    CampaignId,
    AdGroup,
    AdGroupId,
    Ad,
    AdId,
    Spend,
    Impressions,
    Clicks,
    Conversions,
    /// A refcode, or a URL or URL parameters holding `refcode=…`.
    Refcode,
}

impl AdField {
    pub const ALL: [AdField; 12] = [
        AdField::Day,
        AdField::Campaign,
        AdField::CampaignId,
        AdField::AdGroup,
        AdField::AdGroupId,
        AdField::Ad,
        AdField::AdId,
        AdField::Spend,
        AdField::Impressions,
        AdField::Clicks,
        AdField::Conversions,
        AdField::Refcode,
    ];

    pub const REQUIRED: [AdField; 4] =
        [AdField::Day, AdField::Campaign, AdField::Ad, AdField::Spend];

    pub fn id(self) -> &'static str {
        match self {
            Self::Day => "day",
            Self::Campaign => "campaign",
            Self::CampaignId => "campaign_id",
            Self::AdGroup => "ad_group",
            Self::AdGroupId => "ad_group_id",
            Self::Ad => "ad",
            Self::AdId => "ad_id",
            Self::Spend => "spend",
            Self::Impressions => "impressions",
            Self::Clicks => "clicks",
            Self::Conversions => "conversions",
            Self::Refcode => "refcode",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Day => "Day",
            Self::Campaign => "Campaign",
            Self::CampaignId => "Campaign ID",
            Self::AdGroup => "Ad group",
            Self::AdGroupId => "Ad group ID",
            Self::Ad => "Ad",
            Self::AdId => "Ad ID",
            Self::Spend => "Spend",
            Self::Impressions => "Impressions",
            Self::Clicks => "Clicks",
            Self::Conversions => "Conversions",
            Self::Refcode => "Refcode",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.id() == id)
    }

    /// Header names (lower case, letters and digits only) of the platform's export, most specific first.
    fn aliases(self, platform: AdPlatform) -> &'static [&'static str] {
        match (platform, self) {
            (AdPlatform::Meta, Self::Day) => &["day", "reportingstarts", "date"],
            (AdPlatform::Meta, Self::Campaign) => &["campaignname"],
            (AdPlatform::Meta, Self::CampaignId) => &["campaignid"],
            (AdPlatform::Meta, Self::AdGroup) => &["adsetname"],
            (AdPlatform::Meta, Self::AdGroupId) => &["adsetid"],
            (AdPlatform::Meta, Self::Ad) => &["adname"],
            (AdPlatform::Meta, Self::AdId) => &["adid"],
            // "Amount spent (USD)", or another currency's code.
            (AdPlatform::Meta, Self::Spend) => &["amountspentusd", "amountspent*"],
            (AdPlatform::Meta, Self::Impressions) => &["impressions"],
            (AdPlatform::Meta, Self::Clicks) => &["linkclicks", "clicksall", "clicks"],
            (AdPlatform::Meta, Self::Conversions) => {
                &["results", "purchases", "leads", "conversions"]
            }
            (AdPlatform::Meta, Self::Refcode) => &["urlparameters", "websiteurl", "link"],
            (_, Self::Day) => &["day", "date"],
            (_, Self::Campaign) => &["campaign", "campaignname"],
            (_, Self::CampaignId) => &["campaignid"],
            (_, Self::AdGroup) => &["adgroup", "adgroupname"],
            (_, Self::AdGroupId) => &["adgroupid"],
            (_, Self::Ad) => &["adname", "ad", "headline1"],
            (_, Self::AdId) => &["adid"],
            (_, Self::Spend) => &["cost", "spend"],
            (_, Self::Impressions) => &["impr", "impressions"],
            (_, Self::Clicks) => &["clicks"],
            (_, Self::Conversions) => &["conversions", "conv"],
            (_, Self::Refcode) => &["finalurlsuffix", "finalurl", "trackingtemplate", "refcode"],
        }
    }
}

/// A header cell as compared: lower case, letters and digits only, byte-order mark dropped.
pub fn normalize_header(h: &str) -> String {
    h.trim_start_matches('\u{feff}')
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_lowercase()
}

/// Column index of each field found in `header`; `None` when a required field is missing (the header row may
/// follow a title and a date-range line, as Google's export does, so callers try row after row).
pub fn resolve(
    platform: AdPlatform,
    mapping: &BTreeMap<String, AdField>,
    header: &[String],
) -> Result<BTreeMap<AdField, usize>, String> {
    let normalized: Vec<String> = header.iter().map(|h| normalize_header(h)).collect();
    let mut found = BTreeMap::new();
    if platform == AdPlatform::Other {
        for (column, field) in mapping {
            let key = normalize_header(column);
            let i = normalized
                .iter()
                .position(|h| *h == key)
                .ok_or_else(|| format!("The file has no column '{column}'"))?;
            found.insert(*field, i);
        }
    } else {
        for field in AdField::ALL {
            let hit =
                field
                    .aliases(platform)
                    .iter()
                    .find_map(|alias| match alias.strip_suffix('*') {
                        Some(prefix) => normalized.iter().position(|h| h.starts_with(prefix)),
                        None => normalized.iter().position(|h| h == alias),
                    });
            if let Some(i) = hit {
                found.insert(field, i);
            }
        }
        // An export naming ads only by id still names each ad.
        if !found.contains_key(&AdField::Ad) {
            if let Some(&i) = found.get(&AdField::AdId) {
                found.insert(AdField::Ad, i);
            }
        }
    }
    let missing: Vec<String> = AdField::REQUIRED
        .iter()
        .filter(|f| !found.contains_key(f))
        .map(|f| format!("'{}'", f.label()))
        .collect();
    if missing.is_empty() {
        Ok(found)
    } else if platform == AdPlatform::Other {
        Err(format!("Map a column to {}", missing.join(", ")))
    } else {
        Err(format!(
            "This is not {} export: it has no column for {}",
            platform.export_name(),
            missing.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(s: &str) -> Vec<String> {
        s.split(',').map(str::to_owned).collect()
    }

    #[test]
    fn meta_headers_are_found_by_name() {
        let header = strings("Reporting starts,Reporting ends,Campaign name,Ad set name,Ad name,Day,Amount spent (USD),Impressions,Link clicks,Results,Ad ID");
        let cols = resolve(AdPlatform::Meta, &BTreeMap::new(), &header).unwrap();
        assert_eq!(cols[&AdField::Day], 5);
        assert_eq!(cols[&AdField::Spend], 6);
        assert_eq!(cols[&AdField::AdId], 10);
        let row =
            strings("2026-11-01,2026-11-30,Fall,Lookalike,Video A,2026-11-03,12.5,1000,7,2,987");
        let day = parse_row(&cols, &header, &row, 2).unwrap().unwrap();
        assert_eq!(day.ad_key, "987");
        assert_eq!(day.day, NaiveDate::from_ymd_opt(2026, 11, 3).unwrap());
    }

    #[test]
    fn google_totals_and_dashes() {
        let header = strings("Day,Campaign,Ad group,Ad ID,Cost,Impr.,Clicks,Conversions");
        let cols = resolve(AdPlatform::Google, &BTreeMap::new(), &header).unwrap();
        let row = strings("2026-11-03,Search,Brand,55,--,1,0,0.50");
        let d = parse_row(&cols, &header, &row, 4).unwrap().unwrap();
        assert_eq!(
            (d.spend.as_str(), d.conversions.as_str(), d.ad.as_str()),
            ("0", "0.50", "55")
        );
        let total = strings("Total: Account,,,,1.00,5,1,0");
        assert_eq!(
            parse_row(&cols, &header, &total, 9).unwrap(),
            Err(Skip::Total)
        );
        assert!(resolve(AdPlatform::Google, &BTreeMap::new(), &strings("Ad report")).is_err());
    }

    #[test]
    fn refcodes_from_urls() {
        assert_eq!(
            refcode_of("utm_source=fb&refcode=ad_fall_01").as_deref(),
            Some("ad_fall_01")
        );
        assert_eq!(
            refcode_of("https://secure.actblue.com/donate/x?refcode=g1#a").as_deref(),
            Some("g1")
        );
        assert_eq!(refcode_of("https://example.com/x"), None);
        assert_eq!(refcode_of("plain_code").as_deref(), Some("plain_code"));
        assert_eq!(parse_decimal("$1,234.56").as_deref(), Some("1234.56"));
        assert_eq!(parse_decimal("-3"), None);
    }
}
