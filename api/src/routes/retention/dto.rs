//! The retention page's answers. Money is a decimal string with two decimals; rates are fractions.

use chrono::{DateTime, NaiveDate, Utc};
use poem_openapi::Object;
use store::retention::{self as r, cohorts as c, sustainers as s};

pub(super) fn cents(v: f64) -> String {
    format!("{:.2}", (v * 100.0).round() / 100.0)
}

pub(super) fn rate(v: f64) -> String {
    format!("{v:.4}")
}

/// One line of the FEP gain/loss report.
#[derive(Debug, Object)]
pub struct RetentionLine {
    /// new, recaptured, upgraded, same, downgraded or lost
    pub category: String,
    pub donors: i64,
    pub previous: String,
    pub current: String,
    /// current − previous: this line's part of the change.
    pub change: String,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct RetentionView {
    /// month, quarter, year or fiscal_year
    pub period: String,
    pub as_of: NaiveDate,
    /// The current period's first month and the last month counted (the month of asOf).
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// The previous period: previousFrom up to the month before `from`.
    pub previous_from: NaiveDate,
    pub previous_to: NaiveDate,
    pub donors_previous: i64,
    pub donors_current: i64,
    pub retained: i64,
    pub donor_retention: String,
    pub dollars_previous: String,
    pub dollars_current: String,
    pub dollars_retained: String,
    pub dollar_retention: String,
    pub gains: String,
    pub losses: String,
    pub lines: Vec<RetentionLine>,
    pub computed: DateTime<Utc>,
    pub time_zone: String,
}

impl RetentionView {
    pub(super) fn of(
        v: r::Retention,
        as_of: NaiveDate,
        computed: DateTime<Utc>,
        time_zone: String,
    ) -> Self {
        let p = v.periods;
        Self {
            period: p.kind.id().to_owned(),
            as_of,
            from: p.from,
            to: p.to,
            previous_from: p.previous_from,
            previous_to: p.from - chrono::Months::new(1),
            donors_previous: v.donors_previous,
            donors_current: v.donors_current,
            retained: v.retained,
            donor_retention: rate(v.donor_retention),
            dollars_previous: v.dollars_previous,
            dollars_current: v.dollars_current,
            dollars_retained: v.dollars_retained,
            dollar_retention: rate(v.dollar_retention),
            gains: v.gains,
            losses: v.losses,
            lines: v
                .lines
                .into_iter()
                .map(|l| RetentionLine {
                    category: l.category.id().to_owned(),
                    donors: l.donors,
                    previous: l.previous,
                    current: l.current,
                    change: l.change,
                })
                .collect(),
            computed,
            time_zone,
        }
    }
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CohortCellView {
    pub age: u32,
    /// Share of the cohort giving in that month of their giving life; null until the cohort is that old.
    #[oai(nullable)]
    pub share: Option<String>,
    /// Net per donor from the first gift's month through that month; null until the cohort is that old.
    #[oai(nullable)]
    pub revenue_per_donor: Option<String>,
}

#[derive(Debug, Object)]
pub struct CohortView {
    pub source: String,
    /// First day of the cohort's month or quarter.
    pub cohort: NaiveDate,
    pub donors: i64,
    /// Months every donor of the cohort has been giving for.
    pub age: u32,
    pub cells: Vec<CohortCellView>,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CurvePointView {
    pub age: u32,
    pub share: String,
    pub revenue_per_donor: String,
}

#[derive(Debug, Object)]
pub struct SourceCurve {
    pub source: String,
    pub points: Vec<CurvePointView>,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SourceValueView {
    pub source: String,
    pub donors: i64,
    pub observed_per_donor: String,
    /// Null without a cohort 24 months old to project from.
    #[oai(nullable)]
    pub projected_per_donor: Option<String>,
    #[oai(nullable)]
    pub backtest_mape: Option<String>,
    pub backtest_cohorts: i64,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CohortsView {
    /// month or quarter
    pub grain: String,
    /// all, origin, channel, campaign or form
    pub by: String,
    pub ages: Vec<u32>,
    pub cohorts: Vec<CohortView>,
    pub curves: Vec<SourceCurve>,
    pub values: Vec<SourceValueView>,
    /// When these figures were computed, and when donors' acquisition was last rebuilt.
    pub computed: DateTime<Utc>,
    #[oai(nullable)]
    pub refreshed: Option<DateTime<Utc>>,
}

impl CohortsView {
    pub(super) fn of(
        v: c::Cohorts,
        computed: DateTime<Utc>,
        refreshed: Option<DateTime<Utc>>,
    ) -> Self {
        Self {
            grain: v.grain.id().to_owned(),
            by: v.by.id().to_owned(),
            ages: c::MILESTONES.to_vec(),
            cohorts: v
                .cohorts
                .into_iter()
                .map(|k| CohortView {
                    source: k.source,
                    cohort: k.cohort,
                    donors: k.donors,
                    age: k.age,
                    cells: k
                        .cells
                        .into_iter()
                        .map(|x| CohortCellView {
                            age: x.age,
                            share: x.share.map(rate),
                            revenue_per_donor: x.revenue_per_donor.map(cents),
                        })
                        .collect(),
                })
                .collect(),
            curves: v
                .curves
                .into_iter()
                .map(|(source, points)| SourceCurve {
                    source,
                    points: points
                        .into_iter()
                        .map(|p| CurvePointView {
                            age: p.age,
                            share: rate(p.share),
                            revenue_per_donor: cents(p.revenue_per_donor),
                        })
                        .collect(),
                })
                .collect(),
            values: v
                .values
                .into_iter()
                .map(|s| SourceValueView {
                    source: s.source,
                    donors: s.donors,
                    observed_per_donor: cents(s.observed_per_donor),
                    projected_per_donor: s.projected_per_donor.map(cents),
                    backtest_mape: s.backtest_mape.map(rate),
                    backtest_cohorts: s.backtest_cohorts,
                })
                .collect(),
            computed,
            refreshed,
        }
    }
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SustainerMonthView {
    pub month: NaiveDate,
    pub active: i64,
    pub started: i64,
    pub ended: i64,
    pub churn: String,
    pub average_amount: String,
}

#[derive(Debug, Object)]
pub struct EarnView {
    pub months: i32,
    pub sustainers: i64,
    pub received: i64,
    pub expected: i64,
    pub rate: String,
}

#[derive(Debug, Object)]
pub struct SustainersView {
    pub months: Vec<SustainerMonthView>,
    pub earn: Vec<EarnView>,
    pub computed: DateTime<Utc>,
}

impl SustainersView {
    pub(super) fn of(v: s::Sustainers, computed: DateTime<Utc>) -> Self {
        Self {
            months: v
                .months
                .into_iter()
                .map(|m| SustainerMonthView {
                    month: m.month,
                    active: m.active,
                    started: m.started,
                    ended: m.ended,
                    churn: rate(m.churn),
                    average_amount: cents(m.average_amount),
                })
                .collect(),
            earn: v
                .earn
                .into_iter()
                .map(|e| EarnView {
                    months: e.months,
                    sustainers: e.sustainers,
                    received: e.received,
                    expected: e.expected,
                    rate: rate(e.rate),
                })
                .collect(),
            computed,
        }
    }
}

/// A figure of the page whose donors are wanted: `kind` says which fields matter.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct RetentionCell {
    /// retention (a gain/loss line: period, asOf, category), cohort (grain, by, source, and optionally cohort
    /// and age) or sustainers (month, status)
    pub kind: String,
    #[oai(nullable)]
    pub period: Option<String>,
    #[oai(nullable)]
    pub as_of: Option<NaiveDate>,
    #[oai(nullable)]
    pub category: Option<String>,
    #[oai(nullable)]
    pub grain: Option<String>,
    #[oai(nullable)]
    pub by: Option<String>,
    #[oai(nullable)]
    pub source: Option<String>,
    #[oai(nullable)]
    pub cohort: Option<NaiveDate>,
    #[oai(nullable)]
    pub age: Option<u32>,
    #[oai(nullable)]
    pub month: Option<NaiveDate>,
    /// active, started or ended
    #[oai(nullable)]
    pub status: Option<String>,
}

#[derive(Debug, Object)]
pub struct RetentionDonor {
    #[oai(rename = "contactId", nullable)]
    pub contact_id: Option<i64>,
    #[oai(nullable)]
    pub email: Option<String>,
    pub name: String,
    #[oai(nullable)]
    pub previous: Option<String>,
    #[oai(nullable)]
    pub current: Option<String>,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct RetentionDonorPage {
    pub rows: Vec<RetentionDonor>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

#[derive(Debug, Object)]
pub struct CellSegmentRequest {
    pub name: String,
    pub cell: RetentionCell,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CellSegmentCreated {
    pub segment_id: i64,
    pub list_id: i64,
    /// Contacts saved (donors known only by e-mail have no contact and are left out).
    pub contacts: i64,
    /// The "Update Segment" job computing its members.
    pub job_id: i64,
}
