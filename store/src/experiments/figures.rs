//! An experiment's figures and its decision.
//!
//! Every rate is over **delivered** recipients (status `sent`): the test compares people who got the message.
//! - open rate: delivered recipients with a human open; click rate: with a human click;
//! - response rate: delivered recipients who gave (an attributed line with a positive amount) — people, not gifts,
//!   so it is a proportion the z-test can compare;
//! - RPM: net attributed revenue per delivered recipient × 1000; the test is Welch's on each delivered recipient's
//!   revenue, zeros included.
//!
//! With more than two variants the best observed variant is tested against the runner-up: when even the
//! runner-up is significantly behind, every other variant is further behind still, so the best one wins; when
//! not, there is no significant difference. (Comparing every variant with A would pick a winner among B, C …
//! without testing them against each other.)

use super::stats::{self, Comparison, Sample};
use sqlx::PgConnection;

/// One variant's figures (or the winner send's, `variant` its letter).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Figures {
    pub variant: String,
    pub recipients: i64,
    pub delivered: i64,
    pub bounces: i64,
    pub opens: i64,
    pub clicks: i64,
    pub donors: i64,
    pub gifts: i64,
    /// Net attributed revenue, exact decimal text.
    pub revenue: String,
    /// Revenue per delivered recipient × 1000, exact decimal text (0.00 without deliveries).
    pub rpm: String,
    pub revenue_sum: f64,
    pub revenue_squares: f64,
}

impl Figures {
    /// The experiment's metric for this variant: a rate, or RPM as a number.
    pub fn value(&self, metric: &str) -> f64 {
        let n = self.delivered as f64;
        if self.delivered == 0 {
            return 0.0;
        }
        match metric {
            "open_rate" => self.opens as f64 / n,
            "click_rate" => self.clicks as f64 / n,
            "response_rate" => self.donors as f64 / n,
            _ => self.revenue_sum * 1000.0 / n,
        }
    }

    fn successes(&self, metric: &str) -> i64 {
        match metric {
            "open_rate" => self.opens,
            "click_rate" => self.clicks,
            _ => self.donors,
        }
    }
}

/// The figures of each group of `people` (an SQL select of `variant, contact_id`), binding $1 the experiment and
/// $2 the mailing.
fn figures_sql(people: &str) -> String {
    let net = crate::revenue::NET;
    format!(
        "with p as ({people}),
         g as (select c.contact_id, count(*) filter (where c.amount > 0) as gifts, sum({net}) as revenue
               from contributions c where c.mailing_id = $2 and c.contact_id is not null group by 1),
         per as (
             select p.variant, coalesce(r.status, 'queued') as status, coalesce(g.gifts, 0) as gifts,
                    coalesce(g.revenue, 0) as revenue,
                    exists (select 1 from mailing_events e where e.mailing_id = $2 and e.contact_id = p.contact_id
                              and e.kind = 'open' and not e.machine) as opened,
                    exists (select 1 from mailing_events e where e.mailing_id = $2 and e.contact_id = p.contact_id
                              and e.kind = 'click' and not e.machine) as clicked
             from p
             left join mailing_recipients r on r.mailing_id = $2 and r.contact_id = p.contact_id
             left join g on g.contact_id = p.contact_id)
         select variant, count(*) as recipients,
                count(*) filter (where status = 'sent') as delivered,
                count(*) filter (where status = 'bounced') as bounces,
                count(*) filter (where status = 'sent' and opened) as opens,
                count(*) filter (where status = 'sent' and clicked) as clicks,
                count(*) filter (where status = 'sent' and gifts > 0) as donors,
                coalesce(sum(gifts), 0)::bigint as gifts,
                coalesce(sum(revenue), 0)::numeric(20, 2)::text as revenue,
                (case when count(*) filter (where status = 'sent') > 0
                      then round(coalesce(sum(revenue) filter (where status = 'sent'), 0) * 1000
                                 / count(*) filter (where status = 'sent'), 2)
                      else 0 end)::numeric(20, 2)::text as rpm,
                coalesce(sum(revenue) filter (where status = 'sent'), 0)::float8 as revenue_sum,
                coalesce(sum(revenue * revenue) filter (where status = 'sent'), 0)::float8 as revenue_squares
         from per group by variant order by variant"
    )
}

