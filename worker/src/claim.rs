//! The database path: the job row is the job, the Redis message only the fast way to it. Every second a worker
//! process writes its beat (see `liveness.rs`); every `claim_every`, when one of its slots is free, it also claims
//! the oldest row that has been queued for [`CLAIM_AFTER`] or more and runs it. A lost, stuck or overdue message
//! (or a stalled Redis poll) costs a job a few seconds, not the minute until reconcile.
//!
//! Jobs live in each client's schema, so the claim is a pass over the enabled clients: one indexed look-up
//! (`jobs_queued_idx`) per client for its oldest queued row, then the oldest of those is taken with
//! `for update skip locked` and the per-job lock. A cross-client table kept by triggers would name `public.`
//! objects from tenant migrations, which the Citus rules forbid (docs/scale-out.md); the pass costs one small
//! query per client and runs only while a slot is free.
//!
//! A job never runs twice: the runner's per-job lock is taken before the row is let go, and the runner skips a
//! row already done, so the message that later arrives for a job the database path ran is dropped.

use crate::liveness::Liveness;
use crate::runner::{self, JOB_LOCK};
use crate::Services;
use jobs::{JobError, JobMessage};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tenancy::{Client, ExclusiveLock, Tenancy};
use tokio::sync::Semaphore;

/// How long a row waits for its queue message before a worker claims it from the database: well past the
/// gap between an enqueue's commit and its delivery (a fifth of a second).
pub const CLAIM_AFTER: Duration = Duration::from_secs(2);

/// A row that has already been tried waits longer before the next claim: [`CLAIM_AFTER`] doubled per earlier
/// attempt, at most this long, so a job that keeps failing for a transient reason (a mail server refusing, a
/// lock held elsewhere) is not hammered every two seconds.
pub const CLAIM_BACKOFF_MAX: Duration = Duration::from_secs(30);

/// How often the process beats.
const BEAT_EVERY: Duration = Duration::from_secs(1);

/// What the loop needs.
pub(crate) struct ClaimLoop {
    pub tenancy: Tenancy,
    pub services: Arc<Services>,
    /// The process's job slots, shared with the queue's workers.
    pub slots: Arc<Semaphore>,
    pub liveness: Arc<Liveness>,
    /// `None`: beat only, never claim.
    pub claim_every: Option<Duration>,
    pub only_client: Option<i64>,
}

/// Beats every second and claims every `claim_every`, until the task is dropped.
pub(crate) async fn run(looped: ClaimLoop) {
    let mut tick = tokio::time::interval(BEAT_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_claim: Option<Instant> = None;
    loop {
        tick.tick().await;
        if let Err(e) = looped.liveness.beat(&looped.tenancy).await {
            tracing::warn!(error = %telemetry::Chain(&e), "worker beat not written");
        }
        let Some(every) = looped.claim_every else {
            continue;
        };
        if last_claim.is_some_and(|at| at.elapsed() < every) {
            continue;
        }
        last_claim = Some(Instant::now());
        if let Err(e) = claim_while_free(&looped).await {
            tracing::warn!(error = %telemetry::Chain(&e), "claiming jobs from the database failed");
        }
    }
}

/// Claims and starts jobs while a slot is free and a job waits.
async fn claim_while_free(looped: &ClaimLoop) -> Result<(), JobError> {
    while let Ok(slot) = Arc::clone(&looped.slots).try_acquire_owned() {
        let Some((client, job_id, lock)) = claim(&looped.tenancy, looped.only_client).await? else {
            return Ok(());
        };
        tracing::warn!(client = %client.short_name, job = job_id, "job claimed from the database: its queue message did not come");
        let (tenancy, services) = (looped.tenancy.clone(), Arc::clone(&looped.services));
        let running = looped.liveness.start_job(&JobMessage {
            client_id: client.id,
            job_id,
        });
        tokio::spawn(async move {
            let _held = (slot, running);
            // An `Err` left the row queued for a retry, which the next pass claims again.
            if let Err(e) = runner::execute_locked(&tenancy, &services, &client, job_id, lock).await
            {
                tracing::warn!(error = %telemetry::Chain(&e), job = job_id, "job claimed from the database will be retried");
            }
        });
    }
    Ok(())
}

/// The oldest row queued for [`CLAIM_AFTER`] or more (longer after failed attempts, see [`CLAIM_BACKOFF_MAX`])
/// across the enabled clients, with its per-job lock held.
pub async fn claim(
    tenancy: &Tenancy,
    only_client: Option<i64>,
) -> Result<Option<(Client, i64, ExclusiveLock)>, JobError> {
    let mut oldest = Vec::new();
    for client in tenancy
        .list_clients()
        .await?
        .into_iter()
        .filter(|c| c.enabled && only_client.is_none_or(|id| id == c.id))
    {
        let mut tx = tenancy.begin(&client).await?;
        let first = jobs::status::oldest_claimable(
            &mut tx,
            CLAIM_AFTER.as_secs_f64(),
            CLAIM_BACKOFF_MAX.as_secs_f64(),
        )
        .await?;
        tx.commit().await?;
        if let Some((id, updated)) = first {
            oldest.push((updated, id, client));
        }
    }
    oldest.sort_by_key(|(updated, id, _)| (*updated, *id));
    for (_, id, client) in oldest {
        // The row lock keeps a second claimer off the row while this one takes the per-job lock; the per-job lock
        // then keeps the job to this worker until it ends.
        let mut tx = tenancy.begin(&client).await?;
        let still = jobs::status::lock_queued(&mut tx, id).await?;
        if still.is_none() {
            continue;
        }
        let lock = tenancy.try_exclusive(&client, JOB_LOCK | id).await?;
        tx.commit().await?;
        if let Some(lock) = lock {
            return Ok(Some((client, id, lock)));
        }
    }
    Ok(None)
}
