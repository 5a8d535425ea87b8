//! ActBlue's contribution webhook. Each request waits on a channel; a few writer tasks take whatever has queued
//! up and write it per client in one transaction (group commit, as form submissions are written), then answer
//! every waiting request — so a 200 means the gift is on disk, and a burst costs a few transactions, not one each.
//!
//! ActBlue's refund webhook is the same body with `refundedAt` set on the contribution and its line items: it
//! marks the known line refunded (or adds it already marked). Its cancellation webhook (`cancelledAt`: a
//! recurring series stopped) refunds nothing, so its lines are written like any contribution's.

mod payload;
mod row;
mod write;

pub use payload::{Contribution, Donor, LineItem, Payload};

use crate::error::ApiError;
use row::{rows, Row};
use std::collections::HashMap;
use std::sync::Arc;
use tenancy::{Client, Tenancy};
use tokio::sync::{mpsc, oneshot, Mutex};
use write::write_batch;

const MAX_BATCH: usize = 256;

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
    /// Starts `writers` writer tasks on the current runtime.
    pub fn start(tenancy: Tenancy, writers: usize) -> Self {
        let (queue, rx) = mpsc::channel::<Pending>(8192);
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
        self.queue
            .send(Pending {
                client,
                rows,
                reply,
            })
            .await
            .map_err(|_| ApiError::internal("gift writer stopped"))?;
        answer
            .await
            .map_err(|_| ApiError::internal("gift writer dropped a webhook"))?
    }
}

async fn write_loop(tenancy: Tenancy, rx: Arc<Mutex<mpsc::Receiver<Pending>>>) {
    loop {
        let mut batch = Vec::new();
        {
            let mut rx = rx.lock().await;
            match rx.recv().await {
                Some(first) => batch.push(first),
                None => return,
            }
            while batch.len() < MAX_BATCH {
                match rx.try_recv() {
                    Ok(next) => batch.push(next),
                    Err(_) => break,
                }
            }
        }
        let mut by_client: HashMap<i64, Vec<Pending>> = HashMap::new();
        for item in batch {
            by_client.entry(item.client.id).or_default().push(item);
        }
        for (_, items) in by_client {
            match write_batch(&tenancy, &items).await {
                Ok(new) => {
                    for (item, n) in items.into_iter().zip(new) {
                        let _ = item.reply.send(Ok(n));
                    }
                }
                Err(e) => {
                    let message = e.to_string();
                    for item in items {
                        let _ = item.reply.send(Err(ApiError::internal(message.clone())));
                    }
                }
            }
        }
    }
}
