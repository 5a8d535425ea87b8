use crate::helpers::*;

use reqwest::{Method, StatusCode};

use serde_json::{json, Value};

async fn create_form(app: &TestApp, session: &Session, body: Value) -> Value {
    let response = app
        .api(Method::POST, "/api/crm-form", session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    response.json().await.unwrap()
}

/// A visitor: no token, only the client-short header, as the public viewer sends it.
fn public(
    app: &TestApp,
    method: Method,
    path: &str,
    client: &tenancy::Client,
) -> reqwest::RequestBuilder {
    app.request(method, path)
        .header("client-short", &client.short_name)
}

mod limits;
mod refusals;
mod submissions;