/// The test cells' figures, one row per variant in letter order.
pub async fn test_figures(
    conn: &mut PgConnection,
    experiment_id: i64,
    mailing_id: i64,
) -> Result<Vec<Figures>, sqlx::Error> {
    let sql =
        figures_sql("select variant, contact_id from experiment_cells where experiment_id = $1");
    sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(experiment_id)
        .bind(mailing_id)
        .fetch_all(conn)
        .await
}

/// The winner send's figures: the mailing's recipients who were not in the test.
pub async fn winner_figures(
    conn: &mut PgConnection,
    experiment_id: i64,
    mailing_id: i64,
) -> Result<Option<Figures>, sqlx::Error> {
    let sql = figures_sql(
        "select r.variant, r.contact_id from mailing_recipients r
         where r.mailing_id = $2
           and not exists (select 1 from experiment_cells x
                           where x.experiment_id = $1 and x.contact_id = r.contact_id)",
    );
    let rows: Vec<Figures> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(experiment_id)
        .bind(mailing_id)
        .fetch_all(conn)
        .await?;
    Ok(rows.into_iter().next())
}

/// What the test found: the best variant against the runner-up, and the winner when the difference is
/// significant at `alpha`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    pub metric: String,
    pub best: String,
    pub runner_up: String,
    /// "z" (two proportions) or "welch".
    pub test: String,
    /// None when the cells are too small to test (fewer than two delivered recipients, say).
    pub comparison: Option<Comparison>,
    pub alpha: f64,
    pub winner: Option<String>,
}

/// Judges the variants on `metric`. Ties go to the earlier letter.
pub fn judge(metric: &str, figures: &[Figures], alpha: f64) -> Option<Decision> {
    let mut ranked: Vec<&Figures> = figures.iter().collect();
    ranked.sort_by(|a, b| {
        b.value(metric)
            .total_cmp(&a.value(metric))
            .then_with(|| a.variant.cmp(&b.variant))
    });
    let (best, runner_up) = (ranked.first()?, ranked.get(1)?);
    let count = |n: i64| u64::try_from(n).unwrap_or(0);
    let (test, comparison) = if metric == "rpm" {
        let sample =
            |f: &Figures| Sample::from_sums(count(f.delivered), f.revenue_sum, f.revenue_squares);
        ("welch", stats::welch(sample(best), sample(runner_up)))
    } else {
        (
            "z",
            stats::two_proportions(
                count(best.successes(metric)),
                count(best.delivered),
                count(runner_up.successes(metric)),
                count(runner_up.delivered),
            ),
        )
    };
    let winner = comparison
        .filter(|c| c.p_value < alpha && c.difference > 0.0)
        .map(|_| best.variant.clone());
    Some(Decision {
        metric: metric.to_owned(),
        best: best.variant.clone(),
        runner_up: runner_up.variant.clone(),
        test: test.to_owned(),
        comparison,
        alpha,
        winner,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(variant: &str, delivered: i64, opens: i64) -> Figures {
        Figures {
            variant: variant.to_owned(),
            recipients: delivered,
            delivered,
            bounces: 0,
            opens,
            clicks: 0,
            donors: 0,
            gifts: 0,
            revenue: "0.00".to_owned(),
            rpm: "0.00".to_owned(),
            revenue_sum: 0.0,
            revenue_squares: 0.0,
        }
    }

    #[test]
    fn the_best_wins_only_when_it_beats_the_runner_up_significantly() {
        // a 90/2000, b 130/2000, c 110/2000: b against c (the runner-up), z = 1.3316, p = 0.18300511 (SciPy) —
        // not significant at 0.05, though b against a would be.
        let cells = [
            cell("a", 2000, 90),
            cell("b", 2000, 130),
            cell("c", 2000, 110),
        ];
        let d = judge("open_rate", &cells, 0.05).unwrap();
        assert_eq!((d.best.as_str(), d.runner_up.as_str()), ("b", "c"));
        let p = d.comparison.unwrap().p_value;
        assert!((p - 0.183_005_111_294_484_7).abs() < 1e-9, "{p}");
        assert_eq!(d.winner, None);
        // Two variants, 130 against 90 of 2000: p = 0.00553, b wins.
        let d = judge("open_rate", &cells[..2], 0.05).unwrap();
        assert_eq!(d.winner.as_deref(), Some("b"));
    }
}
