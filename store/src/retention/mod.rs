//! Donor retention (docs/retention.md, the definitions in docs/metrics.md): the Fundraising Effectiveness
//! Project's figures for a period against the previous one, cohorts by first gift and acquisition source,
//! sustainers and lifetime value. Everything reads the per-donor-per-month rollup `donor_months` (kept by
//! triggers on contributions) and `donor_firsts`; net is the revenue net.

pub mod cohorts;
pub mod donors;
mod figures;
mod period;
pub mod sustainers;
pub mod warm;

pub use figures::{claim_daily_refresh, refresh, refreshed};
pub use period::{PeriodKind, Periods};

use sqlx::PgConnection;

/// Where a donor of either period falls in the FEP gain/loss report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// First gift ever in the current period.
    New,
    /// Gave in the current period and before the previous one, not in the previous one.
    Recaptured,
    /// Gave in both; more now.
    Upgraded,
    Same,
    Downgraded,
    /// Gave in the previous period, not (yet) in the current one.
    Lost,
}

impl Category {
    pub const ALL: [Category; 6] = [
        Self::New,
        Self::Recaptured,
        Self::Upgraded,
        Self::Same,
        Self::Downgraded,
        Self::Lost,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Self::New => "new",
            Self::Recaptured => "recaptured",
            Self::Upgraded => "upgraded",
            Self::Same => "same",
            Self::Downgraded => "downgraded",
            Self::Lost => "lost",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.id() == s)
    }
}

/// Every donor of the two periods with their net in each and their category; `$1` = first month of the
/// previous period, `$2` = first month of the current one, `$3` = last month counted in it. A donor **gave** in
/// a period when their net there is above zero (a gift refunded in full is no gift).
pub(crate) const CLASSIFIED: &str = "
    classified as (
        select d.donor, d.contact_id, d.prev, d.cur,
               case when d.cur > 0 and d.prev > 0 then
                         case when d.cur > d.prev then 'upgraded' when d.cur = d.prev then 'same'
                              else 'downgraded' end
                    when d.cur > 0 then
                         case when f.first_paid_at >= client_day_start($2) then 'new' else 'recaptured' end
                    when d.prev > 0 then 'lost'
               end as category
        from (select m.donor, min(m.contact_id) as contact_id,
                     coalesce(sum(m.net) filter (where m.month < $2), 0) as prev,
                     coalesce(sum(m.net) filter (where m.month >= $2), 0) as cur
              from donor_months m
              where m.month >= $1 and m.month <= $3
              group by m.donor) d
        left join donor_firsts f on f.donor = d.donor
    )";

/// One line of the gain/loss report.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Line {
    pub category: Category,
    pub donors: i64,
    /// Their net in the previous period and in the current one.
    pub previous: String,
    pub current: String,
    /// Their part of the change from the previous total to the current one: current − previous (new and
    /// recaptured donors gain their current net, lost donors lose their previous net, less any refund of theirs
    /// in the current period), so previous + the changes = current.
    pub change: String,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Retention {
    pub periods: Periods,
    pub donors_previous: i64,
    pub donors_current: i64,
    /// Donors who gave in both periods.
    pub retained: i64,
    /// retained ÷ donors of the previous period (0 when there were none).
    pub donor_retention: f64,
    /// The net of every donor of either period in the previous period and in the current one.
    pub dollars_previous: String,
    pub dollars_current: String,
    /// The current net of the retained donors.
    pub dollars_retained: String,
    /// dollars_retained ÷ dollars_previous (0 when the previous period had none).
    pub dollar_retention: f64,
    /// Gains (new, recaptured, upgraded) and losses (downgraded, lost) as positive sums of `change`.
    pub gains: String,
    pub losses: String,
    /// Every category, in the report's order, zeros included.
    pub lines: Vec<Line>,
}

/// One category's sums, with the totals of all categories repeated on every row (window aggregates, so the
/// two periods are read once and money stays exact decimal).
#[derive(sqlx::FromRow)]
struct Row {
    category: String,
    donors: i64,
    previous: String,
    current: String,
    change: String,
    donors_previous: i64,
    donors_current: i64,
    retained: i64,
    dollars_previous: String,
    dollars_current: String,
    dollars_retained: String,
    donor_retention: f64,
    dollar_retention: f64,
    gains: String,
    losses: String,
}

/// The client's fiscal year start month (1 = January).
pub async fn fiscal_year_start(conn: &mut PgConnection) -> Result<u32, sqlx::Error> {
    let m: i16 = sqlx::query_scalar("select fiscal_year_start from app_settings limit 1")
        .fetch_one(conn)
        .await?;
    Ok(m.clamp(1, 12) as u32)
}

