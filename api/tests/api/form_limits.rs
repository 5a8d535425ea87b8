//! The public form limits are counted in Redis: two api processes behind one address share one count.

use crate::helpers::{spawn_app_with, unique, TestApp};
use reqwest::{Method, StatusCode};
use serde_json::json;

async fn limited_app(prefix: &str) -> TestApp {
    let prefix = prefix.to_owned();
    spawn_app_with(move |s| {
        s.job_queue = prefix;
        s.form_submits_per_minute = 2;
        s.form_views_per_minute = 3;
    })
    .await
}

fn public(app: &TestApp, path: &str, client: &tenancy::Client) -> reqwest::RequestBuilder {
    app.request(Method::POST, path)
        .header("client-short", &client.short_name)
}

#[tokio::test]
async fn two_api_processes_share_one_count_per_address() {
    let prefix = unique("compass-test-limits-");
    let first = limited_app(&prefix).await;
    let second = limited_app(&prefix).await;
    let client = first.create_client().await;
    let session = first.session(&client).await;
    let created = first
        .api(Method::POST, "/api/crm-form", &session)
        .json(&json!({ "name": "Shared limit" }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    let id = created.json::<serde_json::Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap();
    let submit = format!("/api/crm-form/{id}/submit");
    let view = format!("/api/crm-form/{id}/view");

    let mut submits = Vec::new();
    for (i, app) in [&first, &second, &first, &second].into_iter().enumerate() {
        let answer = public(app, &submit, &client)
            .json(&json!({ "email": format!("p{i}@example.org") }))
            .send()
            .await
            .unwrap();
        submits.push(answer.status().as_u16());
    }
    // Two submits per minute in all: each process alone would have taken two.
    assert_eq!(submits, vec![200, 200, 429, 429]);

    let mut views = Vec::new();
    for app in [&second, &first, &second, &first] {
        let answer = public(app, &view, &client).send().await.unwrap();
        views.push(answer.status().as_u16());
    }
    assert_eq!(views, vec![204, 204, 204, 429]);
    assert_eq!(
        first
            .get_json(&format!("/api/crm-form/{id}"), &session)
            .await["submissionCount"],
        2
    );
}
