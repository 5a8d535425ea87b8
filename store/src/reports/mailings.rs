//! Mailing performance: every mailing whose send started in the range, in send order.

use super::{cells, col, Column, ColumnKind::*, ReportError, ReportRange, DONORS, MONEY};
use sqlx::PgConnection;

pub const COLUMNS: &[Column] = &[
    col("mailing", "Mailing", Text),
    col("sent", "Sent", Date),
    col("recipients", "Recipients", Integer),
    col("delivered", "Delivered", Integer),
    col("bounced", "Bounced", Integer),
    col("opens", "Unique opens", Integer),
    col("openRate", "Open rate", Rate),
    col("clickers", "Unique clickers", Integer),
    col("clickRate", "Click rate", Rate),
    col("unsubscribes", "Unsubscribes", Integer),
    col("unsubscribeRate", "Unsubscribe rate", Rate),
    col("gifts", "Gifts", Integer),
    col("donors", "Donors", Integer),
    col("revenue", "Revenue", Money),
    col("rpm", "RPM", Money),
    col("responseRate", "Response rate", Rate),
];

/// `n ÷ d` as a fraction with four places, 0 when `d` is 0.
fn rate(n: &str, d: &str) -> String {
    format!(
        "(case when {d} > 0 then round({n}::numeric / {d}, 4) else 0 end)::numeric(10, 4)::text"
    )
}

pub async fn rows(
    conn: &mut PgConnection,
    range: &ReportRange,
) -> Result<Vec<Vec<String>>, ReportError> {
    let (open_rate, click_rate, unsub_rate, response_rate) = (
        rate("r.opens", "r.recipients"),
        rate("r.clickers", "r.delivered"),
        rate("r.unsubscribes", "r.delivered"),
        rate("f.gifts", "f.delivered"),
    );
    let sql = format!(
        "select array[m.name, (m.send_attempt at time zone $3)::date::text, r.recipients::text,
                      r.delivered::text, r.bounced::text, r.opens::text, {open_rate}, r.clickers::text,
                      {click_rate}, r.unsubscribes::text, {unsub_rate}, f.gifts::text, v.donors::text,
                      f.revenue{MONEY}, f.rpm{MONEY}, {response_rate}]
         from mailings m
         -- The send and event figures from the mailing's rollup rows, as the Performance page and the mailing's
         -- page read them (docs/metrics.md: unsubscribes are events).
         cross join lateral (
             select coalesce(sum(x.recipients), 0) as recipients, coalesce(sum(x.delivered), 0) as delivered,
                    coalesce(sum(x.bounces), 0) as bounced, coalesce(sum(x.human_opens), 0) as opens,
                    coalesce(sum(x.clickers), 0) as clickers, coalesce(sum(x.unsubscribes), 0) as unsubscribes
             from mailing_rollups x where x.mailing_id = m.id) r
         -- Gifts, revenue and RPM by the one definition (docs/metrics.md); donors from the gifts.
         cross join lateral mailing_email_figures(m.id) f
         cross join lateral (
             select {DONORS} as donors from contributions c where c.mailing_id = m.id) v
         where m.send_attempt >= $1 and m.send_attempt < $2
         order by m.send_attempt, m.id"
    );
    let rows = sqlx::query_scalar::<_, Vec<Option<String>>>(sqlx::AssertSqlSafe(sql))
        .bind(range.lo)
        .bind(range.hi)
        .bind(&range.tz)
        .fetch_all(conn)
        .await?;
    Ok(cells(rows))
}
