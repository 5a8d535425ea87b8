//! Journeys (issue 31): definitions checked and versioned through the api; the engine run pass by pass (the
//! scheduler's pass for the test's own client) on the movable clock, delivering to a local SMTP sink.

use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

mod burst;
mod definitions;
mod engine;
mod figures_agree;
mod on_events;
mod regular_cap;
mod timing;
mod triggers;
mod variants;

/// A client with a sender, a template, a form and an upload list, an api that honours the movable clock, and a
/// worker delivering to the returned inbox.
pub(crate) struct Fixture {
    pub app: TestApp,
    pub session: Session,
    pub queue: jobs::JobQueue,
    pub template: i64,
    pub form: i64,
    pub list: i64,
    pub inbox: std::sync::Arc<std::sync::Mutex<Vec<mail::sink::Delivered>>>,
    _worker: WorkerHandle,
}

pub(crate) async fn fixture() -> Fixture {
    // The movable clock is honoured only by a process started with this; every journeys test sets it first.
    std::env::set_var("COMPASS_TEST_CLOCK", "1");
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let (template, form, list): (i64, i64, i64) = sqlx::query_as(
        "with s as (insert into senders (name, from_address) values ('Team River', 'team@river.org')),
              t as (insert into mailing_templates (name, body_html)
                    values ('Welcome', '<p>Dear {{First.Name}}, welcome.</p>') returning id),
              o as (insert into origin_codes (name) values ('petition') returning id),
              f as (insert into forms (name, origin_code_id) select 'Petition', id from o returning id),
              l as (insert into crm_lists (name, kind) values ('Rescue', 'upload') returning id)
         select t.id, f.id, l.id from t, f, l",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    Fixture {
        app,
        session,
        queue,
        template,
        form,
        list,
        inbox,
        _worker: worker,
    }
}

impl Fixture {
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = self.app.api(method, path, &self.session);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        let text = response.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    /// Creates and activates a journey; its id.
    pub async fn active_journey(&self, name: &str, definition: Value) -> i64 {
        let (status, body) = self
            .call(
                Method::POST,
                "/api/journeys",
                Some(json!({ "name": name, "definition": definition })),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let id = body["id"].as_i64().unwrap();
        let (status, body) = self
            .call(Method::POST, &format!("/api/journeys/{id}/activate"), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        id
    }

    /// Submits the public form as a person would.
    pub async fn sign_up(&self, email: &str) {
        let response = self
            .app
            .request(Method::POST, &format!("/api/crm-form/{}/submit", self.form))
            .header("client-short", &self.session.client.short_name)
            .json(&json!({ "email": email }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
    }

    /// The scheduler's journeys pass for this client.
    pub async fn pass(&self) -> worker::JourneysPass {
        worker::journeys_due(&self.app.tenancy, &self.queue, &self.session.client)
            .await
            .unwrap()
    }

    pub async fn advance(&self, hours: f64) -> chrono::DateTime<chrono::Utc> {
        let (status, body) = self
            .call(
                Method::POST,
                "/api/system/test-clock",
                Some(json!({ "advance_hours": hours })),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["now"].as_str().unwrap().parse().unwrap()
    }

    pub async fn exec(&self, sql: &str) {
        self.app.exec_in(&self.session.client, sql).await;
    }

    pub async fn scalar(&self, sql: &str) -> i64 {
        self.app.scalar_in(&self.session.client, sql).await
    }

    /// Subscribed contacts with these addresses (first name: the part before the @, capitalised); their ids.
    pub async fn contacts(&self, emails: &[&str]) -> Vec<i64> {
        let mut tx = self.app.tenancy.begin(&self.session.client).await.unwrap();
        let ids = sqlx::query_scalar(
            "insert into contacts (email, first_name)
             select e, initcap(split_part(e, '@', 1)) from unnest($1::text[]) with ordinality u (e, n)
             order by n returning id",
        )
        .bind(emails)
        .fetch_all(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
        ids
    }

    /// Waits until the sink holds `n` messages; their (recipient, subject) pairs, sorted.
    pub async fn delivered(&self, n: usize) -> Vec<(String, String)> {
        wait_until(
            "journey mail at the sink",
            std::time::Duration::from_secs(20),
            || async {
                let all = self.inbox.lock().unwrap().clone();
                (all.len() >= n).then(|| {
                    let mut pairs: Vec<(String, String)> = all
                        .iter()
                        .map(|m| {
                            let (to, subject, _) = read_message(m);
                            (to, subject)
                        })
                        .collect();
                    pairs.sort();
                    pairs
                })
            },
        )
        .await
    }

    /// The contact's places: (journey name, step, state, exit reason).
    pub async fn places(&self, contact: i64) -> Vec<Value> {
        let (status, body) = self
            .call(
                Method::GET,
                &format!("/api/contacts/{contact}/journeys"),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body.as_array().unwrap().clone()
    }
}

/// A message at the sink: its recipient, its subject and its decoded text.
pub(crate) fn read_message(m: &mail::sink::Delivered) -> (String, String, String) {
    let raw = unqp(&String::from_utf8_lossy(&m.data));
    let subject = raw
        .lines()
        .find_map(|l| l.strip_prefix("Subject: "))
        .unwrap_or("")
        .to_owned();
    (m.recipients[0].clone(), subject, raw)
}
