//! Reconcile: the database is the record of which jobs exist; Redis only carries the messages. When Redis loses
//! them (restarted without persistence, flushed, a push that failed after the row committed), a job row stays
//! `queued` with nothing to run it, or `running` when its worker lost the message mid-job and dropped the job.
//! Each worker, at start and then every minute, looks for such rows older than [`GRACE`] — running ones only
//! when no worker holds their per-job lock — whose message the queue does not hold, and queues a message again.
//!
//! A job is never run twice at once: the runner takes a per-job advisory lock and skips rows already done, so a
//! message that turns out to be a duplicate (two workers reconciling together) costs one skipped delivery.

use crate::runner::JOB_LOCK;
use jobs::{JobError, JobMessage, JobQueue};
use std::time::Duration;
use tenancy::Tenancy;

/// How long a queued row may wait for its message before reconcile looks at it: longer than the gap between
/// an enqueue's commit and its push.
pub const GRACE: Duration = Duration::from_secs(10);

/// Reconciles at once and then every `every`, until the task is dropped. `only_client` limits it to one client
/// (tests that share a database with others).
pub async fn run(tenancy: Tenancy, queue: JobQueue, every: Duration, only_client: Option<i64>) {
    let mut tick = tokio::time::interval(every);
    loop {
        tick.tick().await;
        match once(&tenancy, &queue, only_client).await {
            Ok(0) => {}
            Ok(n) => tracing::warn!(
                jobs = n,
                "queued jobs without a queue message were queued again"
            ),
            Err(e) => tracing::warn!(error = %telemetry::Chain(&e), "reconcile pass failed"),
        }
    }
}

/// One pass; returns how many messages it sent again (overdue retries handed on included).
pub async fn once(
    tenancy: &Tenancy,
    queue: &JobQueue,
    only_client: Option<i64>,
) -> Result<usize, JobError> {
    // A retry overdue by more than the grace time sits in the scheduled set because no worker's poll ran to move
    // it: the queue "holds" its message, so the pass below would not send it again.
    let promoted = queue.promote_overdue(GRACE).await?;
    if promoted > 0 {
        tracing::warn!(jobs = promoted, "overdue retries moved to the waiting list");
    }
    Ok(promoted + lost(tenancy, queue, only_client).await?)
}

async fn lost(
    tenancy: &Tenancy,
    queue: &JobQueue,
    only_client: Option<i64>,
) -> Result<usize, JobError> {
    let mut waiting = Vec::new();
    for client in tenancy
        .list_clients()
        .await?
        .into_iter()
        .filter(|c| c.enabled && only_client.is_none_or(|id| id == c.id))
    {
        let mut tx = match tenancy.begin(&client).await {
            Ok(tx) => tx,
            Err(e) => {
                tracing::warn!(client = %client.short_name, error = %telemetry::Chain(&e), "reconcile skipped a client");
                continue;
            }
        };
        // A running row's lock (the runner's key, see `runner::execute`) is tried only for running rows, and held
        // only for this transaction, so a worker starting a queued job never finds it taken by reconcile.
        let ids = jobs::status::stale(&mut tx, GRACE.as_secs_f64(), JOB_LOCK, client.id).await?;
        tx.commit().await?;
        waiting.extend(ids.into_iter().map(|job_id| JobMessage {
            client_id: client.id,
            job_id,
        }));
    }
    if waiting.is_empty() {
        return Ok(0);
    }
    let held = queue.messages().await?;
    let mut sent = 0;
    for message in waiting.into_iter().filter(|m| !held.contains(m)) {
        tracing::info!(
            client_id = message.client_id,
            job = message.job_id,
            "job had no queue message; queued again"
        );
        queue.redeliver(message).await?;
        sent += 1;
    }
    Ok(sent)
}
