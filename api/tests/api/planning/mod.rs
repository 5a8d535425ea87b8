//! Email › Planning against a hand-built fixture in America/New_York (docs/planning.md): every figure below is
//! worked out by hand from the rows inserted here.

use crate::helpers::*;

use reqwest::{Method, StatusCode};

use serde_json::{json, Value};

async fn send(
    app: &TestApp,
    session: &Session,
    method: Method,
    path: &str,
    body: Value,
) -> (StatusCode, Value) {
    let response = app
        .api(method, path, session)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn entries<'a>(calendar: &'a Value, kind: &str) -> Vec<&'a Value> {
    calendar["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == kind)
        .collect()
}

mod drafts;
mod months;
