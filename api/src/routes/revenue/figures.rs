//! The figures of the contributions page: totals, the daily series and breakdowns.

use chrono::NaiveDate;
use poem_openapi::Object;

/// Totals of a date range. Money is a decimal string with two places.
#[derive(Debug, Object)]
pub struct ContributionSummary {
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// All gifts in range, refunded ones included.
    pub gross: String,
    pub refunds: String,
    /// gross − refunds
    pub net: String,
    pub fees: String,
    pub gifts: i64,
    #[oai(rename = "refundedGifts")]
    pub refunded_gifts: i64,
    pub donors: i64,
    /// Donors whose first gift ever is in the range.
    #[oai(rename = "newDonors")]
    pub new_donors: i64,
    #[oai(rename = "averageGift")]
    pub average_gift: String,
    #[oai(rename = "medianGift")]
    pub median_gift: String,
    #[oai(rename = "recurringGross")]
    pub recurring_gross: String,
    /// recurring gross ÷ gross (0 when there is no gross).
    #[oai(rename = "recurringShare")]
    pub recurring_share: f64,
}

/// One day of the range, beside the same day of the previous period.
#[derive(Debug, Object)]
pub struct RevenueDay {
    pub date: NaiveDate,
    pub gross: String,
    pub net: String,
    pub gifts: i64,
    #[oai(rename = "previousDate")]
    pub previous_date: NaiveDate,
    #[oai(rename = "previousNet")]
    pub previous_net: String,
    #[oai(rename = "previousGifts")]
    pub previous_gifts: i64,
}

#[derive(Debug, Object)]
pub struct RevenueSeries {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub days: Vec<RevenueDay>,
}

/// A row of a breakdown: a channel, source code, fundraising page or amount band.
#[derive(Debug, Object)]
pub struct BreakdownRow {
    pub key: String,
    /// The source code's id (source-code breakdown only).
    #[oai(nullable, rename = "sourceCodeId")]
    pub source_code_id: Option<i64>,
    pub gifts: i64,
    pub donors: i64,
    pub gross: String,
    pub net: String,
}

#[derive(Debug, Object)]
pub struct Breakdowns {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub channels: Vec<BreakdownRow>,
    /// The 100 codes with the most gross.
    #[oai(rename = "sourceCodes")]
    pub source_codes: Vec<BreakdownRow>,
    /// The 100 pages with the most gross.
    pub pages: Vec<BreakdownRow>,
    /// Under 25, 25–49.99, 50–99.99, 100–249.99, 250–999.99, 1000 and over; only bands with gifts.
    pub bands: Vec<BreakdownRow>,
}

impl From<store::revenue::contributions::Summary> for ContributionSummary {
    fn from(s: store::revenue::contributions::Summary) -> Self {
        Self {
            from: s.from,
            to: s.to,
            gross: s.gross,
            refunds: s.refunds,
            net: s.net,
            fees: s.fees,
            gifts: s.gifts,
            refunded_gifts: s.refunded_gifts,
            donors: s.donors,
            new_donors: s.new_donors,
            average_gift: s.average_gift,
            median_gift: s.median_gift,
            recurring_gross: s.recurring_gross,
            recurring_share: s.recurring_share,
        }
    }
}

impl From<store::revenue::contributions::Breakdown> for BreakdownRow {
    fn from(b: store::revenue::contributions::Breakdown) -> Self {
        Self {
            key: b.key,
            source_code_id: b.source_code_id,
            gifts: b.gifts,
            donors: b.donors,
            gross: b.gross,
            net: b.net,
        }
    }
}
