//! The demo's finished subject-line experiment (part of the e-mail programme `super::programme` seeds): drawn,
//! "sent", judged and its winner "sent" through the product's own steps; only delivery is written directly.

use crate::error::ApiError;
use tenancy::TenantTx;

/// The demo's experiment: its mailing, the audience it goes to and the two subjects it tests.
const EXPERIMENT: &str = "Quarter-end subject line test";
const EXPERIMENT_MAILING: &str = "Quarter-end deadline";
const EXPERIMENT_LIST: &str = "Web and search sign-ups";
const EXPERIMENT_SUBJECTS: [&str; 2] = [
    "Our quarter-end deadline is tonight",
    "6 hours left to hit our quarter-end goal",
];

/// A finished subject-line experiment, run through the product's own steps: the test cells drawn and "sent"
/// eight days ago, their opens and clicks, the decision the worker computes after the four-hour wait, and the
/// winner "sent" to the rest of the list with its own figures. Only the delivery itself is written directly.
pub(super) async fn finished_experiment(tx: &mut TenantTx) -> Result<(), ApiError> {
    use store::{demo::experiment as d, experiments as x};
    if d::exists(tx, EXPERIMENT).await? {
        return Ok(());
    }
    let mailing = d::insert_mailing(
        tx,
        EXPERIMENT_MAILING,
        EXPERIMENT_SUBJECTS[0],
        EXPERIMENT_LIST,
    )
    .await?;
    let Some(mailing) = mailing else {
        return Ok(());
    };
    d::insert_variant_b(tx, mailing, EXPERIMENT_SUBJECTS[1]).await?;
    let id = x::create(
        tx,
        &x::NewExperiment {
            name: EXPERIMENT.to_owned(),
            kind: "subject".to_owned(),
            mailing_id: mailing,
            test_fraction: 0.2,
            metric: "open_rate".to_owned(),
            wait_hours: 4,
            auto_send: true,
            baseline_rate: 0.22,
            expected_lift: 0.2,
            alpha: 0.05,
            power: 0.8,
        },
    )
    .await
    .map_err(experiment_error)?;
    x::start(tx, id).await.map_err(experiment_error)?;
    d::deliver(tx, mailing, d::Send::Test).await?;
    d::date_start(tx, id).await?;
    x::advance(tx).await?;
    // The wait is over (the test went out eight days ago): judged as the worker's pass judges it.
    let mut send_now = false;
    while let Some((judged, now)) = x::decide_next(tx).await? {
        if judged == id {
            send_now = now;
            break;
        }
    }
    // Without a winner (not expected with these figures) a person would have chosen; A is the control.
    let chosen = if send_now { None } else { Some("a") };
    x::begin_winner_send(tx, id, chosen)
        .await
        .map_err(experiment_error)?;
    d::deliver(tx, mailing, d::Send::Winner).await?;
    x::advance(tx).await?;
    d::date_finish(tx, id).await?;
    Ok(())
}

fn experiment_error(e: store::experiments::ExperimentError) -> ApiError {
    match e {
        store::experiments::ExperimentError::Db(e) => e.into(),
        other => ApiError::internal(other),
    }
}
