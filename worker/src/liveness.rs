//! Whether this worker process is alive and taking work, as it tells Postgres and the watchdog.
//!
//! Each process keeps a row in `public.workers`: its queue, its last beat (written every second by the claim
//! loop, see `claim.rs`), the last time its queue poll ran (apalis's heartbeat event, every 250 ms while the poll
//! loop turns) and the jobs it runs. A worker is live while it beat in the last [`jobs::liveness::LIVE_WITHIN`]: the
//! api reads that (`jobs::liveness`) for `/readyz` and for a job's "waiting for a worker", the System page lists the
//! rows.
//!
//! The watchdog (`pool.rs`) restarts the apalis workers when their poll has not run for a while although a slot
//! is free; apalis awaits each Redis call of its poll (register, heartbeat, fetch) with no timeout of its own,
//! so one reply that never comes stops a worker's poll for good while the process lives on.

use jobs::{JobError, JobMessage};
use serde_json::json;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tenancy::Tenancy;

/// What one process knows about itself; shared by its pool, claim loop and `/readyz`.
#[derive(Debug)]
pub struct Liveness {
    name: String,
    queue: String,
    origin: Instant,
    /// Milliseconds from `origin` to the last poll of the queue.
    last_poll: AtomicU64,
    /// Polls seen so far: the watchdog tells a restart that came back from one that did not.
    polls: AtomicU64,
    /// Times the watchdog restarted the queue's workers after their poll stalled.
    restarts: AtomicU64,
    running: Mutex<BTreeSet<(i64, i64)>>,
}

impl Liveness {
    /// `name` is unique per process (`run_pool` adds the pid and a random suffix when it makes one).
    pub fn new(name: &str, queue: &str) -> Arc<Self> {
        let suffix = uuid::Uuid::new_v4().simple().to_string();
        Arc::new(Self {
            name: format!("{name}-{}-{}", std::process::id(), &suffix[..8]),
            queue: queue.to_owned(),
            origin: Instant::now(),
            last_poll: AtomicU64::new(0),
            polls: AtomicU64::new(0),
            restarts: AtomicU64::new(0),
            running: Mutex::new(BTreeSet::new()),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The queue poll ran just now.
    pub fn polled(&self) {
        let now = u64::try_from(self.origin.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_poll.store(now, Ordering::Relaxed);
        self.polls.fetch_add(1, Ordering::Relaxed);
    }

    /// How long ago the queue poll last ran.
    pub fn since_poll(&self) -> Duration {
        let last = Duration::from_millis(self.last_poll.load(Ordering::Relaxed));
        self.origin.elapsed().saturating_sub(last)
    }

    pub(crate) fn polls(&self) -> u64 {
        self.polls.load(Ordering::Relaxed)
    }

    /// How many times the watchdog restarted the queue's workers.
    pub fn restarts(&self) -> u64 {
        self.restarts.load(Ordering::Relaxed)
    }

    pub(crate) fn restarted(&self) {
        self.restarts.fetch_add(1, Ordering::Relaxed);
    }

    /// Records a job as running until the guard drops.
    pub(crate) fn start_job(self: &Arc<Self>, message: &JobMessage) -> RunningJob {
        let key = (message.client_id, message.job_id);
        if let Ok(mut running) = self.running.lock() {
            running.insert(key);
        }
        RunningJob {
            liveness: Arc::clone(self),
            key,
        }
    }

    fn running(&self) -> serde_json::Value {
        let running = self.running.lock().map(|r| r.clone()).unwrap_or_default();
        running
            .into_iter()
            .map(|(client_id, job_id)| json!({ "clientId": client_id, "jobId": job_id }))
            .collect()
    }

    /// Writes this process's row: beat now, the last poll, the jobs running.
    pub(crate) async fn beat(&self, tenancy: &Tenancy) -> Result<(), JobError> {
        let mut tx = tenancy.public().await?;
        jobs::liveness::beat(
            &mut tx,
            &self.name,
            &self.queue,
            hostname(),
            i32::try_from(std::process::id()).unwrap_or(0),
            self.since_poll().as_secs_f64(),
            self.running(),
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Removes this process's row: it stopped on purpose.
    pub(crate) async fn gone(&self, tenancy: &Tenancy) -> Result<(), JobError> {
        let mut tx = tenancy.public().await?;
        jobs::liveness::forget(&mut tx, &self.name).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// A running job as [`Liveness`] lists it.
pub(crate) struct RunningJob {
    liveness: Arc<Liveness>,
    key: (i64, i64),
}

impl Drop for RunningJob {
    fn drop(&mut self) {
        if let Ok(mut running) = self.liveness.running.lock() {
            running.remove(&self.key);
        }
    }
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_owned())
        .unwrap_or_default()
}

/// Seconds the oldest queued job of each enabled client has waited (0 when none waits), by client id.
pub async fn oldest_queued(tenancy: &Tenancy) -> Result<Vec<(String, f64)>, JobError> {
    let mut ages = Vec::new();
    for client in tenancy
        .list_clients()
        .await?
        .into_iter()
        .filter(|c| c.enabled)
    {
        let mut tx = tenancy.begin(&client).await?;
        let age = jobs::status::oldest_queued_age(&mut tx).await?;
        tx.commit().await?;
        ages.push((client.id.to_string(), age));
    }
    Ok(ages)
}
