//! Cohorts: donors grouped by the month (or calendar quarter) of their first gift and by acquisition source,
//! followed for 24 months; and each source's lifetime value (observed + projected, with its backtest). Read from
//! `donor_acquisition` (refreshed with the figures) and `donor_months`.

use super::figures::cached;
use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use std::collections::BTreeMap;

/// Ages (months after the first gift's month) shown in the cohort table; the curves have every age to 24.
pub const MILESTONES: [u32; 5] = [1, 3, 6, 12, 24];
pub const MAX_AGE: u32 = 24;
/// Cohorts of the last three years.
const COHORT_MONTHS: u32 = 36;
/// Mature cohorts the backtest looks at (the latest ones).
const BACKTEST_COHORTS: usize = 12;
/// The age whose observed value the backtest projects from.
const BACKTEST_FROM_AGE: u32 = 6;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grain {
    Month,
    Quarter,
}

/// What a donor's acquisition source is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceBy {
    /// Every donor in one group, "all".
    All,
    /// The contact's origin code.
    Origin,
    /// The first gift's source code channel.
    Channel,
    /// The first gift's source code campaign.
    Campaign,
    /// The form the first gift's source code is tied to.
    Form,
}

impl Grain {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "month" => Some(Self::Month),
            "quarter" => Some(Self::Quarter),
            _ => None,
        }
    }
    pub fn id(self) -> &'static str {
        match self {
            Self::Month => "month",
            Self::Quarter => "quarter",
        }
    }
}

impl SourceBy {
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "all" => Self::All,
            "origin" => Self::Origin,
            "channel" => Self::Channel,
            "campaign" => Self::Campaign,
            "form" => Self::Form,
            _ => return None,
        })
    }
    pub fn id(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Origin => "origin",
            Self::Channel => "channel",
            Self::Campaign => "campaign",
            Self::Form => "form",
        }
    }
    /// The `donor_acquisition` column (or constant) naming the source.
    pub(crate) fn column(self) -> &'static str {
        match self {
            Self::All => "'all'",
            Self::Origin => "a.origin",
            Self::Channel => "a.channel",
            Self::Campaign => "a.campaign",
            Self::Form => "a.form",
        }
    }
}

