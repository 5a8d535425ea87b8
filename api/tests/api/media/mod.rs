//! Media and projections through the real endpoints and worker. A Meta Ads Manager and a Google Ads export go
//! through the upload endpoint and the import job; a re-import changes no figure; and CPM, CPC, CTR, CPL, cost
//! per donor, revenue and ROAS at 0/30/90/365 days equal the hand computation on the fixture below (README
//! "Media"), in the client's zone (America/New_York).

use crate::helpers::*;

use reqwest::{Method, StatusCode};

use serde_json::{json, Value};

async fn import(app: &TestApp, session: &Session, platform: &str, name: &str, body: &str) -> Value {
    let form = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(body.as_bytes().to_vec()).file_name(name.to_owned()),
        )
        .text("platform", platform.to_owned());
    let response = app
        .api(Method::POST, "/api/media/import", session)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let job: Value = response.json().await.unwrap();
    app.wait_for_job(session, job["id"].as_i64().unwrap()).await
}

mod bad_files;
mod figures;
mod projections;
