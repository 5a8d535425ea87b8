//! Group commit: sessions hand their messages to one committer, which writes whatever has gathered while the
//! previous writes were committing — one transaction per client per round — and then answers every message of the
//! round. Under load, many messages share one commit's wait for the disk; alone, a message waits for nothing.

use crate::ingest::ingest_many;
use crate::report::Report;
use mail::verp::BounceToken;
use std::collections::HashMap;
use std::sync::Arc;
use telemetry::Chain;
use tokio::sync::{mpsc, oneshot, Semaphore};

/// How long a round waits for more messages after its first.
const LINGER: std::time::Duration = std::time::Duration::from_millis(1);

/// What became of one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Stored and committed.
    Stored,
    /// Its client is gone or disabled: nothing stored.
    NoClient,
    /// Not stored: the sender should try again later.
    Failed,
}

struct Job {
    token: BounceToken,
    raw: Arc<[u8]>,
    /// Read by the session that received it, so the round's transaction waits for no parsing.
    report: Arc<Report>,
    done: oneshot::Sender<Outcome>,
}

/// The handle sessions submit to; clone it freely.
#[derive(Clone)]
pub struct Committer {
    jobs: mpsc::Sender<Job>,
}

impl Committer {
    /// Starts the committer: at most `max_batch` messages a round and `rounds` rounds committing at once.
    pub fn start(tenancy: tenancy::Tenancy, max_batch: usize, rounds: usize) -> Self {
        let (jobs, mut queue) = mpsc::channel::<Job>(max_batch.max(1) * rounds.max(1) * 2);
        let in_flight = Arc::new(Semaphore::new(rounds.max(1)));
        tokio::spawn(async move {
            loop {
                let Ok(permit) = in_flight.clone().acquire_owned().await else {
                    return;
                };
                let Some(first) = queue.recv().await else {
                    return;
                };
                let mut round = vec![first];
                // The sessions answered by the last round send their next messages a moment after the first of
                // them arrives: waiting a millisecond for them makes one round of many instead of a round of one
                // followed by a round of the rest.
                let linger = tokio::time::sleep(LINGER);
                tokio::pin!(linger);
                while round.len() < max_batch {
                    match queue.try_recv() {
                        Ok(job) => round.push(job),
                        Err(_) => tokio::select! {
                            job = queue.recv() => match job {
                                Some(job) => round.push(job),
                                None => break,
                            },
                            _ = &mut linger => break,
                        },
                    }
                }
                let tenancy = tenancy.clone();
                tokio::spawn(async move {
                    commit_round(&tenancy, round).await;
                    drop(permit);
                });
            }
        });
        Self { jobs }
    }

    /// Stores `raw` (read as `report`) for `token`'s client; answers once it is committed (or not).
    pub async fn submit(&self, token: BounceToken, raw: Arc<[u8]>, report: Arc<Report>) -> Outcome {
        let (done, answer) = oneshot::channel();
        let job = Job {
            token,
            raw,
            report,
            done,
        };
        if self.jobs.send(job).await.is_err() {
            return Outcome::Failed;
        }
        answer.await.unwrap_or(Outcome::Failed)
    }
}

async fn commit_round(tenancy: &tenancy::Tenancy, round: Vec<Job>) {
    let mut by_client: HashMap<i64, Vec<Job>> = HashMap::new();
    for job in round {
        by_client.entry(job.token.client_id).or_default().push(job);
    }
    for (client_id, jobs) in by_client {
        let messages: Vec<(BounceToken, &[u8], &Report)> = jobs
            .iter()
            .map(|j| (j.token, &j.raw[..], &*j.report))
            .collect();
        let outcome = commit(tenancy, client_id, &messages).await;
        if outcome == Outcome::Failed && jobs.len() > 1 {
            // One message the database refuses must not keep the others of its round from being stored: each
            // goes again on its own.
            for job in jobs {
                let message = (job.token, &job.raw[..], &*job.report);
                let outcome = commit(tenancy, client_id, &[message]).await;
                let _ = job.done.send(outcome);
            }
            continue;
        }
        for job in jobs {
            let _ = job.done.send(outcome);
        }
    }
}

async fn commit(
    tenancy: &tenancy::Tenancy,
    client_id: i64,
    messages: &[(BounceToken, &[u8], &Report)],
) -> Outcome {
    match ingest_many(tenancy, client_id, messages).await {
        Ok(Some(recorded)) => {
            tracing::info!(
                client_id,
                messages = messages.len(),
                stored = recorded.stored,
                suppressed = recorded.suppressed,
                "bounce messages recorded"
            );
            Outcome::Stored
        }
        Ok(None) => {
            tracing::info!(
                client_id,
                "bounce messages for a client that is gone or disabled: dropped"
            );
            Outcome::NoClient
        }
        Err(e) => {
            tracing::warn!(client_id, error = %Chain(&e), "bounce messages not stored");
            Outcome::Failed
        }
    }
}
