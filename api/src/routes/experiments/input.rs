//! What the experiment operations take, and a new experiment's input as the store wants it.

use poem_openapi::Object;
use store::experiments::NewExperiment;

/// A new experiment. Rates and fractions are shares (0.2 is 20 %); the lift is relative (0.1: 20 % → 22 %).
#[derive(Debug, Object)]
pub struct ExperimentInput {
    #[oai(validator(min_length = 1, max_length = 200))]
    pub name: String,
    /// subject, sender, preview, body or ask
    #[oai(validator(max_length = 20))]
    pub kind: String,
    #[oai(rename = "mailingId")]
    pub mailing_id: i64,
    #[oai(rename = "testFraction")]
    pub test_fraction: f64,
    /// open_rate, click_rate, response_rate or rpm
    #[oai(validator(max_length = 20))]
    pub metric: String,
    #[oai(rename = "waitHours")]
    pub wait_hours: i32,
    #[oai(rename = "autoSend")]
    pub auto_send: bool,
    #[oai(rename = "baselineRate")]
    pub baseline_rate: f64,
    #[oai(rename = "expectedLift")]
    pub expected_lift: f64,
    #[oai(default = "default_alpha")]
    pub alpha: f64,
    #[oai(default = "default_power")]
    pub power: f64,
}

fn default_alpha() -> f64 {
    0.05
}

fn default_power() -> f64 {
    0.8
}

/// The planned test of a mailing, for the sample-size check before an experiment is created.
#[derive(Debug, Object)]
pub struct SampleSizeInput {
    #[oai(rename = "mailingId")]
    pub mailing_id: i64,
    #[oai(rename = "testFraction")]
    pub test_fraction: f64,
    #[oai(rename = "baselineRate")]
    pub baseline_rate: f64,
    #[oai(rename = "expectedLift")]
    pub expected_lift: f64,
    #[oai(default = "default_alpha")]
    pub alpha: f64,
    #[oai(default = "default_power")]
    pub power: f64,
}

/// "Send winner": the variant to send when the test found no significant difference (else the winner's).
#[derive(Debug, Object)]
pub struct SendWinnerInput {
    #[oai(validator(max_length = 1))]
    pub variant: Option<String>,
}

pub(super) fn input(i: ExperimentInput) -> NewExperiment {
    NewExperiment {
        name: i.name,
        kind: i.kind,
        mailing_id: i.mailing_id,
        test_fraction: i.test_fraction,
        metric: i.metric,
        wait_hours: i.wait_hours,
        auto_send: i.auto_send,
        baseline_rate: i.baseline_rate,
        expected_lift: i.expected_lift,
        alpha: i.alpha,
        power: i.power,
    }
}
