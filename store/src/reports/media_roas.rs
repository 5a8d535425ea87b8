//! Media ROAS: every ad campaign with delivery or touched people in the range, most spend first. The figures are
//! the Media page's own (`crate::media::performance` at campaign level), so the file and the page agree.

use super::{col, Column, ColumnKind::*, ReportError, ReportRange};
use crate::media::{performance, Level};
use sqlx::PgConnection;

pub const COLUMNS: &[Column] = &[
    col("campaign", "Campaign", Text),
    col("platform", "Platform", Text),
    col("spend", "Spend", Money),
    col("impressions", "Impressions", Integer),
    col("clicks", "Clicks", Integer),
    col("cpm", "CPM", Money),
    col("cpc", "CPC", Money),
    col("ctr", "CTR", Rate),
    col("newContacts", "New contacts", Integer),
    col("cpl", "CPL", Money),
    col("newDonors", "New donors", Integer),
    col("costPerDonor", "Cost per donor", Money),
    col("revenue0", "Revenue same day", Money),
    col("revenue30", "Revenue 30 days", Money),
    col("revenue90", "Revenue 90 days", Money),
    col("revenue365", "Revenue 365 days", Money),
    col("roas0", "ROAS same day", Ratio),
    col("roas30", "ROAS 30 days", Ratio),
    col("roas90", "ROAS 90 days", Ratio),
    col("roas365", "ROAS 365 days", Ratio),
];

pub async fn rows(
    conn: &mut PgConnection,
    range: &ReportRange,
) -> Result<Vec<Vec<String>>, ReportError> {
    let rows = performance(conn, Level::Campaign, range.from, range.to, None).await?;
    // A ratio whose divisor is zero has no value: an empty cell, as on the page.
    Ok(rows
        .into_iter()
        .map(|r| {
            vec![
                r.name,
                r.platform.unwrap_or_default(),
                r.spend,
                r.impressions.to_string(),
                r.clicks.to_string(),
                r.cpm.unwrap_or_default(),
                r.cpc.unwrap_or_default(),
                r.ctr.unwrap_or_default(),
                r.new_contacts.to_string(),
                r.cpl.unwrap_or_default(),
                r.new_donors.to_string(),
                r.cost_per_donor.unwrap_or_default(),
                r.revenue_0,
                r.revenue_30,
                r.revenue_90,
                r.revenue_365,
                r.roas_0.unwrap_or_default(),
                r.roas_30.unwrap_or_default(),
                r.roas_90.unwrap_or_default(),
                r.roas_365.unwrap_or_default(),
            ]
        })
        .collect())
}
