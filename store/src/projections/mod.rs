//! Projections, simple and honest (docs/projections.md): for the current year, per month and channel, last
//! year's monthly revenue times the recent growth; within a month a pacing curve (the median cumulative share of
//! a month's revenue by days left in the month, from prior months — quarter-end months from prior quarter-end
//! months), so month-end and quarter-end spikes weigh as the client's own history shows. The forecast of a month
//! is its revenue to date ÷ the curve's share to date; its band is the method's own backtest error (MAPE) over
//! the last 12 complete months.
//!
//! Projections are estimates: they are computed in floating point and shown rounded to cents. Actuals come from
//! the revenue rollup `contribution_days` (net, docs/metrics.md).

mod forecast;

use chrono::{Datelike, Months, NaiveDate};
pub use forecast::build;

use forecast::first_of;
use sqlx::PgConnection;
use std::collections::BTreeMap;

/// The channel a gift is counted in (docs/projections.md: how it is decided).
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