/// Today in the client's zone.
pub async fn client_today(conn: &mut PgConnection) -> Result<chrono::NaiveDate, sqlx::Error> {
    sqlx::query_scalar("select client_today()")
        .fetch_one(conn)
        .await
}

/// Donor and dollar retention and the gain/loss report of the `kind` of period containing `as_of` (to date)
/// against the whole previous one, in the client's calendar. Reads the rollup: two periods' donor-months.
pub async fn donor_retention(
    conn: &mut PgConnection,
    kind: PeriodKind,
    as_of: chrono::NaiveDate,
) -> Result<Retention, sqlx::Error> {
    let fy = fiscal_year_start(&mut *conn).await?;
    retention_of(conn, Periods::containing(kind, as_of, fy)).await
}

/// The page's figures: [`donor_retention`] as computed at most 15 minutes ago (the two periods of every donor
/// are a large read on a large client), with the time they were computed.
pub async fn summary(
    conn: &mut PgConnection,
    kind: PeriodKind,
    as_of: chrono::NaiveDate,
) -> Result<(Retention, chrono::DateTime<chrono::Utc>), sqlx::Error> {
    let key = warm::Answer::Summary(kind, as_of).key();
    figures::cached(
        conn,
        &key,
        Some(chrono::Duration::minutes(15)),
        async |conn| donor_retention(conn, kind, as_of).await,
    )
    .await
}

/// The same figures for explicit periods.
pub async fn retention_of(
    conn: &mut PgConnection,
    periods: Periods,
) -> Result<Retention, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with {CLASSIFIED},
         g as (
             select category, count(*) as donors, sum(prev) as prev, sum(cur) as cur,
                    sum(cur - prev) as change
             from classified where category is not null group by category),
         t as (
             select g.*,
                    coalesce(sum(donors) filter (where category in ('upgraded', 'same', 'downgraded', 'lost'))
                             over (), 0)::bigint as donors_previous,
                    coalesce(sum(donors) filter (where category <> 'lost') over (), 0)::bigint as donors_current,
                    coalesce(sum(donors) filter (where category in ('upgraded', 'same', 'downgraded')) over (), 0)
                        ::bigint as retained,
                    sum(prev) over () as dp, sum(cur) over () as dc,
                    coalesce(sum(cur) filter (where category in ('upgraded', 'same', 'downgraded')) over (), 0) as dr,
                    coalesce(sum(change) filter (where category in ('new', 'recaptured', 'upgraded')) over (), 0)
                        as gains,
                    coalesce(-sum(change) filter (where category in ('downgraded', 'lost')) over (), 0) as losses
             from g)
         select category, donors, prev::numeric(20, 2)::text as previous, cur::numeric(20, 2)::text as current,
                change::numeric(20, 2)::text as change, donors_previous, donors_current, retained,
                dp::numeric(20, 2)::text as dollars_previous, dc::numeric(20, 2)::text as dollars_current,
                dr::numeric(20, 2)::text as dollars_retained,
                case when donors_previous > 0 then retained::float8 / donors_previous else 0 end
                    as donor_retention,
                case when dp > 0 then (dr / dp)::float8 else 0 end as dollar_retention,
                gains::numeric(20, 2)::text as gains, losses::numeric(20, 2)::text as losses
         from t"
    )))
    .bind(periods.previous_from)
    .bind(periods.from)
    .bind(periods.to)
    .fetch_all(&mut *conn)
    .await?;
    let zero = || "0.00".to_string();
    let lines = Category::ALL
        .into_iter()
        .map(
            |category| match rows.iter().find(|r| r.category == category.id()) {
                Some(r) => Line {
                    category,
                    donors: r.donors,
                    previous: r.previous.clone(),
                    current: r.current.clone(),
                    change: r.change.clone(),
                },
                None => Line {
                    category,
                    donors: 0,
                    previous: zero(),
                    current: zero(),
                    change: zero(),
                },
            },
        )
        .collect();
    Ok(match rows.first() {
        Some(t) => Retention {
            periods,
            donors_previous: t.donors_previous,
            donors_current: t.donors_current,
            retained: t.retained,
            donor_retention: t.donor_retention,
            dollars_previous: t.dollars_previous.clone(),
            dollars_current: t.dollars_current.clone(),
            dollars_retained: t.dollars_retained.clone(),
            dollar_retention: t.dollar_retention,
            gains: t.gains.clone(),
            losses: t.losses.clone(),
            lines,
        },
        None => Retention {
            periods,
            donors_previous: 0,
            donors_current: 0,
            retained: 0,
            donor_retention: 0.0,
            dollars_previous: zero(),
            dollars_current: zero(),
            dollars_retained: zero(),
            dollar_retention: 0.0,
            gains: zero(),
            losses: zero(),
            lines,
        },
    })
}
