//! The experiment answers and how the store's rows become them.

use chrono::{DateTime, Utc};
use poem_openapi::Object;
use store::experiments::figures::{Decision, Figures};
use store::experiments::{Experiment, SampleSize, KINDS};

#[derive(Debug, Object)]
pub struct ExperimentSummary {
    pub id: i64,
    pub name: String,
    pub kind: String,
    #[oai(rename = "mailingName")]
    pub mailing_name: String,
    pub metric: String,
    pub status: String,
    #[oai(nullable, rename = "startedAt")]
    pub started_at: Option<DateTime<Utc>>,
    #[oai(nullable, rename = "decidedAt")]
    pub decided_at: Option<DateTime<Utc>>,
    /// The winning (or chosen) variant's letter, upper case.
    #[oai(nullable)]
    pub winner: Option<String>,
}

/// One cell's figures; every rate is over delivered recipients (docs/experiments.md).
#[derive(Debug, Object)]
pub struct VariantFigures {
    pub variant: String,
    pub recipients: i64,
    pub delivered: i64,
    pub bounces: i64,
    /// Delivered recipients with a human open.
    pub opens: i64,
    /// Delivered recipients with a human click.
    pub clicks: i64,
    /// Delivered recipients who gave.
    pub donors: i64,
    pub gifts: i64,
    /// Net attributed revenue (decimal string).
    pub revenue: String,
    #[oai(rename = "openRate")]
    pub open_rate: f64,
    #[oai(rename = "clickRate")]
    pub click_rate: f64,
    #[oai(rename = "responseRate")]
    pub response_rate: f64,
    /// Revenue per delivered recipient × 1000 (decimal string).
    pub rpm: String,
}

/// The test of the best variant against the runner-up.
#[derive(Debug, Object)]
pub struct ExperimentResult {
    pub best: String,
    #[oai(rename = "runnerUp")]
    pub runner_up: String,
    /// `z` (two-proportion z-test) or `welch` (Welch's t-test on revenue per recipient).
    pub test: String,
    #[oai(nullable)]
    pub statistic: Option<f64>,
    #[oai(nullable, rename = "pValue")]
    pub p_value: Option<f64>,
    /// Best minus runner-up: a rate difference, or revenue per recipient in dollars for RPM.
    #[oai(nullable)]
    pub difference: Option<f64>,
    #[oai(nullable, rename = "ciLow")]
    pub ci_low: Option<f64>,
    #[oai(nullable, rename = "ciHigh")]
    pub ci_high: Option<f64>,
    /// Welch–Satterthwaite degrees of freedom (Welch only).
    #[oai(nullable)]
    pub df: Option<f64>,
    pub alpha: f64,
    pub significant: bool,
    pub summary: String,
}

#[derive(Debug, Object)]
pub struct SampleSizeCheck {
    pub audience: i64,
    pub variants: i64,
    #[oai(rename = "perCell")]
    pub per_cell: i64,
    #[oai(nullable, rename = "neededPerCell")]
    pub needed_per_cell: Option<i64>,
    pub enough: bool,
    /// Shown before the test starts when the cells are too small.
    #[oai(nullable)]
    pub warning: Option<String>,
}

#[derive(Debug, Object)]
pub struct ExperimentDetail {
    pub id: i64,
    pub name: String,
    pub kind: String,
    #[oai(rename = "kindLabel")]
    pub kind_label: String,
    #[oai(rename = "mailingId")]
    pub mailing_id: i64,
    #[oai(rename = "mailingName")]
    pub mailing_name: String,
    #[oai(rename = "testFraction")]
    pub test_fraction: f64,
    pub metric: String,
    #[oai(rename = "waitHours")]
    pub wait_hours: i32,
    #[oai(rename = "autoSend")]
    pub auto_send: bool,
    #[oai(rename = "baselineRate")]
    pub baseline_rate: f64,
    #[oai(rename = "expectedLift")]
    pub expected_lift: f64,
    pub alpha: f64,
    pub power: f64,
    pub status: String,
    pub created: DateTime<Utc>,
    #[oai(nullable, rename = "startedAt")]
    pub started_at: Option<DateTime<Utc>>,
    /// When the wait ends and the result is computed.
    #[oai(nullable, rename = "decideAt")]
    pub decide_at: Option<DateTime<Utc>>,
    #[oai(nullable, rename = "decidedAt")]
    pub decided_at: Option<DateTime<Utc>>,
    #[oai(nullable)]
    pub winner: Option<String>,
    #[oai(nullable, rename = "winnerSentAt")]
    pub winner_sent_at: Option<DateTime<Utc>>,
    #[oai(nullable, rename = "finishedAt")]
    pub finished_at: Option<DateTime<Utc>>,
    /// The sample-size check: of the planned cells for a draft, of the drawn cells once started.
    #[oai(nullable, rename = "sampleSize")]
    pub sample_size: Option<SampleSizeCheck>,
    pub variants: Vec<VariantFigures>,
    #[oai(nullable)]
    pub result: Option<ExperimentResult>,
    /// The winner send's figures (the recipients outside the test).
    #[oai(nullable, rename = "winnerSend")]
    pub winner_send: Option<VariantFigures>,
}

