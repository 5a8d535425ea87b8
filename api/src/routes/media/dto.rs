//! The bodies of the media operations.

use chrono::NaiveDate;
use poem_openapi::types::multipart::Upload;
use poem_openapi::{Enum, Multipart, Object};
use store::media;

#[derive(Debug, Multipart)]
pub struct MediaUpload {
    /// .csv, .xls or .xlsx
    pub file: Upload,
    /// meta, google or other
    pub platform: String,
    /// For `other`: JSON object of file column header → field id (see GET /api/media/import/fields).
    pub mapping: Option<String>,
}

/// A field an ads file column can be mapped to.
#[derive(Debug, Object)]
pub struct MediaField {
    pub id: String,
    pub label: String,
    pub required: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum MediaLevel {
    Campaign,
    Group,
    Ad,
}

/// One row of the media table. Money and ratios are decimal strings; a ratio is null when its divisor is zero.
#[derive(Debug, Object)]
pub struct MediaRow {
    pub id: i64,
    pub name: String,
    #[oai(nullable)]
    pub campaign: Option<String>,
    #[oai(rename = "adGroup", nullable)]
    pub ad_group: Option<String>,
    #[oai(nullable)]
    pub platform: Option<String>,
    pub spend: String,
    pub impressions: i64,
    pub clicks: i64,
    pub conversions: String,
    /// spend ÷ impressions × 1000
    #[oai(nullable)]
    pub cpm: Option<String>,
    /// spend ÷ clicks
    #[oai(nullable)]
    pub cpc: Option<String>,
    /// clicks ÷ impressions (a fraction, 4 places)
    #[oai(nullable)]
    pub ctr: Option<String>,
    #[oai(rename = "newContacts")]
    pub new_contacts: i64,
    /// spend ÷ new contacts
    #[oai(nullable)]
    pub cpl: Option<String>,
    #[oai(rename = "newDonors")]
    pub new_donors: i64,
    /// spend ÷ new donors
    #[oai(rename = "costPerDonor", nullable)]
    pub cost_per_donor: Option<String>,
    #[oai(rename = "revenue0")]
    pub revenue_0: String,
    #[oai(rename = "revenue30")]
    pub revenue_30: String,
    #[oai(rename = "revenue90")]
    pub revenue_90: String,
    #[oai(rename = "revenue365")]
    pub revenue_365: String,
    #[oai(rename = "roas0", nullable)]
    pub roas_0: Option<String>,
    #[oai(rename = "roas30", nullable)]
    pub roas_30: Option<String>,
    #[oai(rename = "roas90", nullable)]
    pub roas_90: Option<String>,
    #[oai(rename = "roas365", nullable)]
    pub roas_365: Option<String>,
}

impl From<media::MediaRow> for MediaRow {
    fn from(r: media::MediaRow) -> Self {
        Self {
            id: r.id,
            name: r.name,
            campaign: r.campaign,
            ad_group: r.ad_group,
            platform: r.platform,
            spend: r.spend,
            impressions: r.impressions,
            clicks: r.clicks,
            conversions: r.conversions,
            cpm: r.cpm,
            cpc: r.cpc,
            ctr: r.ctr,
            new_contacts: r.new_contacts,
            cpl: r.cpl,
            new_donors: r.new_donors,
            cost_per_donor: r.cost_per_donor,
            revenue_0: r.revenue_0,
            revenue_30: r.revenue_30,
            revenue_90: r.revenue_90,
            revenue_365: r.revenue_365,
            roas_0: r.roas_0,
            roas_30: r.roas_30,
            roas_90: r.roas_90,
            roas_365: r.roas_365,
        }
    }
}

#[derive(Debug, Object)]
pub struct MediaPerformance {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub rows: Vec<MediaRow>,
    /// Every ad (of the chosen campaign) together; people touched by two ads count once.
    pub total: MediaRow,
}

#[derive(Debug, Object)]
pub struct MediaDay {
    pub day: NaiveDate,
    pub spend: String,
    /// Net of the gifts given that day through an ad's refcode.
    pub revenue: String,
}

#[derive(Debug, Object)]
pub struct MediaAd {
    pub id: i64,
    pub name: String,
    #[oai(rename = "adGroup")]
    pub ad_group: String,
    pub campaign: String,
    pub platform: String,
    pub refcodes: Vec<String>,
    #[oai(rename = "originCodeIds")]
    pub origin_code_ids: Vec<i64>,
}

#[derive(Debug, Object)]
pub struct AdCodesInput {
    /// Letters, digits, underscores and dashes; at most 100.
    pub refcodes: Vec<String>,
    #[oai(rename = "originCodeIds")]
    pub origin_code_ids: Vec<i64>,
}

/// An entry of a selection list whose id is a row id.
#[derive(Debug, Object)]
pub struct AdName {
    pub id: i64,
    pub label: String,
}

pub(super) fn empty_total() -> MediaRow {
    let zero = || "0.00".to_owned();
    MediaRow {
        id: 0,
        name: "Total".to_owned(),
        campaign: None,
        ad_group: None,
        platform: None,
        spend: zero(),
        impressions: 0,
        clicks: 0,
        conversions: zero(),
        cpm: None,
        cpc: None,
        ctr: None,
        new_contacts: 0,
        cpl: None,
        new_donors: 0,
        cost_per_donor: None,
        revenue_0: zero(),
        revenue_30: zero(),
        revenue_90: zero(),
        revenue_365: zero(),
        roas_0: None,
        roas_30: None,
        roas_90: None,
        roas_365: None,
    }
}
