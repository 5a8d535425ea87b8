//! ActBlue's contribution webhook. Each request waits on a channel; a few writer tasks take whatever has queued
//! up and write it per client in one transaction (group commit, as form submissions are written), then answer
//! every waiting request — so a 200 means the gift is on disk, and a burst costs a few transactions, not one each.
//!
//! A deadline-day burst is absorbed, not passed on to the pool: the writers hold one connection each (the
//! webhook's share of the pool, so sign-ins and pages keep theirs), up to `QUEUE` webhooks wait for them, a
//! request waits at most `QUEUE_WAIT` for a place and `ANSWER_WAIT` for its write, and past either it is answered
//! 429 with `Retry-After` (ActBlue retries; a write that lands later makes the retry a replay). A write that
//! meets a deadlock or a busy pool is retried; a group that fails otherwise is written webhook by webhook, so one
//! bad webhook fails alone.
//!
//! ActBlue's refund webhook is the same body with `refundedAt` set on the contribution and its line items: it
//! marks the known line refunded (or adds it already marked). Its cancellation webhook (`cancelledAt`: a
//! recurring series stopped) refunds nothing, so its lines are written like any contribution's.

mod credentials;
mod payload;
mod row;
mod write;

pub use credentials::{basic_credentials, Basic, Gate, VERIFIED_FOR};
pub use payload::{Contribution, Donor, LineItem, Payload};

use crate::error::ApiError;
use crate::group_commit::{next_round, retrying, transient};
use row::{rows, Row};
use std::sync::Arc;
use std::time::Duration;
use tenancy::{Client, Tenancy};
use tokio::sync::{mpsc, oneshot, Mutex};
use write::write_batch;

const MAX_BATCH: usize = 256;
/// Webhooks waiting for a writer, per process.
pub const QUEUE: usize = 4096;
/// The longest a webhook waits for a place in a full queue.
const QUEUE_WAIT: Duration = Duration::from_secs(2);
/// The longest a webhook waits for its write, well inside ActBlue's own timeout.
const ANSWER_WAIT: Duration = Duration::from_secs(20);
/// What a webhook answered 429 is told to wait.
const RETRY_AFTER_SECS: u64 = 5;

fn busy() -> ApiError {
    ApiError::RetryLater {
        message: "Too many contributions are waiting to be written; retry shortly".to_owned(),
        after_secs: RETRY_AFTER_SECS,
    }
}

/// What one webhook changed: line items written new, and line items it marked refunded (new ones included).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Written {
    pub new: i64,
    pub refunded: i64,
}

struct Pending {
    client: Client,
    rows: Vec<Row>,
    reply: oneshot::Sender<Result<Written, ApiError>>,
}

pub struct GiftWriter {
    queue: mpsc::Sender<Pending>,
}

impl GiftWriter {
    /// Starts `writers` writer tasks on the current runtime; each holds at most one pool connection.
    pub fn start(tenancy: Tenancy, writers: usize) -> Self {
        let (queue, rx) = mpsc::channel::<Pending>(QUEUE);
        let rx = Arc::new(Mutex::new(rx));
        for _ in 0..writers.max(1) {
            tokio::spawn(write_loop(tenancy.clone(), rx.clone()));
        }
        Self { queue }
    }

    /// Writes the payload's line items durably; answers how many were new and how many it marked refunded (a
    /// replay does neither).
    pub async fn submit(&self, client: Client, payload: &Payload) -> Result<Written, ApiError> {
        let rows = rows(payload)?;
        let (reply, answer) = oneshot::channel();
        let pending = Pending {
            client,
            rows,
            reply,
        };
        match self.queue.send_timeout(pending, QUEUE_WAIT).await {
            Ok(()) => {}
            Err(mpsc::error::SendTimeoutError::Timeout(_)) => return Err(busy()),
            Err(mpsc::error::SendTimeoutError::Closed(_)) => {
                return Err(ApiError::internal("gift writer stopped"))
            }
        }
        match tokio::time::timeout(ANSWER_WAIT, answer).await {
            Ok(written) => {
                written.map_err(|_| ApiError::internal("gift writer dropped a webhook"))?
            }
            Err(_) => Err(busy()),
        }
    }
}

async fn write_loop(tenancy: Tenancy, rx: Arc<Mutex<mpsc::Receiver<Pending>>>) {
    loop {
        let round = {
            let mut rx = rx.lock().await;
            next_round(&mut rx, MAX_BATCH, |p: &Pending| p.client.id).await
        };
        let Some(groups) = round else {
            return;
        };
        for items in groups {
            match write_retrying(&tenancy, &items).await {
                Ok(new) => answer(items, new),
                // One bad webhook must not fail the others of its group: each is written alone.
                Err(_) if items.len() > 1 => {
                    for item in items {
                        let outcome = write_retrying(&tenancy, std::slice::from_ref(&item)).await;
                        match outcome {
                            Ok(new) => answer(vec![item], new),
                            Err(e) => fail(vec![item], e),
                        }
                    }
                }
                Err(e) => fail(items, e),
            }
        }
    }
}

fn answer(items: Vec<Pending>, new: Vec<Written>) {
    for (item, n) in items.into_iter().zip(new) {
        let _ = item.reply.send(Ok(n));
    }
}

/// A passing condition (deadlock, busy pool, database away) is answered 429 for ActBlue to retry, never 500.
fn fail(items: Vec<Pending>, e: ApiError) {
    let passing = transient(&e);
    if !passing {
        tracing::error!(error = %telemetry::Chain(&e), "actblue webhook write failed");
    }
    // One failure answers every item of the batch, each answer keeping it as its cause.
    let cause = Arc::new(e);
    for item in items {
        let _ = item.reply.send(Err(if passing {
            busy()
        } else {
            ApiError::internal(Arc::clone(&cause))
        }));
    }
}

async fn write_retrying(tenancy: &Tenancy, items: &[Pending]) -> Result<Vec<Written>, ApiError> {
    retrying("actblue webhook", || write_batch(tenancy, items)).await
}
