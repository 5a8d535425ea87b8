//! Open and click events arrive in bursts from mail clients; they are verified, kept in memory and written in
//! one statement per client twice a second (and on shutdown), so a burst costs a few inserts, not one each.

use crate::auth::in_client;
use crate::error::ApiError;
use mail::links::Recipient;
use mail::render::TEST_CONTACT;
use std::collections::HashMap;
use std::sync::Mutex;
use tenancy::Tenancy;

#[derive(Debug, Clone)]
pub struct Event {
    pub recipient: Recipient,
    pub kind: &'static str,
    pub machine: bool,
    pub url: Option<String>,
    pub at: chrono::DateTime<chrono::Utc>,
}

/// Open and click events received and not yet written (Prometheus gauge).
const BUFFERED: &str = "compass_tracking_events_buffered";

#[derive(Default)]
pub struct EventBuffer {
    pending: Mutex<Vec<Event>>,
}

/// Privacy proxies and security scanners fetch every image and link; their hits are kept but marked apart.
pub fn is_machine(user_agent: Option<&str>) -> bool {
    let Some(ua) = user_agent.map(str::to_ascii_lowercase) else {
        return true;
    };
    [
        "googleimageproxy",
        "yahoomailproxy",
        "bot",
        "crawler",
        "spider",
        "scanner",
        "preview",
        "proxy",
        "barracuda",
        "mimecast",
        "proofpoint",
        "symantec",
        "python-requests",
        "curl/",
        "wget",
    ]
    .iter()
    .any(|needle| ua.contains(needle))
}

impl EventBuffer {
    pub fn push(&self, event: Event) -> Result<(), ApiError> {
        self.pending
            .lock()
            .map_err(|_| ApiError::internal("event buffer poisoned"))?
            .push(event);
        metrics::gauge!(BUFFERED).increment(1.0);
        Ok(())
    }

    /// Writes everything buffered. Events of a client whose write fails go back for the next flush.
    pub async fn flush(&self, tenancy: &Tenancy) {
        let events: Vec<Event> = match self.pending.lock() {
            Ok(mut pending) => std::mem::take(&mut *pending),
            Err(_) => return,
        };
        metrics::gauge!(BUFFERED).decrement(events.len() as f64);
        let mut by_client: HashMap<i64, Vec<Event>> = HashMap::new();
        for e in events {
            by_client.entry(e.recipient.client_id).or_default().push(e);
        }
        for (client_id, events) in by_client {
            if let Err(e) = write(tenancy, client_id, &events).await {
                tracing::warn!(client_id, error = %telemetry::Chain(&e), "tracking events not written; will retry");
                if let Ok(mut pending) = self.pending.lock() {
                    metrics::gauge!(BUFFERED).increment(events.len() as f64);
                    pending.extend(events);
                }
            }
        }
    }
}

async fn write(tenancy: &Tenancy, client_id: i64, events: &[Event]) -> Result<(), ApiError> {
    let Some(client) = tenancy.enabled_client(client_id).await? else {
        return Ok(());
    };
    let (tests, events): (Vec<&Event>, Vec<&Event>) = events
        .iter()
        .partition(|e| e.recipient.contact_id == TEST_CONTACT);
    let test_mailings: Vec<i64> = tests.iter().map(|e| e.recipient.mailing_id).collect();
    let test_kinds: Vec<&str> = tests.iter().map(|e| e.kind).collect();
    let test_urls: Vec<Option<&str>> = tests.iter().map(|e| e.url.as_deref()).collect();
    let test_at: Vec<chrono::DateTime<chrono::Utc>> = tests.iter().map(|e| e.at).collect();
    let mailings: Vec<i64> = events.iter().map(|e| e.recipient.mailing_id).collect();
    let contacts: Vec<i64> = events.iter().map(|e| e.recipient.contact_id).collect();
    let kinds: Vec<&str> = events.iter().map(|e| e.kind).collect();
    let machine: Vec<bool> = events.iter().map(|e| e.machine).collect();
    let urls: Vec<Option<&str>> = events.iter().map(|e| e.url.as_deref()).collect();
    let at: Vec<chrono::DateTime<chrono::Utc>> = events.iter().map(|e| e.at).collect();
    in_client(tenancy, &client, async |tx| {
        if !tests.is_empty() {
            store::tracking::insert_test_events(
                tx,
                &test_mailings,
                &test_kinds,
                &test_urls,
                &test_at,
            )
            .await?;
        }
        if events.is_empty() {
            return Ok(());
        }
        let batch = store::tracking::Events {
            mailing_ids: &mailings,
            contact_ids: &contacts,
            kinds: &kinds,
            machine: &machine,
            urls: &urls,
            at: &at,
        };
        store::tracking::insert_events(tx, &batch).await?;
        Ok(())
    })
    .await
}
