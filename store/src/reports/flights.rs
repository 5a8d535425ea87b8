//! Flight performance: every flight (dated send) in the range with its variant × segment rows under it, newest
//! first. The figures are the Flights page's own (`crate::flights::flights`), so the file and the page agree.

use super::{col, Column, ColumnKind::*, ReportError, ReportRange};
use sqlx::PgConnection;

pub const COLUMNS: &[Column] = &[
    col("flight", "Flight", Text),
    col("sent", "Sent", Date),
    col("variant", "Variant", Text),
    col("segment", "Segment", Text),
    col("recipients", "Recipients", Integer),
    col("delivered", "Delivered", Integer),
    col("bounces", "Bounces", Integer),
    col("opens", "Human opens", Integer),
    col("openRate", "Open rate", Rate),
    col("clickers", "Clickers", Integer),
    col("clickRate", "Click rate", Rate),
    col("unsubscribes", "Unsubscribes", Integer),
    col("gifts", "Gifts", Integer),
    col("revenue", "Revenue", Money),
    col("averageGift", "Average gift", Money),
    col("responseRate", "Response rate", Rate),
    col("rpm", "RPM", Money),
];

pub async fn rows(
    conn: &mut PgConnection,
    range: &ReportRange,
) -> Result<Vec<Vec<String>>, ReportError> {
    let rows = crate::flights::flights(conn, range.from, range.to, None).await?;
    let rate = |r: f64| format!("{r:.4}");
    Ok(rows
        .into_iter()
        // The range's grand total (no mailing) is the page's footer, not a flight.
        .filter(|r| r.mailing_id.is_some())
        .map(|r| {
            vec![
                r.name.unwrap_or_default(),
                r.day.map(|d| d.to_string()).unwrap_or_default(),
                r.variant.unwrap_or_else(|| "All".to_owned()),
                r.segment_name.unwrap_or_default(),
                r.recipients.to_string(),
                r.delivered.to_string(),
                r.bounces.to_string(),
                r.human_opens.to_string(),
                rate(r.open_rate),
                r.clickers.to_string(),
                rate(r.click_rate),
                r.unsubscribes.to_string(),
                r.gifts.to_string(),
                r.revenue,
                r.average_gift,
                rate(r.response_rate),
                r.rpm,
            ]
        })
        .collect())
}
