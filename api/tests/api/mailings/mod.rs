use crate::helpers::*;

use reqwest::{Method, StatusCode};

use serde_json::{json, Value};

pub(crate) async fn post(app: &TestApp, session: &Session, path: &str, body: Value) -> Value {
    let response = app
        .api(Method::POST, path, session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED, "{path}");
    response.json().await.unwrap()
}

pub(crate) async fn list(app: &TestApp, session: &Session) -> i64 {
    let mut tx = app.tenancy.begin(&session.client).await.unwrap();
    let id = sqlx::query_scalar(
        "insert into crm_lists (name, kind) values ('Donors', 'upload') returning id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    id
}

/// A local SMTP sink answering each recipient as `policy` says.
pub(crate) async fn start_sink_with(
    policy: mail::sink::RecipientPolicy,
) -> (
    u16,
    std::sync::Arc<std::sync::Mutex<Vec<mail::sink::Delivered>>>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let inbox = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let store = inbox.clone();
    tokio::spawn(mail::sink::serve_with_policy(
        listener,
        std::sync::Arc::new(move |m| store.lock().unwrap().push(m)),
        policy,
    ));
    (port, inbox)
}

/// A confirmed mailing to a list of `emails` (all subscribed), with its sender; returns its id.
pub(crate) async fn confirmed_mailing(app: &TestApp, session: &Session, emails: &[String]) -> i64 {
    let sender = post(
        app,
        session,
        "/api/sender",
        json!({ "name": "Team", "fromAddress": "team@example.org" }),
    )
    .await;
    let list_id = list(app, session).await;
    let mut tx = app.tenancy.begin(&session.client).await.unwrap();
    sqlx::query(
        "with c as (insert into contacts (email, first_name, subscription)
                    select e, 'Pat', 'subscribed' from unnest($2::text[]) e returning id)
         insert into crm_list_members (list_id, contact_id) select $1, id from c",
    )
    .bind(list_id)
    .bind(emails)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let mailing = post(
        app,
        session,
        "/api/crm-mailing",
        json!({ "name": "Appeal", "subjectLine": "Hello", "senderId": sender["id"],
                "sendTime": (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339(), "listId": list_id,
                "bodyHtml": "<p>Dear {{First.Name}},</p>", "isDraft": false }),
    )
    .await;
    mailing["id"].as_i64().unwrap()
}

/// Starts the send at once, as the scheduler does when the send time comes (claim, then queue the job).
pub(crate) async fn send_now(app: &TestApp, client: &tenancy::Client, mailing_id: i64) {
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query("update mailings set send_attempt = now(), delivery = 'sending' where id = $1")
        .bind(mailing_id)
        .execute(&mut *tx)
        .await
        .unwrap();
    queue
        .enqueue(tx, None, &jobs::JobKind::SendMailing { mailing_id })
        .await
        .unwrap();
}

/// Polls the mailing until its delivery is `state`.
pub(crate) async fn wait_for_delivery(
    app: &TestApp,
    session: &Session,
    id: i64,
    state: &str,
) -> Value {
    let mut mailing = Value::Null;
    // Two minutes: under the whole test run's load a scheduler pass over every client can take many seconds.
    for _ in 0..1200 {
        mailing = app
            .get_json(&format!("/api/crm-mailing/{id}"), session)
            .await;
        if mailing["delivery"] == state {
            return mailing;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("mailing {id} never reached {state}: {mailing}");
}

/// The first recipient of each delivered message, sorted.
pub(crate) fn delivered_to(inbox: &std::sync::Mutex<Vec<mail::sink::Delivered>>) -> Vec<String> {
    let mut to: Vec<String> = inbox
        .lock()
        .unwrap()
        .iter()
        .map(|m| m.recipients[0].clone())
        .collect();
    to.sort();
    to
}

pub(crate) fn addresses(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}@example.org")).collect()
}

mod crash_safety;
mod delivery;
mod drafts;
mod issue27;
mod pacing;
mod smtp_faults;
mod templates;
mod test_send;
mod warmup;
