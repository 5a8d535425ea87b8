//! The demo client's e-mail programme: the standard segments and two of the client's own, computed; three flights
//! with variants sent to segments, with opens, clicks, unsubscribes and gifts credited to them; a planned month on
//! the planning calendar; a few sends made elsewhere; and a finished subject-line experiment. Set-based, so it adds a second or two to the demo.

use crate::error::ApiError;
use store::demo::programme as p;
use tenancy::TenantTx;

/// The client's own segments: (name, rule).
const CUSTOM_SEGMENTS: [(&str, &str); 2] = [
    (
        "High-dollar donors (HPC $250+)",
        r#"{"op": "and", "conditions": [{"field": "hpc", "op": "gte", "value": "250"}]}"#,
    ),
    (
        "Engaged non-donors",
        r#"{"op": "and", "conditions": [{"field": "gave", "op": "never"},
                                        {"field": "opened", "op": "withinDays", "value": 90}]}"#,
    ),
];

/// Flights: (name, subject of A, segment, days ago, [(letter, subject)] of the other variants).
type Flight = (
    &'static str,
    &'static str,
    &'static str,
    i32,
    &'static [(&'static str, &'static str)],
);
const FLIGHTS: [Flight; 3] = [
    (
        "Match deadline appeal",
        "Your gift doubled until midnight",
        "Active donors (0–12 months)",
        9,
        &[("b", "Last chance: 2× match ends tonight")],
    ),
    (
        "Lapsed donor win-back",
        "We miss you",
        "Lapsed donors (13–24 months)",
        5,
        &[
            ("b", "It has been a while, friend"),
            ("c", "One year later: what you built"),
        ],
    ),
    (
        "First ask to engaged readers",
        "Will you make your first gift?",
        "Engaged non-donors",
        2,
        &[("b", "Join 4,000 first-time donors this month")],
    ),
];

/// Seeds the programme once (a demo client that has its flights keeps them; the experiment is seeded on its own).
pub async fn seed_programme(tx: &mut TenantTx) -> Result<(), ApiError> {
    if !p::mailing_exists(tx, FLIGHTS[0].0).await? {
        compute_segments(tx).await?;
        for (name, subject, segment, days_ago, variants) in FLIGHTS {
            send_flight(tx, name, subject, segment, days_ago, variants).await?;
        }
        p::plan_month(tx).await?;
        p::insert_external_mailings(tx).await?;
    }
    // Seeded on its own, so a demo client made before experiments existed gets one too.
    let started = std::time::Instant::now();
    super::experiment::finished_experiment(tx).await?;
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis(),
        "demo experiment seeded"
    );
    Ok(())
}

/// RFM scores, then every segment (standard ones first), as the "Update Segment" job computes them.
async fn compute_segments(tx: &mut TenantTx) -> Result<(), ApiError> {
    for (name, rule) in CUSTOM_SEGMENTS {
        p::insert_segment(tx, name, rule).await?;
    }
    store::segments::rfm::recompute(tx).await?;
    for id in store::segments::all_ids(tx).await? {
        store::segments::compute(tx, id)
            .await
            .map_err(ApiError::internal)?;
    }
    Ok(())
}

/// A sent mailing to a segment with its variants: recipients split by the product's own function, then events
/// whose rates differ by variant, and gifts from some clickers credited to the mailing by refcode.
async fn send_flight(
    tx: &mut TenantTx,
    name: &str,
    subject: &str,
    segment: &str,
    days_ago: i32,
    variants: &[(&str, &str)],
) -> Result<(), ApiError> {
    let id = p::insert_flight(tx, name, subject, segment, days_ago).await?;
    for (letter, variant_subject) in variants {
        p::insert_variant(tx, id, letter, variant_subject).await?;
    }
    p::deliver_flight(tx, id).await?;
    Ok(())
}
