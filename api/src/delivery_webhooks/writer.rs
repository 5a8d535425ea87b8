//! Group commit for the relays' webhooks. Each request is authenticated and read by its own handler, then waits
//! on a channel; a few writer tasks take whatever has queued up and write it per client in one transaction under
//! the client's webhook lock — the Mailgun tokens, the evidence, the events and what they do — and then answer
//! every waiting request, each with what became of its own events. A 200 still means its events are on disk; a
//! burst costs a few transactions instead of one each (written one by one behind the lock, a relay's burst went
//! no faster than 98 events/s).
//!
//! A request waits at most `QUEUE_WAIT` for a place and `ANSWER_WAIT` for its write, and past either is answered
//! 429 with `Retry-After`, which every one of these relays retries. A group that meets a deadlock is written
//! again; one that fails otherwise is written request by request, so one bad request fails alone.

use super::{refused, Parsed, Receipt};
use crate::error::ApiError;
use crate::group_commit::{next_round, retrying, transient};
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use store::deliverability::webhooks::{self, Token};
use store::deliverability::{self, Source};
use tenancy::{Client, Tenancy};
use tokio::sync::{mpsc, oneshot};

const MAX_BATCH: usize = 256;
/// Requests waiting for a writer, per process.
const QUEUE: usize = 4096;
/// The longest a request waits for a place in a full queue.
const QUEUE_WAIT: Duration = Duration::from_secs(5);
/// The longest a request waits for its write, inside every relay's own timeout.
const ANSWER_WAIT: Duration = Duration::from_secs(20);
const RETRY_AFTER_SECS: u64 = 5;

fn busy() -> ApiError {
    ApiError::RetryLater {
        message: "Too many webhooks are waiting to be written; retry shortly".to_owned(),
        after_secs: RETRY_AFTER_SECS,
    }
}

/// One authenticated request, read, waiting to be written.
pub(super) struct Request {
    pub client: Client,
    pub source: Source,
    pub content_type: String,
    pub body: Vec<u8>,
    pub parsed: Parsed,
}

struct Pending {
    request: Request,
    reply: oneshot::Sender<Result<Receipt, ApiError>>,
}

/// One queue per writer task, and a client always on the same one: its requests are written one round after the
/// other by one task, in rounds as large as what has queued up, instead of two tasks taking half each and then
/// waiting for each other on the client's lock. Other clients' rounds go on beside it.
pub(super) struct EventWriter {
    queues: Vec<mpsc::Sender<Pending>>,
}

impl EventWriter {
    /// Starts `writers` writer tasks on the current runtime; each holds at most one pool connection.
    pub fn start(tenancy: Tenancy, writers: usize) -> Self {
        let queues = (0..writers.max(1))
            .map(|_| {
                let (queue, rx) = mpsc::channel::<Pending>(QUEUE);
                tokio::spawn(write_loop(tenancy.clone(), rx));
                queue
            })
            .collect();
        Self { queues }
    }

    /// Writes the request's evidence and new events durably; answers how many were stored and how many addresses
    /// they suppressed (a retry of a known event does neither and keeps no evidence).
    pub async fn submit(&self, request: Request) -> Result<Receipt, ApiError> {
        let (reply, answer) = oneshot::channel();
        let lane = usize::try_from(request.client.id.unsigned_abs()).unwrap_or_default()
            % self.queues.len().max(1);
        let Some(queue) = self.queues.get(lane) else {
            return Err(ApiError::internal("delivery webhook writer stopped"));
        };
        match queue
            .send_timeout(Pending { request, reply }, QUEUE_WAIT)
            .await
        {
            Ok(()) => {}
            Err(mpsc::error::SendTimeoutError::Timeout(_)) => return Err(busy()),
            Err(mpsc::error::SendTimeoutError::Closed(_)) => {
                return Err(ApiError::internal("delivery webhook writer stopped"))
            }
        }
        match tokio::time::timeout(ANSWER_WAIT, answer).await {
            Ok(written) => written
                .map_err(|_| ApiError::internal("delivery webhook writer dropped a request"))?,
            Err(_) => Err(busy()),
        }
    }
}

async fn write_loop(tenancy: Tenancy, mut rx: mpsc::Receiver<Pending>) {
    while let Some(groups) = next_round(&mut rx, MAX_BATCH, |p: &Pending| p.request.client.id).await
    {
        for items in groups {
            match write_retrying(&tenancy, &items).await {
                Ok(answers) => answer(items, answers),
                // One bad request must not fail the others of its group: each is written alone.
                Err(_) if items.len() > 1 => {
                    for item in items {
                        match write_retrying(&tenancy, std::slice::from_ref(&item)).await {
                            Ok(answers) => answer(vec![item], answers),
                            Err(e) => fail(item, e),
                        }
                    }
                }
                Err(e) => {
                    if let Some(item) = items.into_iter().next() {
                        fail(item, e);
                    }
                }
            }
        }
    }
}

fn answer(items: Vec<Pending>, answers: Vec<Result<Receipt, ApiError>>) {
    for (item, a) in items.into_iter().zip(answers) {
        let _ = item.reply.send(a);
    }
}