/// The SQL expression of a donor's cohort (first day of the month or calendar quarter) over `a.first_month`.
pub(crate) fn cohort_sql(grain: Grain) -> &'static str {
    match grain {
        Grain::Month => "a.first_month",
        Grain::Quarter => "date_trunc('quarter', a.first_month)::date",
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CohortCell {
    pub age: u32,
    /// Share of the cohort's donors who gave in that month of their giving life; None until the cohort is old
    /// enough.
    pub share: Option<f64>,
    /// Their net from the first gift's month through that month, per donor of the cohort.
    pub revenue_per_donor: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cohort {
    pub source: String,
    pub cohort: NaiveDate,
    pub donors: i64,
    /// The oldest age every donor of the cohort has reached.
    pub age: u32,
    pub cells: Vec<CohortCell>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub age: u32,
    /// Donors giving at that age ÷ donors of the cohorts old enough, over the source's cohorts.
    pub share: f64,
    pub revenue_per_donor: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceValue {
    pub source: String,
    pub donors: i64,
    /// Net to date of the source's donors (every gift, any age) ÷ its donors.
    pub observed_per_donor: f64,
    /// Projected net per donor in the first 25 months of giving (the first gift's month and 24 more):
    /// each cohort's observed value × the source's mature curve from its age on; None without a mature cohort.
    pub projected_per_donor: Option<f64>,
    /// Mean absolute percentage error of the projection from month 6 on the latest mature cohorts.
    pub backtest_mape: Option<f64>,
    pub backtest_cohorts: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cohorts {
    pub grain: Grain,
    pub by: SourceBy,
    pub cohorts: Vec<Cohort>,
    pub curves: BTreeMap<String, Vec<CurvePoint>>,
    pub values: Vec<SourceValue>,
}

#[derive(sqlx::FromRow)]
struct Row {
    source: String,
    cohort: NaiveDate,
    donors: i64,
    /// 0–24, or 25 for every later month together.
    age: Option<i32>,
    active: i64,
    net: f64,
}

fn months_between(from: NaiveDate, to: NaiveDate) -> i64 {
    (to.year() as i64 - from.year() as i64) * 12 + to.month() as i64 - from.month() as i64
}

/// The cohort figures, from the cache when the rollup has not been refreshed since they were computed.
pub async fn cohorts(
    conn: &mut PgConnection,
    grain: Grain,
    by: SourceBy,
) -> Result<(Cohorts, chrono::DateTime<chrono::Utc>), sqlx::Error> {
    let key = super::warm::Answer::Cohorts(grain, by).key();
    cached(conn, &key, None, async |conn| {
        compute(conn, grain, by).await
    })
    .await
}

pub(crate) async fn compute(
    conn: &mut PgConnection,
    grain: Grain,
    by: SourceBy,
) -> Result<Cohorts, sqlx::Error> {
    let today = super::client_today(&mut *conn).await?;
    let this_month = super::period::first_of(today);
    let since = this_month - chrono::Months::new(COHORT_MONTHS - 1);
    let source = by.column();
    let cohort = cohort_sql(grain);
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with a as (
             select a.donor, a.first_month, {cohort} as cohort, {source} as source
             from donor_acquisition a where a.first_month >= $1),
         sizes as (select source, cohort, count(*) as donors from a group by 1, 2),
         ages as (
             select a.source, a.cohort,
                    least(((extract(year from m.month) - extract(year from a.first_month)) * 12
                           + extract(month from m.month) - extract(month from a.first_month))::int, 25) as age,
                    count(*) filter (where m.net > 0) as active, sum(m.net)::float8 as net
             from a join donor_months m on m.donor = a.donor and m.month >= a.first_month
             group by 1, 2, 3)
         select s.source, s.cohort, s.donors, g.age, coalesce(g.active, 0) as active, coalesce(g.net, 0) as net
         from sizes s left join ages g on g.source = s.source and g.cohort = s.cohort
         order by 1, 2, 4"
    )))
    .bind(since)
    .fetch_all(&mut *conn)
    .await?;
    Ok(build(grain, by, this_month, &rows))
}

/// Per (source, cohort): donors, and per age 0–25 the donors giving and their net.
struct Raw {
    donors: i64,
    age: u32,
    active: [i64; 26],
    net: [f64; 26],
}

fn build(grain: Grain, by: SourceBy, this_month: NaiveDate, rows: &[Row]) -> Cohorts {
    let span = match grain {
        Grain::Month => 0,
        Grain::Quarter => 2,
    };
    let mut raw: BTreeMap<(String, NaiveDate), Raw> = BTreeMap::new();
    for r in rows {
        let e = raw
            .entry((r.source.clone(), r.cohort))
            .or_insert_with(|| Raw {
                donors: r.donors,
                // The cohort's last donors started `span` months after it began.
                age: months_between(r.cohort, this_month)
                    .saturating_sub(span)
                    .max(0) as u32,
                active: [0; 26],
                net: [0.0; 26],
            });
        if let Some(age) = r.age {
            let i = age.clamp(0, 25) as usize;
            e.active[i] += r.active;
            e.net[i] += r.net;
        }
    }
    let mut cohorts = Vec::new();
    let mut by_source: BTreeMap<String, Vec<&Raw>> = BTreeMap::new();
    for ((source, cohort), r) in &raw {
        let cum = cumulative(&r.net);
        cohorts.push(Cohort {
            source: source.clone(),
            cohort: *cohort,
            donors: r.donors,
            age: r.age,
            cells: MILESTONES
                .iter()
                .map(|&age| {
                    let seen = age <= r.age && r.donors > 0;
                    CohortCell {
                        age,
                        share: seen.then(|| r.active[age as usize] as f64 / r.donors as f64),
                        revenue_per_donor: seen.then(|| cum[age as usize] / r.donors as f64),
                    }
                })
                .collect(),
        });
        by_source.entry(source.clone()).or_default().push(r);
    }
    let mut curves = BTreeMap::new();
    let mut values = Vec::new();
    for (source, group) in &by_source {
        curves.insert(source.clone(), curve(group, None));
        values.push(value(source, group));
    }
    values.sort_by(|a, b| b.donors.cmp(&a.donors).then(a.source.cmp(&b.source)));
    Cohorts {
        grain,
        by,
        cohorts,
        curves,
        values,
    }
}

fn cumulative(net: &[f64; 26]) -> [f64; 26] {
    let mut out = [0.0; 26];
    let mut sum = 0.0;
    for (i, v) in net.iter().enumerate() {
        sum += v;
        out[i] = sum;
    }
    out
}

/// The source's curve over its cohorts old enough for each age; `skip` leaves one cohort out (the backtest).
fn curve(group: &[&Raw], skip: Option<usize>) -> Vec<CurvePoint> {
    (0..=MAX_AGE)
        .map(|age| {
            let (mut donors, mut active, mut revenue) = (0i64, 0i64, 0.0);
            for (i, r) in group.iter().enumerate() {
                if Some(i) == skip || r.age < age {
                    continue;
                }
                donors += r.donors;
                active += r.active[age as usize];
                revenue += cumulative(&r.net)[age as usize];
            }
            let per = |x: f64| if donors > 0 { x / donors as f64 } else { 0.0 };
            CurvePoint {
                age,
                share: per(active as f64),
                revenue_per_donor: per(revenue),
            }
        })
        .collect()
}

/// The mature curve's growth from age `from` to 24 (the cumulative value per donor at 24 ÷ at `from`), from the
/// cohorts that reached 24 months; None without one or with nothing at `from`.
fn growth(group: &[&Raw], from: u32, skip: Option<usize>) -> Option<f64> {
    let (mut at_from, mut at_end) = (0.0, 0.0);
    let mut any = false;
    for (i, r) in group.iter().enumerate() {
        if Some(i) == skip || r.age < MAX_AGE {
            continue;
        }
        let cum = cumulative(&r.net);
        at_from += cum[from as usize];
        at_end += cum[MAX_AGE as usize];
        any = true;
    }
    (any && at_from > 0.0).then(|| at_end / at_from)
}

fn value(source: &str, group: &[&Raw]) -> SourceValue {
    let donors: i64 = group.iter().map(|r| r.donors).sum();
    let observed: f64 = group.iter().map(|r| r.net.iter().sum::<f64>()).sum();
    // Projected: each cohort's cumulative value at its age (24 at most) grown along the mature curve.
    let mut projected = Some(0.0);
    for r in group {
        let age = r.age.min(MAX_AGE);
        let cum = cumulative(&r.net)[age as usize];
        let v = if age == MAX_AGE {
            Some(cum)
        } else {
            growth(group, age, None).map(|g| cum * g)
        };
        projected = match (projected, v) {
            (Some(p), Some(v)) => Some(p + v),
            _ => None,
        };
    }
    // Backtest: the latest mature cohorts, each projected from its month-6 value with a curve built without it.
    let mature: Vec<usize> = (0..group.len())
        .filter(|&i| group[i].age >= MAX_AGE)
        .collect();
    let mut errors = Vec::new();
    for &i in mature.iter().rev().take(BACKTEST_COHORTS) {
        let cum = cumulative(&group[i].net);
        let actual = cum[MAX_AGE as usize];
        if actual <= 0.0 {
            continue;
        }
        if let Some(g) = growth(group, BACKTEST_FROM_AGE, Some(i)) {
            errors.push(((cum[BACKTEST_FROM_AGE as usize] * g) - actual).abs() / actual);
        }
    }
    let per = |x: f64| if donors > 0 { x / donors as f64 } else { 0.0 };
    SourceValue {
        source: source.to_owned(),
        donors,
        observed_per_donor: per(observed),
        projected_per_donor: projected.filter(|_| donors > 0).map(per),
        backtest_mape: (!errors.is_empty())
            .then(|| errors.iter().sum::<f64>() / errors.len() as f64),
        backtest_cohorts: errors.len() as i64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(donors: i64, age: u32, net: &[(usize, f64)]) -> Raw {
        let mut r = Raw {
            donors,
            age,
            active: [0; 26],
            net: [0.0; 26],
        };
        for &(i, v) in net {
            r.net[i] = v;
            r.active[i] = 1;
        }
        r
    }

    #[test]
    fn the_projection_grows_young_cohorts_along_the_mature_curve_and_backtests_it() {
        // Two mature cohorts: $10 in month 0, $10 in month 6, $20 in month 24 per cohort (one donor each);
        // cumulative at 6 = 20, at 24 = 40: growth 2. A young cohort aged 6 with $30 to date projects to $60.
        let a = raw(1, 30, &[(0, 10.0), (6, 10.0), (24, 20.0)]);
        let b = raw(1, 27, &[(0, 10.0), (6, 10.0), (24, 20.0)]);
        let c = raw(1, 6, &[(0, 30.0)]);
        let v = value("s", &[&a, &b, &c]);
        assert_eq!(v.donors, 3);
        assert!((v.observed_per_donor - 110.0 / 3.0).abs() < 1e-9);
        assert!((v.projected_per_donor.unwrap() - (40.0 + 40.0 + 60.0) / 3.0).abs() < 1e-9);
        // Each mature cohort projected from the other: 20 × 2 = 40, exact.
        assert_eq!((v.backtest_mape, v.backtest_cohorts), (Some(0.0), 2));
        let points = curve(&[&a, &b, &c], None);
        assert!((points[6].share - 2.0 / 3.0).abs() < 1e-9);
        assert!((points[6].revenue_per_donor - 70.0 / 3.0).abs() < 1e-9);
        assert!((points[24].revenue_per_donor - 40.0).abs() < 1e-9);
    }
}
