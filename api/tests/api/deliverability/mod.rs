//! Issue 30: deliverability — what is heard back after the send (the listener, the webhooks), and what it does (the
//! suppression rules, the suppression page's operations, the rates, the send that pauses itself).

use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use store::deliverability::{Kind, NewEvent, Source};

mod dkim;
mod guard;
mod inbound;
mod rates;
mod rules;
mod suppressions;
mod webhooks;

/// An event about `email` heard from `source` now (or `days_ago`).
fn event(source: Source, id: &str, kind: Kind, email: &str, days_ago: i64) -> NewEvent {
    NewEvent {
        source,
        source_event_id: Some(id.to_owned()),
        kind,
        status_code: match kind {
            Kind::HardBounce => Some("5.1.1".to_owned()),
            Kind::SoftBounce => Some("4.2.2".to_owned()),
            _ => None,
        },
        diagnostic: match kind {
            Kind::HardBounce => Some("550 5.1.1 No such user".to_owned()),
            Kind::SoftBounce => Some("452 4.2.2 Mailbox full".to_owned()),
            _ => None,
        },
        email: email.to_owned(),
        mailing_id: None,
        contact_id: None,
        occurred_at: chrono::Utc::now() - chrono::Duration::days(days_ago),
        evidence_id: None,
    }
}

/// Stores `events` in `client`'s schema, as every source does.
async fn record(
    app: &TestApp,
    client: &tenancy::Client,
    events: &[NewEvent],
) -> store::deliverability::Recorded {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let recorded = store::deliverability::record(&mut tx, events)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    recorded
}

async fn subscribed_contact(app: &TestApp, client: &tenancy::Client, email: &str) -> i64 {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let id = sqlx::query_scalar(
        "insert into contacts (email, first_name, subscription) values ($1, 'Pat', 'subscribed') returning id",
    )
    .bind(email)
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    id
}

async fn subscription(app: &TestApp, client: &tenancy::Client, email: &str) -> String {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let s = sqlx::query_scalar("select subscription from contacts where email = $1")
        .bind(email)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    s
}

/// The active suppressions as the page lists them (first page), by address.
async fn suppressed(app: &TestApp, session: &Session, q: &str) -> Vec<Value> {
    let page = app
        .get_json(&format!("/api/suppressions?q={q}"), session)
        .await;
    page["suppressions"].as_array().unwrap().clone()
}