#[derive(Debug, Object)]
pub struct ExperimentMailing {
    pub id: i64,
    pub name: String,
    pub variants: i64,
}

#[derive(Debug, Object)]
pub struct ExperimentOption {
    pub id: String,
    pub label: String,
}

pub fn upper(letter: &str) -> String {
    letter.to_uppercase()
}

pub fn summary(x: Experiment) -> ExperimentSummary {
    ExperimentSummary {
        id: x.id,
        name: x.name,
        kind: x.kind,
        mailing_name: x.mailing_name,
        metric: x.metric,
        status: x.status,
        started_at: x.started_at,
        decided_at: x.decided_at,
        winner: x.winner.as_deref().map(upper),
    }
}

pub fn figures(f: &Figures) -> VariantFigures {
    VariantFigures {
        variant: upper(&f.variant),
        recipients: f.recipients,
        delivered: f.delivered,
        bounces: f.bounces,
        opens: f.opens,
        clicks: f.clicks,
        donors: f.donors,
        gifts: f.gifts,
        revenue: f.revenue.clone(),
        open_rate: f.value("open_rate"),
        click_rate: f.value("click_rate"),
        response_rate: f.value("response_rate"),
        rpm: f.rpm.clone(),
    }
}

fn metric_label(metric: &str) -> &'static str {
    match metric {
        "open_rate" => "open rate",
        "click_rate" => "click rate",
        "response_rate" => "response rate",
        _ => "RPM",
    }
}

fn percent(rate: f64) -> String {
    format!("{:.2}%", rate * 100.0)
}

/// The value of `metric` as the page writes it.
fn shown(metric: &str, value: f64) -> String {
    if metric == "rpm" {
        format!("${value:.2}")
    } else {
        percent(value)
    }
}

pub fn result(d: Decision, cells: &[Figures]) -> ExperimentResult {
    let value = |letter: &str| {
        cells
            .iter()
            .find(|f| f.variant == letter)
            .map_or(0.0, |f| f.value(&d.metric))
    };
    let (best, runner) = (upper(&d.best), upper(&d.runner_up));
    let label = metric_label(&d.metric);
    let summary = match (&d.comparison, &d.winner) {
        (None, _) => "Not enough recipients to compare the variants.".to_owned(),
        (Some(c), Some(_)) => format!(
            "{best} wins: {label} {} against {} for {runner} ({}).",
            shown(&d.metric, value(&d.best)),
            shown(&d.metric, value(&d.runner_up)),
            p_text(c.p_value)
        ),
        (Some(c), None) => format!(
            "No significant difference: {label} {} for {best} against {} for {runner} ({} ≥ {}).",
            shown(&d.metric, value(&d.best)),
            shown(&d.metric, value(&d.runner_up)),
            p_text(c.p_value),
            d.alpha
        ),
    };
    let c = d.comparison;
    ExperimentResult {
        best,
        runner_up: runner,
        test: d.test,
        statistic: c.map(|c| c.statistic),
        p_value: c.map(|c| c.p_value),
        difference: c.map(|c| c.difference),
        ci_low: c.map(|c| c.ci_low),
        ci_high: c.map(|c| c.ci_high),
        df: c.and_then(|c| c.df),
        alpha: d.alpha,
        significant: d.winner.is_some(),
        summary,
    }
}

pub fn sample_size(
    s: &SampleSize,
    baseline: f64,
    lift: f64,
    alpha: f64,
    power: f64,
) -> SampleSizeCheck {
    let needed = s
        .needed_per_cell
        .map(|n| i64::try_from(n).unwrap_or(i64::MAX));
    let warning = match needed {
        Some(n) if !s.enough => Some(format!(
            "Each test cell gets {} recipients; telling {} from {} at {:.0}% significance and {:.0}% power needs {} per cell. The test is unlikely to find a difference that small.",
            s.per_cell,
            percent(baseline),
            percent(baseline * (1.0 + lift)),
            (1.0 - alpha) * 100.0,
            power * 100.0,
            n
        )),
        _ => None,
    };
    SampleSizeCheck {
        audience: s.audience,
        variants: s.variants,
        per_cell: s.per_cell,
        needed_per_cell: needed,
        enough: s.enough,
        warning,
    }
}

pub fn kind_label(kind: &str) -> String {
    KINDS
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or(kind, |(_, label)| label)
        .to_owned()
}

/// A p-value as four decimals can show it: below 0.0001 it would print as "p = 0.0000", which no test gives.
pub(crate) fn p_text(p: f64) -> String {
    if p < 0.0001 {
        "p < 0.0001".to_owned()
    } else {
        format!("p = {p:.4}")
    }
}

#[cfg(test)]
mod p_text_tests {
    use super::p_text;

    #[test]
    fn tiny_p_values_read_as_below_the_smallest_shown() {
        assert_eq!(p_text(1.97e-9), "p < 0.0001");
        assert_eq!(p_text(0.0001), "p = 0.0001");
        assert_eq!(p_text(0.000496), "p = 0.0005");
        assert_eq!(p_text(0.5), "p = 0.5000");
    }
}
