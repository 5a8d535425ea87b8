//! The agency's portfolio (docs/portfolio.md): one row of figures per client, read in that client's schema. Every
//! figure comes from the function the client's own page uses (the dashboard's tiles, the projection, e-mail
//! revenue, the deliverability rates, the media figures), so a client's row always agrees with its pages; what is
//! new here is only the 12-month net series and the counts of failing jobs and paused mailings. The worker keeps
//! each client's row in `public.client_portfolio_figures` (`stored`), so the portfolio reads them all at once.

mod stored;

pub use stored::{claim_due, store, stored, Stored, REFRESH_EVERY};

use chrono::{Datelike, Duration, NaiveDate};
use sqlx::PgConnection;

use crate::deliverability::rates::{self, GroupBy};
use crate::retention::{self, PeriodKind};
use crate::{dashboard, media, projections};

/// How long one statement of a client's figures may run while the portfolio page waits for them (a client
/// without a stored row is read during the request): a client whose statements stall does not hold the page.
pub const REQUEST_STATEMENT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// The same bound for the Refresh Portfolio job, which nobody waits on. A large client's figures take seconds
/// (a year of media touches over 3,000,000 gifts took 3 s on a quiet two-core machine) and more beside an
/// import; at the request's bound such a client's refresh failed for good, a failed job every five minutes.
pub const JOB_STATEMENT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// One client's portfolio row. Money is decimal text (two places); ratios are decimal text, `None` where the
/// divisor is zero or there is nothing to compare with. Stored as JSON (serde's form of this struct).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClientFigures {
    pub today: NaiveDate,
    /// Net of this month up to today (the dashboard's month).
    pub month_net: String,
    /// This month's goal (Projections), if set.
    pub month_goal: Option<String>,
    /// Net of this month through yesterday ÷ its projection to date (the dashboard's pacing).
    pub month_pacing: Option<f64>,
    /// Net of the calendar year up to today.
    pub year_net: String,
    /// The goals of the calendar year's months up to this one, if any is set.
    pub year_goal: Option<String>,
    /// Net of the year through yesterday ÷ its projection to date.
    pub year_pacing: Option<f64>,
    /// Donors whose first gift ever falls in this month.
    pub new_donors: i64,
    /// Donors with a recurring gift, not refunded, in the last 35 days.
    pub sustainers: i64,
    pub list_size: i64,
    /// joined − left over the last 30 days.
    pub list_change_30: i64,
    /// E-mail revenue ÷ delivered × 1000 of the mailings sent in the last 90 days (by send date); `None` while
    /// they delivered nothing.
    pub rpm: Option<String>,
    /// Donor retention (FEP) of the calendar year to date against the whole previous year (`store::retention`);
    /// `None` when the previous year had no donors.
    pub retention: Option<f64>,
    /// Gifts ÷ delivered of the same mailings.
    pub response_rate: Option<f64>,
    /// Hard-bounced ÷ sent of the recipients sent to in the last 30 days.
    pub bounce_rate: Option<f64>,
    /// Complained ÷ delivered of the same recipients.
    pub complaint_rate: Option<f64>,
    /// Ad spend ÷ new donors over the last 365 days (Media's total row).
    pub cost_per_donor: Option<String>,
    /// Jobs that failed in the last 24 hours.
    pub jobs_failing: i64,
    pub mailings_paused: i64,
    /// Net per calendar month, the last 12 months, oldest first (this month last, up to today).
    pub net_by_month: Vec<String>,
}

