//! Relays' delivery webhooks (SES via SNS, SendGrid, Postmark, Mailgun) with their documented payloads: each
//! produces the right events, suppressions and contact statuses; a bad signature or credential is refused 401 and
//! stores nothing; an event delivered again changes nothing; one client's credentials do not open another's.

mod isolation;
mod mailgun;
mod postmark;
mod sendgrid;
mod ses;

use crate::helpers::*;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tenancy::Client;

const TOPIC: &str = "arn:aws:sns:us-east-1:123456789012:ses-feedback";
const POSTMARK_USER: &str = "postmark";
const POSTMARK_PASSWORD: &str = "postmark-hook-secret";
const MAILGUN_KEY: &str = "key-3ax6xnjp29jd6fds4gc373sgvjxteol0";

fn fixture_path(name: &str) -> String {
    format!(
        "{}/tests/fixtures/deliverability/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A fixture with its `{{PLACEHOLDERS}}` filled in.
fn fixture(name: &str, fill: &[(&str, &str)]) -> String {
    let mut text = std::fs::read_to_string(fixture_path(name)).unwrap();
    for (k, v) in fill {
        text = text.replace(&format!("{{{{{k}}}}}"), v);
    }
    text
}

async fn pinned_app() -> TestApp {
    spawn_app_with(|s| s.ses_sns_cert_pem = Some(fixture_path("sns-test-cert.pem").into())).await
}

/// A client with an administrator, a mailing and contacts `emails`; answers the contacts' ids in order.
async fn client_with(app: &TestApp, emails: &[&str]) -> (Client, Session, i64, Vec<i64>) {
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let origin: i64 =
        sqlx::query_scalar("insert into origin_codes (name) values ('web') returning id")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    let mut contacts = Vec::new();
    for email in emails {
        let id: i64 = sqlx::query_scalar(
            "insert into contacts (email, origin_code_id) values ($1, $2) returning id",
        )
        .bind(*email)
        .bind(origin)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        contacts.push(id);
    }
    let mailing: i64 = sqlx::query_scalar(
        "insert into mailings (name, subject_line) values ('Giving day', 'Give') returning id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    (client, session, mailing, contacts)
}

fn message_id(mailing: i64, contact: i64, client: &Client) -> String {
    format!("<m{mailing}.c{contact}.k{}@example.org>", client.id)
}

async fn configure(app: &TestApp, session: &Session, provider: &str, body: Value) -> Value {
    let response = app
        .api(
            Method::PATCH,
            &format!("/api/delivery-webhooks/{provider}"),
            session,
        )
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let v: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

/// Posts a webhook body; answers the status and the JSON answer.
async fn post(
    app: &TestApp,
    provider: &str,
    client: &Client,
    body: &str,
    headers: &[(&str, String)],
) -> (StatusCode, Value) {
    let mut request = app
        .request(
            Method::POST,
            &format!("/api/webhooks/delivery/{provider}/{}", client.short_name),
        )
        .header("content-type", "application/json")
        .body(body.to_owned());
    for (k, v) in headers {
        request = request.header(*k, v);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[derive(Debug, PartialEq, sqlx::FromRow)]
struct Event {
    kind: String,
    bounce_type: Option<String>,
    status_code: Option<String>,
    email: String,
    mailing_id: Option<i64>,
    contact_id: Option<i64>,
    has_evidence: bool,
}

async fn events(app: &TestApp, client: &Client) -> Vec<Event> {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query_as(
        "select kind, bounce_type, status_code, email, mailing_id, contact_id, evidence_id is not null as has_evidence
         from delivery_events order by kind, id",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap()
}

fn event(
    kind: &str,
    bounce: Option<&str>,
    status: Option<&str>,
    email: &str,
    tied: Option<(i64, i64)>,
) -> Event {
    Event {
        kind: kind.into(),
        bounce_type: bounce.map(Into::into),
        status_code: status.map(Into::into),
        email: email.into(),
        mailing_id: tied.map(|t| t.0),
        contact_id: tied.map(|t| t.1),
        has_evidence: true,
    }
}

/// (rows of delivery_events, rows of delivery_evidence, active suppressions).
async fn counts(app: &TestApp, client: &Client) -> (i64, i64, i64) {
    (
        app.scalar_in(client, "select count(*) from delivery_events")
            .await,
        app.scalar_in(client, "select count(*) from delivery_evidence")
            .await,
        app.scalar_in(
            client,
            "select count(*) from suppressions where lifted_at is null",
        )
        .await,
    )
}

/// (reason of the active suppression, the contact's subscription).
async fn standing(app: &TestApp, client: &Client, email: &str) -> (Option<String>, String) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let reason: Option<String> = sqlx::query_scalar(
        "select reason from suppressions where email = $1 and lifted_at is null",
    )
    .bind(email)
    .fetch_optional(&mut *tx)
    .await
    .unwrap();
    let subscription: String =
        sqlx::query_scalar("select subscription from contacts where email = $1")
            .bind(email)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    (reason, subscription)
}