/// A passing condition (deadlock, busy pool, database away) is answered 429 for the relay to retry, never 500.
fn fail(item: Pending, e: ApiError) {
    let e = if transient(&e) {
        busy()
    } else {
        tracing::error!(error = %telemetry::Chain(&e), "delivery webhook write failed");
        e
    };
    let _ = item.reply.send(Err(e));
}

async fn write_retrying(
    tenancy: &Tenancy,
    items: &[Pending],
) -> Result<Vec<Result<Receipt, ApiError>>, ApiError> {
    retrying("delivery webhook", || write_group(tenancy, items)).await
}

/// Writes one client's requests in one transaction, each as it would have been written alone in their order: a
/// Mailgun token used before (or earlier in the group) for another event refuses its request, an event stored
/// before (or earlier in the group) is not stored again, and a request left with nothing new keeps no evidence.
async fn write_group(
    tenancy: &Tenancy,
    items: &[Pending],
) -> Result<Vec<Result<Receipt, ApiError>>, ApiError> {
    let Some(first) = items.first() else {
        return Ok(Vec::new());
    };
    let requests: Vec<&Request> = items.iter().map(|p| &p.request).collect();
    crate::auth::in_client(tenancy, &first.request.client, async |tx| {
        webhooks::lock(tx).await?;
        // The look-ups below run as prepared statements on tables a burst is filling: a plan kept from when the
        // table was small reads it whole (known events took 6 ms a round late in a 10,000-event burst).
        sqlx::query("set local plan_cache_mode = force_custom_plan")
            .execute(&mut **tx)
            .await?;

        let signed: Vec<(usize, &str, &str)> = requests
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                r.parsed
                    .mailgun_token
                    .as_ref()
                    .map(|(t, e)| (i, t.as_str(), e.as_str()))
            })
            .collect();
        let pairs: Vec<(&str, &str)> = signed.iter().map(|(_, t, e)| (*t, *e)).collect();
        let taken = webhooks::take_mailgun_tokens(tx, &pairs).await?;
        let replayed: HashSet<usize> = signed
            .iter()
            .zip(taken)
            .filter(|(_, t)| *t == Token::Replayed)
            .map(|((i, _, _), _)| *i)
            .collect();

        let mut ids_by_source: HashMap<Source, Vec<String>> = HashMap::new();
        for (i, r) in requests.iter().enumerate() {
            if replayed.contains(&i) {
                continue;
            }
            if let Some((topic, url)) = &r.parsed.subscription {
                webhooks::save_subscription(tx, topic, url).await?;
            }
            let ids = ids_by_source.entry(r.source).or_default();
            ids.extend(
                r.parsed
                    .events
                    .iter()
                    .filter_map(|e| e.source_event_id.clone()),
            );
        }
        let mut seen: HashSet<(Source, String)> = HashSet::new();
        for (source, ids) in &ids_by_source {
            for id in webhooks::known_events(tx, *source, ids).await? {
                seen.insert((*source, id));
            }
        }

        // Each request's new events (none twice, in this group or before it), and the requests that keep evidence.
        let mut kept: Vec<Vec<deliverability::NewEvent>> = Vec::with_capacity(requests.len());
        let mut with_evidence: Vec<usize> = Vec::new();
        for (i, r) in requests.iter().enumerate() {
            let mut events = Vec::new();
            if !replayed.contains(&i) {
                for e in &r.parsed.events {
                    let new = match &e.source_event_id {
                        Some(id) => seen.insert((r.source, id.clone())),
                        None => true,
                    };
                    if new {
                        events.push(e.clone());
                    }
                }
                if !events.is_empty() || r.parsed.subscription.is_some() {
                    with_evidence.push(i);
                }
            }
            kept.push(events);
        }
        let bodies: Vec<(Source, &str, &[u8])> = with_evidence
            .iter()
            .map(|&i| {
                let r = requests[i];
                (r.source, r.content_type.as_str(), r.body.as_slice())
            })
            .collect();
        let evidence = deliverability::store_evidence_many(tx, &bodies).await?;
        for (&i, id) in with_evidence.iter().zip(evidence) {
            for e in &mut kept[i] {
                e.evidence_id = Some(id);
            }
        }

        // All the group's events in one batch; each request is told what became of its own.
        let owner: Vec<usize> = kept
            .iter()
            .enumerate()
            .flat_map(|(i, events)| std::iter::repeat_n(i, events.len()))
            .collect();
        let all: Vec<deliverability::NewEvent> = kept.into_iter().flatten().collect();
        let recorded = deliverability::record(tx, &all).await?;
        let mut receipts = vec![Receipt::default(); requests.len()];
        for at in recorded.stored_events {
            if let Some(&i) = owner.get(at) {
                receipts[i].stored += 1;
            }
        }
        for at in recorded.suppressing_events {
            if let Some(&i) = owner.get(at) {
                receipts[i].suppressed += 1;
            }
        }
        Ok(receipts
            .into_iter()
            .enumerate()
            .map(|(i, receipt)| match replayed.contains(&i) {
                true => Err(refused("This signature was already used")),
                false => Ok(receipt),
            })
            .collect())
    })
    .await
}
