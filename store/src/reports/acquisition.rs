//! Acquisition by origin code: the contacts created in the range, per origin code, and what they gave. The
//! figures are the Origin Code Value page's (`revenue::codes::origin_values`), so the report and the page agree
//! by construction (docs/metrics.md, docs/reports.md).

use super::{col, Column, ColumnKind::*, ReportError, ReportRange};
use crate::revenue::{codes::origin_values, Range};
use sqlx::PgConnection;

pub const COLUMNS: &[Column] = &[
    col("originCode", "Origin code", Text),
    col("acquired", "Acquired", Integer),
    col("stillSubscribed", "Still subscribed", Integer),
    col("donors", "Became donors", Integer),
    col("donorShare", "Donor share", Rate),
    col("revenue30", "Revenue 30 days", Money),
    col("revenue90", "Revenue 90 days", Money),
    col("revenue365", "Revenue 365 days", Money),
    col("revenueAll", "Revenue, all", Money),
    col("revenuePerContact", "Revenue per contact", Money),
];

pub async fn rows(
    conn: &mut PgConnection,
    range: &ReportRange,
) -> Result<Vec<Vec<String>>, ReportError> {
    let range = Range {
        tz: range.tz.clone(),
        from: range.from,
        to: range.to,
        lo: range.lo,
        hi: range.hi,
        prev_from: range.from - (range.to - range.from) - chrono::Days::new(1),
    };
    Ok(origin_values(conn, &range)
        .await?
        .into_iter()
        .map(|v| {
            let donor_share = share(v.donors, v.acquired);
            vec![
                v.name,
                v.acquired.to_string(),
                v.still_subscribed.to_string(),
                v.donors.to_string(),
                donor_share,
                v.revenue_30,
                v.revenue_90,
                v.revenue_365,
                v.revenue_all,
                v.revenue_per_contact,
            ]
        })
        .collect())
}

/// `part ÷ whole` as a rate cell: four decimal places, the half rounded up (as SQL's `round(numeric, 4)`).
fn share(part: i64, whole: i64) -> String {
    if whole <= 0 {
        return "0.0000".to_owned();
    }
    let (part, whole) = (i128::from(part), i128::from(whole));
    let scaled = (part * 20_000 + whole) / (2 * whole);
    format!("{}.{:04}", scaled / 10_000, scaled % 10_000)
}

#[cfg(test)]
mod tests {
    use super::share;

    #[test]
    fn a_share_has_four_places_rounded_half_up() {
        assert_eq!(share(1, 4), "0.2500");
        assert_eq!(share(1, 3), "0.3333");
        assert_eq!(share(2, 3), "0.6667");
        assert_eq!(share(1, 20_000), "0.0001"); // 0.00005 rounds up
        assert_eq!(share(1, 20_001), "0.0000");
        assert_eq!(share(7, 7), "1.0000");
        assert_eq!(share(0, 0), "0.0000");
    }
}
