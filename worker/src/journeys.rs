//! The journeys engine's part of the scheduler pass: per client, batch after batch, the events the writers left
//! become enrolments and the due places move on; each batch queues the sends of the mailings it gave recipients
//! in its own transaction, so a recipient row never waits without a send to deliver it.

use jobs::{JobError, JobKind, JobQueue};
use std::collections::BTreeSet;
use std::time::Duration;
use store::journeys::engine;
use tenancy::Tenancy;

/// Contacts moved per batch, and events taken per batch.
const BATCH: i64 = 1000;
const EVENTS: i64 = 5000;
/// Batches per client per pass, so one busy client does not hold up the others' passes for long.
const BATCHES: usize = 50;
/// Full batches of events enrolled in a row before places move on again (200,000 events).
const ENROL_FIRST: usize = 40;

#[derive(Debug, Default)]
pub struct JourneysPass {
    pub enrolled: u64,
    pub places: usize,
    pub steps: usize,
    pub mailed: usize,
}

/// One client's journeys pass.
pub async fn journeys_due(
    tenancy: &tenancy::Tenancy,
    queue: &JobQueue,
    client: &tenancy::Client,
) -> Result<JourneysPass, JobError> {
    let mut pass = JourneysPass::default();
    // The calendar's events first (a no-op but once a client day), so this pass already enrols them.
    let mut tx = tenancy.begin(client).await?;
    engine::calendar_events(&mut tx).await?;
    tx.commit().await?;
    let mut full_in_a_row = 0;
    for _ in 0..BATCHES {
        let mut tx = tenancy.begin(client).await?;
        let (events, enrolled) = engine::consume_events(&mut tx, EVENTS).await?;
        // A burst of events (a list import, a campaign's signups) is enrolled before places move on: enrolling
        // is cheap, while advancing mails, and mailing beside the enrolment made each of its batches several
        // times slower (100,000 signups took 29 s). The new places then advance in due order with everyone
        // else's. Bounded, so a steady stream of events never holds the places up for long.
        full_in_a_row = if i64::try_from(events).is_ok_and(|n| n >= EVENTS) {
            full_in_a_row + 1
        } else {
            0
        };
        let advanced = if (1..=ENROL_FIRST).contains(&full_in_a_row) {
            engine::Advanced::default()
        } else {
            engine::advance_due(&mut tx, BATCH).await?
        };
        pass.enrolled += enrolled;
        pass.places += advanced.places;
        pass.steps += advanced.steps;
        pass.mailed += advanced.mailed;
        let sends = engine::without_waiting_send(&mut tx, &advanced.mailings).await?;
        if sends.is_empty() {
            tx.commit().await?;
        } else {
            let kinds: Vec<JobKind> = sends
                .into_iter()
                .map(|mailing_id| JobKind::SendMailing { mailing_id })
                .collect();
            queue.enqueue_many(tx, None, &kinds).await?;
        }
        if events == 0 && advanced.places == 0 {
            break;
        }
    }
    if pass.places > 0 || pass.enrolled > 0 {
        tracing::info!(client = %client.short_name, enrolled = pass.enrolled, advanced = pass.places,
                       mailed = pass.mailed, "journeys moved on");
    }
    Ok(pass)
}

/// The channel a client's `journey_events` notify when a statement leaves events; the payload is the schema.
const EVENTS_CHANNEL: &str = "compass_journey_events";

/// Whose events wake the journeys at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventClients {
    /// Every client (production).
    All,
    /// One client: tests share a database with other tests' clients, whose journeys they must not move.
    Only(i64),
}

/// Runs a client's journeys pass as soon as its writers leave events (a signup, a list upload, a gift) instead of at
/// the scheduler's next pass, so a welcome e-mail leaves seconds after the signup and a burst of signups is enrolled
/// without waiting for the tick. Notifications that arrived while a pass ran are answered by one pass per client.
pub async fn on_events(tenancy: Tenancy, queue: JobQueue, clients: EventClients) {
    loop {
        let mut listener = match tenancy.listen(EVENTS_CHANNEL).await {
            Ok(listener) => listener,
            Err(e) => {
                tracing::warn!(error = %telemetry::Chain(&e), "not listening for journey events; scheduler passes only");
                tokio::time::sleep(Duration::from_secs(5)).await;
                continue;
            }
        };
        loop {
            let first = match listener.recv().await {
                Ok(notification) => notification,
                Err(e) => {
                    tracing::warn!(error = %telemetry::Chain(&e), "listening for journey events failed; listening again");
                    break;
                }
            };
            let mut schemas = BTreeSet::from([first.payload().to_owned()]);
            // Those already received: a zero timeout polls the receiver once without waiting.
            while let Ok(Ok(next)) = tokio::time::timeout(Duration::ZERO, listener.recv()).await {
                schemas.insert(next.payload().to_owned());
            }
            let woken = match tenancy.list_clients().await {
                Ok(all) => all,
                Err(e) => {
                    tracing::warn!(error = %telemetry::Chain(&e), "journey events: clients not read");
                    continue;
                }
            };
            for client in woken.iter().filter(|c| {
                c.enabled
                    && schemas.contains(&c.schema_name)
                    && (clients == EventClients::All || clients == EventClients::Only(c.id))
            }) {
                if let Err(e) = journeys_due(&tenancy, &queue, client).await {
                    tracing::warn!(client = %client.short_name, error = %telemetry::Chain(&e), "journeys pass on events failed");
                }
            }
        }
    }
}
