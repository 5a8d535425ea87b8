//! Issue 15: a mailing's audience (a list or a segment, minus suppressions) and its variants, sent for real to a
//! local SMTP sink.

use crate::helpers::*;

use reqwest::{Method, StatusCode};

use serde_json::{json, Value};

async fn post(app: &TestApp, session: &Session, path: &str, body: Value) -> Value {
    let response = app
        .api(Method::POST, path, session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED, "{path}");
    response.json().await.unwrap()
}

type Inbox = std::sync::Arc<std::sync::Mutex<Vec<mail::sink::Delivered>>>;

async fn start_sink() -> (u16, Inbox) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let inbox: Inbox = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let store = inbox.clone();
    tokio::spawn(mail::sink::serve_with_policy(
        listener,
        std::sync::Arc::new(move |m| store.lock().unwrap().push(m)),
        std::sync::Arc::new(|_: &str| None),
    ));
    (port, inbox)
}

/// Contacts `emails` (subscribed), their ids in order.
async fn contacts(app: &TestApp, client: &tenancy::Client, emails: &[&str]) -> Vec<i64> {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let ids: Vec<i64> = sqlx::query_scalar(
        "insert into contacts (email, first_name, subscription)
         select e, initcap(split_part(e, '@', 1)), 'subscribed' from unnest($1::text[]) with ordinality x (e, n)
         order by n returning id",
    )
    .bind(emails)
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    ids
}

async fn upload_list(app: &TestApp, client: &tenancy::Client, name: &str, members: &[i64]) -> i64 {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let id: i64 =
        sqlx::query_scalar("insert into crm_lists (name, kind) values ($1, 'upload') returning id")
            .bind(name)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    sqlx::query(
        "insert into crm_list_members (list_id, contact_id) select $1, unnest($2::bigint[])",
    )
    .bind(id)
    .bind(members)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    id
}

async fn sender(app: &TestApp, session: &Session) -> i64 {
    post(
        app,
        session,
        "/api/sender",
        json!({ "name": "Team", "fromAddress": "team@example.org" }),
    )
    .await["id"]
        .as_i64()
        .unwrap()
}

async fn send_now(app: &TestApp, client: &tenancy::Client, mailing_id: i64) {
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

async fn wait_done(app: &TestApp, session: &Session, id: i64) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let m = app
            .get_json(&format!("/api/crm-mailing/{id}"), session)
            .await;
        if m["delivery"] == "done" {
            return m;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "mailing {id} never finished: {m}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

fn tomorrow() -> String {
    (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339()
}

mod suppression;
mod variants;