/// Every figure of one client's row, in its schema (one transaction, each statement bounded by
/// `statement_timeout`: [`REQUEST_STATEMENT_TIMEOUT`] or [`JOB_STATEMENT_TIMEOUT`]).
pub async fn client_figures(
    conn: &mut PgConnection,
    statement_timeout: std::time::Duration,
) -> Result<ClientFigures, sqlx::Error> {
    // `set` takes no bind parameter; `set_config` does, and `true` keeps it to this transaction.
    sqlx::query("select set_config('statement_timeout', $1, true)")
        .bind(format!("{}ms", statement_timeout.as_millis()))
        .execute(&mut *conn)
        .await?;
    let today = projections::client_today(&mut *conn).await?;
    let periods = dashboard::revenue_periods(&mut *conn).await?;
    let month = periods.iter().find(|p| p.key == "month");
    let projection = projections::projection(&mut *conn, Some(today)).await?;
    let sustainers = dashboard::active_sustainers(&mut *conn).await?;
    let size = dashboard::list_size(&mut *conn).await?;
    let (delivered, gifts, rpm): (i64, i64, String) =
        sqlx::query_as("select delivered, gifts, rpm::text from email_revenue($1, $2)")
            .bind(today - Duration::days(89))
            .bind(today)
            .fetch_one(&mut *conn)
            .await?;
    let since = rates::day_bounds(&mut *conn, Some(today - Duration::days(29)), None)
        .await?
        .0;
    let groups = rates::rates(
        &mut *conn,
        GroupBy::SenderDomain,
        &rates::Filter {
            from: since,
            ..Default::default()
        },
    )
    .await?;
    let media = media::performance(
        &mut *conn,
        media::Level::Total,
        today - Duration::days(364),
        today,
        None,
    )
    .await?;
    let (jobs_failing, mailings_paused): (i64, i64) = sqlx::query_as(
        "select (select count(*) from jobs
                 where status = 'done' and success = false and updated >= now() - interval '24 hours'),
                (select count(*) from mailings where delivery = 'paused')",
    )
    .fetch_one(&mut *conn)
    .await?;
    let net_by_month = net_by_month(&mut *conn, today).await?;
    // The Retention page's figure for the calendar year to date against the last (kept there for 15 minutes).
    let (retention, _) = retention::summary(&mut *conn, PeriodKind::Year, today).await?;

    let (sent, hard, delivered_mail, complained) = groups.iter().fold((0, 0, 0, 0), |t, g| {
        (
            t.0 + g.sent,
            t.1 + g.hard_bounced,
            t.2 + g.delivered,
            t.3 + g.complained,
        )
    });
    let ratio = |a: f64, b: f64| (b > 0.0).then_some(a / b);
    let (year_goal, month_goal) = goals(&projection, today.month());
    Ok(ClientFigures {
        today,
        month_net: month.map_or_else(|| "0.00".to_owned(), |p| p.net.clone()),
        month_goal,
        month_pacing: ratio(
            projection.month_to_date,
            projection.month_projection_to_date,
        ),
        year_net: net_by_month_sum(&net_by_month, today.month() as usize),
        year_goal,
        year_pacing: ratio(projection.actual_to_date, projection.projection_to_date),
        new_donors: month.map_or(0, |p| p.new_donors),
        sustainers,
        list_size: size.subscribed,
        list_change_30: size.joined - size.left,
        rpm: (delivered > 0).then_some(rpm),
        retention: (retention.donors_previous > 0).then_some(retention.donor_retention),
        response_rate: ratio(gifts as f64, delivered as f64),
        bounce_rate: ratio(hard as f64, sent as f64),
        complaint_rate: ratio(complained as f64, delivered_mail as f64),
        cost_per_donor: media.into_iter().next().and_then(|r| r.cost_per_donor),
        jobs_failing,
        mailings_paused,
        net_by_month,
    })
}

/// The goals of the year's months up to `month` (summed exactly, as numbers of cents) and of `month` itself.
fn goals(projection: &projections::Projection, month: u32) -> (Option<String>, Option<String>) {
    let cents = |g: &str| domain::Money::parse(g).ok().map(|m| m.cents());
    let set: Vec<(u32, i64)> = projection
        .months
        .iter()
        .filter(|m| m.month <= month)
        .filter_map(|m| m.goal.as_deref().and_then(cents).map(|c| (m.month, c)))
        .collect();
    let text = |c: i64| domain::Money::from_cents(c).to_string();
    let year = (!set.is_empty()).then(|| text(set.iter().map(|s| s.1).sum()));
    let this = set.iter().find(|s| s.0 == month).map(|s| text(s.1));
    (year, this)
}

/// The calendar year's net up to today: the sum of this year's months in the 12-month series (the last `months`
/// of it), in cents so nothing is lost to floating point.
fn net_by_month_sum(series: &[String], months: usize) -> String {
    let cents: i64 = series
        .iter()
        .rev()
        .take(months)
        .filter_map(|n| domain::Money::parse_written(n).ok().map(|m| m.cents()))
        .sum();
    domain::Money::from_cents(cents).to_string()
}

/// Net per calendar month (client days) of the 12 months up to today, from the day rollup; months without gifts
/// are 0.
async fn net_by_month(
    conn: &mut PgConnection,
    today: NaiveDate,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "select coalesce(sum(d.net), 0)::numeric(20, 2)::text
         from generate_series(date_trunc('month', $1::date) - interval '11 months',
                              date_trunc('month', $1::date), interval '1 month') m (start)
         left join contribution_days d
                on d.day >= m.start::date and d.day < (m.start + interval '1 month')::date and d.day <= $1
         group by m.start order by m.start",
    )
    .bind(today)
    .fetch_all(conn)
    .await
}

/// The median of the values present (the mean of the middle two for an even count); `None` when there are none.
pub fn median(values: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    let mut v: Vec<f64> = values
        .into_iter()
        .flatten()
        .filter(|x| x.is_finite())
        .collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    Some(if v.len().is_multiple_of(2) {
        (v[mid - 1] + v[mid]) / 2.0
    } else {
        v[mid]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_skips_missing_values_and_averages_the_middle_pair() {
        assert_eq!(median([Some(3.0), None, Some(1.0), Some(2.0)]), Some(2.0));
        assert_eq!(
            median([Some(4.0), Some(1.0), Some(3.0), Some(2.0)]),
            Some(2.5)
        );
        assert_eq!(median([None, None]), None);
    }

    #[test]
    fn the_year_is_the_sum_of_its_months_in_cents() {
        let series: Vec<String> = ["5.00", "0.10", "0.20", "1.05"].map(String::from).to_vec();
        assert_eq!(net_by_month_sum(&series, 2), "1.25");
    }
}
