use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

#[tokio::test]
async fn app_settings_are_read_and_updated() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    let settings: Value = app
        .api(Method::GET, "/api", &session)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        settings,
        json!({ "id": 1, "client_id": client.id, "client_name": client.name, "client_short": client.short_name,
                "mediaEnabled": false, "timeZone": "America/New_York", "actblueOriginCode": "actblue",
                "winredOriginCode": "winred", "refcodePattern": "{channel}_{date:yyyymmdd}_{campaign}_{variant}",
                "mailingRefcodePattern": "em_{yyyymmdd}_{mailing}_{variant}", "attributionWindowDays": 3,
                "donationDomains": [], "fiscalYearStart": 1, "actblueWebhookUsername": null, "electionDay": null,
                "actblueWebhookPasswordSet": false, "softBounceLimit": 3, "softBounceDays": 30,
                "guardAfterDelivered": 2000, "complaintPausePercent": "0.3", "hardBouncePausePercent": "5" })
    );

    let updated = app
        .api(Method::PATCH, "/api/1", &session)
        .json(&json!({ "client_name": "Friends of the River", "mediaEnabled": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(updated.status(), StatusCode::OK);
    let again: Value = app
        .api(Method::GET, "/api/", &session)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(again["client_name"], "Friends of the River");
    assert_eq!(again["mediaEnabled"], true);

    // Only the fields sent change.
    app.api(Method::PATCH, "/api/1", &session)
        .json(&json!({ "mediaEnabled": false }))
        .send()
        .await
        .unwrap();
    let third: Value = app
        .api(Method::GET, "/api", &session)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (
            third["client_name"].as_str(),
            third["mediaEnabled"].as_bool()
        ),
        (Some("Friends of the River"), Some(false))
    );
}

#[tokio::test]
async fn bad_settings_updates_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    let wrong_id = app
        .api(Method::PATCH, "/api/2", &session)
        .json(&json!({ "client_name": "X" }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(wrong_id).await,
        (StatusCode::NOT_FOUND, "App settings not found".to_owned())
    );

    let empty = app
        .api(Method::PATCH, "/api/1", &session)
        .json(&json!({ "client_name": "" }))
        .send()
        .await
        .unwrap();
    assert_eq!(empty.status(), StatusCode::BAD_REQUEST);

    let malformed = app
        .api(Method::PATCH, "/api/1", &session)
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(malformed.status(), StatusCode::BAD_REQUEST);

    let settings: Value = app
        .api(Method::GET, "/api", &session)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(settings["client_name"], client.name.as_str());
}

#[tokio::test]
async fn a_new_refcode_pattern_reads_the_stored_codes_again() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("insert into source_codes (code) values ('em_20260301_spring_a'), ('fb-spring')")
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let parts = |codes: &Value, code: &str| {
        let row = codes["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["code"] == code)
            .unwrap()
            .clone();
        (
            row["parsed"].clone(),
            row["channel"].clone(),
            row["campaign"].clone(),
            row["variant"].clone(),
        )
    };

    let patch = app
        .api(Method::PATCH, "/api/1", &session)
        .json(&json!({ "refcodePattern": "{channel}-{campaign}" }))
        .send()
        .await
        .unwrap();
    assert_eq!(patch.status(), StatusCode::OK);
    let codes = app
        .get_json(
            "/api/contribution-source-codes?from=2026-01-01&to=2026-12-31",
            &session,
        )
        .await;
    assert_eq!(
        parts(&codes, "fb-spring"),
        (json!(true), json!("fb"), json!("spring"), Value::Null)
    );
    assert_eq!(
        parts(&codes, "em_20260301_spring_a"),
        (json!(false), Value::Null, Value::Null, Value::Null)
    );

    // Back to the default: the first code fits again, the second no longer does.
    app.api(Method::PATCH, "/api/1", &session)
        .json(&json!({ "refcodePattern": "{channel}_{date:yyyymmdd}_{campaign}_{variant}" }))
        .send()
        .await
        .unwrap();
    let codes = app
        .get_json(
            "/api/contribution-source-codes?from=2026-01-01&to=2026-12-31",
            &session,
        )
        .await;
    assert_eq!(
        parts(&codes, "em_20260301_spring_a"),
        (json!(true), json!("em"), json!("spring"), json!("a"))
    );
    assert_eq!(parts(&codes, "fb-spring").0, json!(false));
}
