//! A job never waits for a worker that stopped listening (issue 28): the database path runs a job whose queue
//! message is gone, a worker whose queue poll stalls is noticed and ends, and the api says when no worker is live.

mod database_claim;
mod reconcile;
mod stalled_poll;
mod waiting_for_worker;

use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::Value;

/// Starts a recount job through the api and returns its id.
async fn recount(app: &TestApp, session: &Session) -> i64 {
    let response = app
        .api(Method::POST, "/api/crm-list/recount", session)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    response.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap()
}
