//! One experiment with its figures as they stand: the answer of get, create, start and send-winner.

use super::shape::*;
use crate::error::ApiError;
use store::experiments as store_x;
use tenancy::TenantTx;

/// An experiment with its figures as they stand.
pub(super) async fn detail(tx: &mut TenantTx, id: i64) -> Result<ExperimentDetail, ApiError> {
    let x = store_x::get(tx, id).await?;
    let cells = store_x::figures::test_figures(tx, x.id, x.mailing_id).await?;
    let sample = if x.status == "draft" {
        Some(
            store_x::sample_size(
                tx,
                x.mailing_id,
                x.test_fraction,
                x.baseline_rate,
                x.expected_lift,
                x.alpha,
                x.power,
            )
            .await?,
        )
    } else {
        store_x::drawn_sample_size(&cells, &x)
    };
    let winner_send = if x.winner_sent_at.is_some() {
        store_x::figures::winner_figures(tx, x.id, x.mailing_id)
            .await?
            .map(|f| figures(&f))
    } else {
        None
    };
    let decision = x
        .result
        .clone()
        .and_then(|r| serde_json::from_value::<store_x::figures::Decision>(r).ok());
    Ok(ExperimentDetail {
        id: x.id,
        kind_label: kind_label(&x.kind),
        sample_size: sample
            .map(|s| sample_size(&s, x.baseline_rate, x.expected_lift, x.alpha, x.power)),
        variants: cells.iter().map(figures).collect(),
        result: decision.map(|d| result(d, &cells)),
        winner_send,
        decide_at: x
            .started_at
            .map(|s| s + chrono::Duration::hours(i64::from(x.wait_hours))),
        name: x.name,
        kind: x.kind,
        mailing_id: x.mailing_id,
        mailing_name: x.mailing_name,
        test_fraction: x.test_fraction,
        metric: x.metric,
        wait_hours: x.wait_hours,
        auto_send: x.auto_send,
        baseline_rate: x.baseline_rate,
        expected_lift: x.expected_lift,
        alpha: x.alpha,
        power: x.power,
        status: x.status,
        created: x.created,
        started_at: x.started_at,
        decided_at: x.decided_at,
        winner: x.winner.as_deref().map(upper),
        winner_sent_at: x.winner_sent_at,
        finished_at: x.finished_at,
    })
}
