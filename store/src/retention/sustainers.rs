//! Sustainers: donors giving by recurring gifts (positive, not refunded, with recurring months set), month by
//! month from `donor_months`. A donor is one series: a series **starts** in a month with a recurring payment
//! after a month without one, and **ends** in the first month without a payment (a missed period).

use super::figures::cached;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

/// Complete months in the series.
pub const MONTHS: u32 = 24;
/// The EARN horizons, in months.
pub const EARN: [i32; 3] = [3, 6, 12];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct SustainerMonth {
    pub month: NaiveDate,
    /// Donors with a recurring payment in the month.
    pub active: i64,
    /// Of them, those without one the month before.
    pub started: i64,
    /// Donors with a payment the month before and none in this month.
    pub ended: i64,
    /// ended ÷ active the month before (0 when there were none).
    pub churn: f64,
    /// Recurring net of the month ÷ active (0 when none).
    pub average_amount: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Earn {
    pub months: i32,
    /// Sustainers whose first n months are complete.
    pub sustainers: i64,
    /// Months with a payment among their first n ÷ n × sustainers.
    pub received: i64,
    pub expected: i64,
    pub rate: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sustainers {
    pub months: Vec<SustainerMonth>,
    pub earn: Vec<Earn>,
}

pub async fn sustainers(
    conn: &mut PgConnection,
) -> Result<(Sustainers, chrono::DateTime<chrono::Utc>), sqlx::Error> {
    cached(
        conn,
        &super::warm::Answer::Sustainers.key(),
        Some(chrono::Duration::minutes(15)),
        async |conn| compute(conn).await,
    )
    .await
}

/// The donors with a recurring payment in a month (`$1`), with the months before and after they paid in.
pub(crate) const SERIES: &str = "
    series as (
        select donor, contact_id, month, recurring_net,
               lag(month) over w as before, lead(month) over w as after
        from donor_months where recurring_gifts > 0
        window w as (partition by donor order by month))";

pub(crate) async fn compute(conn: &mut PgConnection) -> Result<Sustainers, sqlx::Error> {
    let this_month = super::period::first_of(super::client_today(&mut *conn).await?);
    let last = this_month - chrono::Months::new(1);
    let first = this_month - chrono::Months::new(MONTHS);
    let months: Vec<SustainerMonth> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with {SERIES},
         m as (select g::date as month from generate_series($1::date - interval '1 month', $2::date,
                                                            interval '1 month') g),
         f as (
             select m.month,
                    count(*) filter (where s.month = m.month) as active,
                    count(*) filter (where s.month = m.month
                                       and (s.before is null or s.before < m.month - interval '1 month')) as started,
                    count(*) filter (where s.month = m.month - interval '1 month'
                                       and (s.after is null or s.after > m.month)) as ended,
                    coalesce(sum(s.recurring_net) filter (where s.month = m.month), 0)::float8 as amount
             from m left join series s on s.month in (m.month, (m.month - interval '1 month')::date)
             group by m.month),
         w as (select f.*, lag(active) over (order by month) as active_before from f)
         select month, active, started, ended,
                case when active_before > 0 then ended::float8 / active_before else 0 end as churn,
                case when active > 0 then amount / active else 0 end as average_amount
         from w where month >= $1 order by month"
    )))
    .bind(first)
    .bind(last)
    .fetch_all(&mut *conn)
    .await?;
    let earn: Vec<Earn> = sqlx::query_as(
        "with r as (select donor, month from donor_months where recurring_gifts > 0),
         s as (select donor, min(month) as start from r group by donor),
         e as (
             select n.n, s.donor, count(r.month) as received
             from unnest($2::int[]) n (n)
             join s on s.start + (n.n - 1) * interval '1 month' <= $1
             left join r on r.donor = s.donor and r.month < s.start + n.n * interval '1 month'
             group by n.n, s.donor)
         select n as months, count(*) as sustainers, coalesce(sum(received), 0)::bigint as received,
                (count(*) * n)::bigint as expected,
                case when count(*) > 0 then coalesce(sum(received), 0)::float8 / (count(*) * n) else 0 end as rate
         from e group by n order by n",
    )
    .bind(last)
    .bind(EARN.to_vec())
    .fetch_all(&mut *conn)
    .await?;
    let earn = EARN
        .iter()
        .map(|&n| {
            earn.iter()
                .find(|e| e.months == n)
                .cloned()
                .unwrap_or(Earn {
                    months: n,
                    sustainers: 0,
                    received: 0,
                    expected: 0,
                    rate: 0.0,
                })
        })
        .collect();
    Ok(Sustainers { months, earn })
}
