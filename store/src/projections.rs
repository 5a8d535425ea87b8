//! Projections, simple and honest (README "Projections"): for the current year, per month and channel, last
//! year's monthly revenue times the recent growth; within a month a pacing curve (the median cumulative share of
//! a month's revenue by days left in the month, from prior months — quarter-end months from prior quarter-end
//! months), so month-end and quarter-end spikes weigh as the client's own history shows. The forecast of a month
//! is its revenue to date ÷ the curve's share to date; its band is the method's own backtest error (MAPE) over
//! the last 12 complete months.
//!
//! Projections are estimates: they are computed in floating point and shown rounded to cents. Actuals come from
//! the revenue rollup `contribution_days` (net, README "Revenue metrics").

use chrono::{Datelike, Months, NaiveDate};
use sqlx::PgConnection;
use std::collections::BTreeMap;

/// The channel a gift is counted in (README "Projections": how it is decided).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Channel {
    Email,
    Ads,
    Organic,
    Other,
}

impl Channel {
    pub const ALL: [Channel; 4] = [
        Channel::Email,
        Channel::Ads,
        Channel::Organic,
        Channel::Other,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Ads => "ads",
            Self::Organic => "organic",
            Self::Other => "other",
        }
    }

    fn from_id(id: &str) -> Self {
        match id {
            "email" => Self::Email,
            "ads" => Self::Ads,
            "organic" => Self::Organic,
            _ => Self::Other,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Net revenue of one client day in one channel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DayRevenue {
    pub day: NaiveDate,
    pub channel: Channel,
    pub net: f64,
}

/// One month of the current year.
#[derive(Debug, Clone, PartialEq)]
pub struct MonthPlan {
    pub month: u32,
    /// Projection per channel, in `Channel::ALL` order.
    pub projection: [f64; 4],
    /// Actual net per channel so far.
    pub actual: [f64; 4],
    pub goal: Option<String>,
}

/// A forecast with its band.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Forecast {
    pub value: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Projection {
    pub year: i32,
    pub today: NaiveDate,
    pub months: Vec<MonthPlan>,
    /// last 3 complete months ÷ the same months a year earlier (1 without history; clamped to 0.25–4).
    pub growth: f64,
    /// Year to date through yesterday.
    pub actual_to_date: f64,
    pub projection_to_date: f64,
    pub month_to_date: f64,
    pub month_projection_to_date: f64,
    pub end_of_month: Forecast,
    pub end_of_quarter: Forecast,
    /// Backtest of the month-end forecast at today's day of the month, over the last 12 complete months.
    pub forecast_mape: Option<f64>,
    /// Backtest of the monthly projection over the last 12 complete months.
    pub projection_mape: Option<f64>,
    /// Share of the month expected by each day of the current month (index 0 = day 1).
    pub curve: Vec<f64>,
}

fn first_of(d: NaiveDate) -> NaiveDate {
    d.with_day(1).unwrap_or(d)
}

fn month_len(first: NaiveDate) -> u32 {
    let next = first + Months::new(1);
    (next - first).num_days() as u32
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    Some(if !n.is_multiple_of(2) {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// The revenue history arranged by month.
struct History {
    /// (first of month) → daily totals (all channels), index = day − 1.
    days: BTreeMap<NaiveDate, Vec<f64>>,
    /// (first of month) → totals per channel.
    months: BTreeMap<NaiveDate, [f64; 4]>,
}

impl History {
    fn new(rows: &[DayRevenue]) -> Self {
        let mut days: BTreeMap<NaiveDate, Vec<f64>> = BTreeMap::new();
        let mut months: BTreeMap<NaiveDate, [f64; 4]> = BTreeMap::new();
        for r in rows {
            let m = first_of(r.day);
            let v = days
                .entry(m)
                .or_insert_with(|| vec![0.0; month_len(m) as usize]);
            v[r.day.day0() as usize] += r.net;
            months.entry(m).or_insert([0.0; 4])[r.channel.index()] += r.net;
        }
        Self { days, months }
    }

    fn total(&self, m: NaiveDate) -> f64 {
        self.months.get(&m).map(|c| c.iter().sum()).unwrap_or(0.0)
    }

    /// Revenue of month `m` through day `d` (1-based, inclusive).
    fn through(&self, m: NaiveDate, d: u32) -> f64 {
        self.days
            .get(&m)
            .map(|v| v.iter().take(d as usize).sum())
            .unwrap_or(0.0)
    }

    /// Share of month `k`'s revenue by the day that leaves `left` days in it (aligned on the month's end).
    fn share_left(&self, k: NaiveDate, left: u32) -> Option<f64> {
        let total = self.total(k);
        if total <= 0.0 {
            return None;
        }
        let len = month_len(k);
        let d = len.saturating_sub(left);
        Some((self.through(k, d) / total).clamp(0.0, 1.0))
    }

    /// The pacing curve's share by day `d` of month `m`: the median over the reference months before `m`.
    fn curve(&self, m: NaiveDate, d: u32) -> Option<f64> {
        let len = month_len(m);
        if d >= len {
            return Some(1.0);
        }
        let left = len - d;
        let quarter_end = m.month().is_multiple_of(3);
        let prior = |n: u32| (1..=n).map(move |i| m - Months::new(i));
        let shares = |months: Vec<NaiveDate>| {
            months
                .into_iter()
                .filter_map(|k| self.share_left(k, left))
                .collect::<Vec<f64>>()
        };
        if quarter_end {
            // Quarter-end months: the prior eight quarter ends (two years), when at least two have revenue.
            let q = shares(prior(24).filter(|k| k.month().is_multiple_of(3)).collect());
            if q.len() >= 2 {
                return median(q);
            }
        }
        median(shares(prior(12).collect()))
    }

    /// last 3 complete months before `m` ÷ the same three a year earlier.
    fn growth(&self, m: NaiveDate) -> f64 {
        let recent: f64 = (1..=3).map(|i| self.total(m - Months::new(i))).sum();
        let before: f64 = (13..=15).map(|i| self.total(m - Months::new(i))).sum();
        if before <= 0.0 || recent <= 0.0 {
            1.0
        } else {
            (recent / before).clamp(0.25, 4.0)
        }
    }

    /// Month-end forecast for month `m` from its first `d` days.
    fn forecast(&self, m: NaiveDate, d: u32) -> Option<f64> {
        let share = self.curve(m, d)?;
        (share >= 0.01).then(|| self.through(m, d) / share)
    }
}

/// Mean absolute percentage error of (predicted, actual) pairs whose actual is positive.
fn mape(pairs: impl Iterator<Item = (f64, f64)>) -> Option<f64> {
    let errors: Vec<f64> = pairs
        .filter(|(_, a)| *a > 0.0)
        .map(|(p, a)| ((p - a) / a).abs())
        .collect();
    (!errors.is_empty()).then(|| errors.iter().sum::<f64>() / errors.len() as f64)
}

/// The whole projection of `today`'s year from the revenue history (which should reach three years back).
pub fn build(rows: &[DayRevenue], today: NaiveDate, goals: &BTreeMap<u32, String>) -> Projection {
    let h = History::new(rows);
    let year = today.year();
    let this_month = first_of(today);
    // Completed days of the current month: today is still arriving.
    let done = today.day() - 1;
    let growth = h.growth(this_month);
    let mut months = Vec::new();
    for month in 1..=12 {
        let m = NaiveDate::from_ymd_opt(year, month, 1).unwrap_or(this_month);
        let last_year = h
            .months
            .get(&(m - Months::new(12)))
            .copied()
            .unwrap_or([0.0; 4]);
        let mut actual = h.months.get(&m).copied().unwrap_or([0.0; 4]);
        if m == this_month {
            // Only completed days count as actual for pacing; today's gifts are in tomorrow's figures.
            let partial: Vec<DayRevenue> = rows
                .iter()
                .filter(|r| first_of(r.day) == m && r.day.day() <= done)
                .copied()
                .collect();
            actual = [0.0; 4];
            for r in partial {
                actual[r.channel.index()] += r.net;
            }
        } else if m > this_month {
            actual = [0.0; 4];
        }
        months.push(MonthPlan {
            month,
            projection: last_year.map(|v| v * growth),
            actual,
            goal: goals.get(&month).cloned(),
        });
    }
    let curve: Vec<f64> = (1..=month_len(this_month))
        .map(|d| {
            h.curve(this_month, d)
                .unwrap_or(d as f64 / month_len(this_month) as f64)
        })
        .collect();
    let share_done = if done == 0 {
        0.0
    } else {
        curve[done as usize - 1]
    };
    let current = &months[this_month.month0() as usize];
    let month_projection: f64 = current.projection.iter().sum();
    let month_to_date: f64 = current.actual.iter().sum();
    let before: Vec<&MonthPlan> = months.iter().filter(|p| p.month < today.month()).collect();
    let actual_to_date = before
        .iter()
        .map(|p| p.actual.iter().sum::<f64>())
        .sum::<f64>()
        + month_to_date;
    let month_projection_to_date = month_projection * share_done;
    let projection_to_date = before
        .iter()
        .map(|p| p.projection.iter().sum::<f64>())
        .sum::<f64>()
        + month_projection_to_date;

    // Backtests over the last 12 complete months.
    let past: Vec<NaiveDate> = (1..=12).map(|i| this_month - Months::new(i)).collect();
    let forecast_mape = mape(past.iter().filter_map(|&k| {
        let d = done.clamp(1, month_len(k) - 1);
        Some((h.forecast(k, d)?, h.total(k)))
    }));
    let projection_mape = mape(past.iter().filter_map(|&k| {
        let base = h.total(k - Months::new(12));
        (base > 0.0).then(|| (base * h.growth(k), h.total(k)))
    }));
    let band = |value: f64, err: Option<f64>, fixed: f64| Forecast {
        value,
        low: err.map(|e| fixed + ((value - fixed) * (1.0 - e)).max(0.0)),
        high: err.map(|e| fixed + (value - fixed) * (1.0 + e)),
    };
    let eom_value = if done == 0 {
        month_projection
    } else {
        h.forecast(this_month, done).unwrap_or(month_projection)
    };
    let end_of_month = if done == 0 {
        band(eom_value, projection_mape, 0.0)
    } else {
        band(eom_value, forecast_mape, 0.0)
    };
    let quarter_first = (today.month0() / 3) * 3 + 1;
    let quarter_months = quarter_first..quarter_first + 3;
    let done_in_quarter: f64 = months
        .iter()
        .filter(|p| quarter_months.contains(&p.month) && p.month < today.month())
        .map(|p| p.actual.iter().sum::<f64>())
        .sum();
    let remaining: f64 = months
        .iter()
        .filter(|p| quarter_months.contains(&p.month) && p.month > today.month())
        .map(|p| p.projection.iter().sum::<f64>())
        .sum();
    let end_of_quarter = Forecast {
        value: done_in_quarter + end_of_month.value + remaining,
        low: match (end_of_month.low, projection_mape) {
            (Some(l), Some(e)) => Some(done_in_quarter + l + remaining * (1.0 - e).max(0.0)),
            _ => None,
        },
        high: match (end_of_month.high, projection_mape) {
            (Some(hi), Some(e)) => Some(done_in_quarter + hi + remaining * (1.0 + e)),
            _ => None,
        },
    };
    Projection {
        year,
        today,
        months,
        growth,
        actual_to_date,
        projection_to_date,
        month_to_date,
        month_projection_to_date,
        end_of_month,
        end_of_quarter,
        forecast_mape,
        projection_mape,
        curve,
    }
}

/// The net revenue per client day and channel of `from`–`to`, from the revenue rollup. A gift's channel: its
/// source code is tied to a mailing (or parses as channel `em`/`email`) → e-mail; its refcode is one of an ad's
/// → ads; it has no source code → organic; any other code → other.
pub async fn channel_days(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<DayRevenue>, sqlx::Error> {
    let rows: Vec<(NaiveDate, String, f64)> = sqlx::query_as(
        "select d.day,
                case when d.source_code_id = 0 or sc.id is null then 'organic'
                     when sc.mailing_id is not null or lower(sc.channel) in ('em', 'email') then 'email'
                     when exists (select 1 from ad_refcodes r where r.refcode = sc.code) then 'ads'
                     else 'other' end as channel,
                sum(d.net)::float8
         from contribution_days d left join source_codes sc on sc.id = d.source_code_id
         where d.day between $1 and $2
         group by 1, 2",
    )
    .bind(from)
    .bind(to)
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(day, channel, net)| DayRevenue {
            day,
            channel: Channel::from_id(&channel),
            net,
        })
        .collect())
}

/// The client's today (app_settings.time_zone).
pub async fn client_today(conn: &mut PgConnection) -> Result<NaiveDate, sqlx::Error> {
    sqlx::query_scalar("select (now() at time zone time_zone)::date from app_settings limit 1")
        .fetch_one(conn)
        .await
}

/// The projection of the year of `today` (the client's today when `None`).
pub async fn projection(
    conn: &mut PgConnection,
    today: Option<NaiveDate>,
) -> Result<Projection, sqlx::Error> {
    let today = match today {
        Some(t) => t,
        None => client_today(&mut *conn).await?,
    };
    let from = first_of(today) - Months::new(36);
    let rows = channel_days(&mut *conn, from, today).await?;
    let goals: Vec<(i16, String)> =
        sqlx::query_as("select month, amount::text from projection_goals where year = $1")
            .bind(today.year())
            .fetch_all(&mut *conn)
            .await?;
    let goals = goals.into_iter().map(|(m, a)| (m as u32, a)).collect();
    Ok(build(&rows, today, &goals))
}

/// What the dashboard needs: the year and month to date against projection, and the month-end forecast.
#[derive(Debug, Clone, PartialEq)]
pub struct PacingSummary {
    pub actual_to_date: f64,
    pub projection_to_date: f64,
    pub month_to_date: f64,
    pub month_projection_to_date: f64,
    pub end_of_month: Forecast,
    pub end_of_quarter: Forecast,
    pub forecast_mape: Option<f64>,
}

pub async fn pacing_summary(conn: &mut PgConnection) -> Result<PacingSummary, sqlx::Error> {
    let p = projection(conn, None).await?;
    Ok(PacingSummary {
        actual_to_date: p.actual_to_date,
        projection_to_date: p.projection_to_date,
        month_to_date: p.month_to_date,
        month_projection_to_date: p.month_projection_to_date,
        end_of_month: p.end_of_month,
        end_of_quarter: p.end_of_quarter,
        forecast_mape: p.forecast_mape,
    })
}

/// Sets (or with `None` clears) the goal of a month.
pub async fn set_goal(
    conn: &mut PgConnection,
    year: i32,
    month: u32,
    amount: Option<&str>,
) -> Result<(), sqlx::Error> {
    match amount {
        Some(a) => {
            sqlx::query(
                "insert into projection_goals (year, month, amount) values ($1, $2, $3::numeric)
                 on conflict (year, month) do update set amount = excluded.amount",
            )
            .bind(year)
            .bind(month as i16)
            .bind(a)
            .execute(conn)
            .await?;
        }
        None => {
            sqlx::query("delete from projection_goals where year = $1 and month = $2")
                .bind(year)
                .bind(month as i16)
                .execute(conn)
                .await?;
        }
    }
    Ok(())
}

/// A marker on the projections chart.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Marker {
    /// The event's id; `None` for a quarter end.
    pub id: Option<i64>,
    pub day: NaiveDate,
    pub label: String,
    /// quarter_end, election or event
    pub kind: String,
}

/// The year's inflection markers: the FEC quarter ends, then the stored events (election day, user events).
pub async fn markers(conn: &mut PgConnection, year: i32) -> Result<Vec<Marker>, sqlx::Error> {
    sqlx::query_as::<_, Marker>(
        "select null::bigint as id, (make_date($1, q * 3, 1) + interval '1 month' - interval '1 day')::date as day,
                'Q' || q || ' end' as label, 'quarter_end' as kind
         from generate_series(1, 4) q
         union all
         select id, day, label, kind from inflection_events where extract(year from day) = $1
         order by 2, 3",
    )
    .bind(year)
    .fetch_all(conn)
    .await
}

pub async fn add_event(
    conn: &mut PgConnection,
    day: NaiveDate,
    label: &str,
    kind: &str,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "insert into inflection_events (day, label, kind) values ($1, $2, $3) returning id",
    )
    .bind(day)
    .bind(label)
    .bind(kind)
    .fetch_one(conn)
    .await
}

pub async fn delete_event(conn: &mut PgConnection, id: i64) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query("delete from inflection_events where id = $1")
        .bind(id)
        .execute(conn)
        .await?
        .rows_affected()
        > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every month has the same known shape, aligned on its end: nothing until its last ten days, then 1, 2, …,
    /// 10 units (the last day 10), scaled by 100 + 10 × months since January 2023.
    fn known_curve(until: NaiveDate) -> Vec<DayRevenue> {
        let mut rows = Vec::new();
        let mut m = NaiveDate::from_ymd_opt(2023, 1, 1).unwrap();
        let mut i = 0.0;
        while m <= until {
            let len = month_len(m);
            for d in 1..=len {
                let day = NaiveDate::from_ymd_opt(m.year(), m.month(), d).unwrap();
                let left = len - d;
                if day > until || left >= 10 {
                    continue;
                }
                let w = (10 - left) as f64;
                rows.push(DayRevenue {
                    day,
                    channel: Channel::Email,
                    net: w * (100.0 + i),
                });
            }
            m = m + Months::new(1);
            i += 10.0;
        }
        rows
    }

    #[test]
    fn a_known_curve_backtests_to_zero_error_and_forecasts_exactly() {
        let today = NaiveDate::from_ymd_opt(2026, 5, 27).unwrap();
        let p = build(&known_curve(today), today, &BTreeMap::new());
        // The shape is the same every month, so the curve and the month-end forecast are exact.
        assert!(p.forecast_mape.unwrap() < 1e-9, "{:?}", p.forecast_mape);
        // May 2026 is month 40 from Jan 2023: 55 units of 500.
        let scale = 100.0 + 10.0 * 40.0;
        assert!(
            (p.end_of_month.value - 55.0 * scale).abs() < 1e-6,
            "{}",
            p.end_of_month.value
        );
        // Through the 26th (5 days left): 1 + 2 + 3 + 4 + 5 = 15 units.
        assert!((p.month_to_date - 15.0 * scale).abs() < 1e-6);
        assert!((p.curve[25] - 15.0 / 55.0).abs() < 1e-9);
        assert!(p.curve[10] < 1e-12);
        // Growth: Feb–Apr 2026 (months 37–39) over Feb–Apr 2025 (25–27).
        let g = (3.0 * 100.0 + 10.0 * (37.0 + 38.0 + 39.0))
            / (3.0 * 100.0 + 10.0 * (25.0 + 26.0 + 27.0));
        assert!((p.growth - g).abs() < 1e-9);
        // June's projection: June 2025 (month 29) × growth.
        assert!((p.months[5].projection[0] - 55.0 * (100.0 + 290.0) * g).abs() < 1e-6);
        // The projection backtest is not exact (growth is linear, not a constant ratio) but small.
        assert!(p.projection_mape.unwrap() < 0.05, "{:?}", p.projection_mape);
        // The band is the forecast ± its MAPE (zero here).
        assert!((p.end_of_month.high.unwrap() - p.end_of_month.value).abs() < 1e-6);
    }

    #[test]
    fn no_history_projects_nothing_and_has_no_band() {
        let today = NaiveDate::from_ymd_opt(2026, 2, 10).unwrap();
        let p = build(&[], today, &BTreeMap::new());
        assert_eq!(p.growth, 1.0);
        assert_eq!(p.forecast_mape, None);
        assert_eq!(p.end_of_month.low, None);
        assert_eq!(p.months.len(), 12);
    }
}
