//! A journey's figures for one version, money left out without the permissions that show revenue.

use super::{not_found, JourneyFigures, JourneyStepFigures, JourneyVariantFigures, JourneyWeek};
use crate::auth::{ClientSession, Needs};
use crate::error::ApiError;
use crate::routes::mailings::MONEY_PERMISSIONS;
use crate::state::SharedState;

pub(super) async fn figures(
    state: &SharedState,
    session: &ClientSession,
    id: i64,
    version: Option<i32>,
) -> Result<JourneyFigures, ApiError> {
    let (version, steps, variants, weeks, totals) = session
        .tx(state, Needs::Nothing, async |tx| {
            let j = store::journeys::get(tx, id).await?.ok_or_else(not_found)?;
            let version = version.unwrap_or(j.version);
            if version < 1 || version > j.version {
                return Err(ApiError::NotFound(
                    "No such version of the journey".to_owned(),
                ));
            }
            let steps = store::journeys::figures::steps(tx, id, version).await?;
            let variants = store::journeys::figures::variants(tx, id, version).await?;
            let weeks = store::journeys::figures::weeks(tx, id, version).await?;
            let totals = store::journeys::figures::totals(tx, id, version).await?;
            Ok((version, steps, variants, weeks, totals))
        })
        .await?;
    let money = session.may(&MONEY_PERMISSIONS);
    Ok(JourneyFigures {
        version,
        steps: steps
            .into_iter()
            .map(|s| JourneyStepFigures {
                rpm_cents: money.then_some(s.rpm_cents),
                variants: variants
                    .iter()
                    .filter(|v| v.step_id == s.step_id)
                    .map(|v| JourneyVariantFigures {
                        variant: v.variant.to_uppercase(),
                        recipients: v.recipients,
                        delivered: v.delivered,
                        human_opens: v.human_opens,
                        clicks: v.clicks,
                        gifts: money.then_some(v.gifts),
                        revenue_cents: money.then_some(v.revenue_cents),
                        rpm_cents: money.then_some(v.rpm_cents),
                    })
                    .collect(),
                step_id: s.step_id,
                reached: s.reached,
                sent: s.sent,
                delivered: s.delivered,
                human_opens: s.human_opens,
                clicks: s.clicks,
                unsubscribes: s.unsubscribes,
                gifts: money.then_some(s.gifts),
                revenue_cents: money.then_some(s.revenue_cents),
            })
            .collect(),
        weeks: weeks
            .into_iter()
            .map(|w| JourneyWeek {
                week_start: w.week_start,
                entered: w.entered,
                converted: w.converted,
            })
            .collect(),
        entered: totals.entered,
        active: totals.active,
        finished: totals.finished,
        converted: totals.converted,
        revenue_cents: money.then_some(totals.revenue_cents),
    })
}
