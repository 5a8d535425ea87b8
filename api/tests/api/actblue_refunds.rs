//! ActBlue's refund and cancellation webhooks on the per-client webhook endpoint.

use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::Value;

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn basic(user: &str, password: &str) -> String {
    use base64::Engine;
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
    )
}

/// (line item id, refunded at as UTC text) of every line, in id order.
async fn lines(app: &TestApp, client: &tenancy::Client) -> Vec<(String, Option<String>)> {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query_as(
        "select line_item_id, to_char(refunded_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')
         from contributions order by line_item_id",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap()
}

/// Posts one webhook with the right credentials; answers (new line items, refunded line items).
async fn send(app: &TestApp, url: &str, body: Value) -> (i64, i64) {
    let response = app
        .request(Method::POST, url)
        .header("authorization", basic("actblue", "long-enough-secret"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let v: Value = response.json().await.unwrap();
    (
        v["newLineItems"].as_i64().unwrap(),
        v["refundedLineItems"].as_i64().unwrap(),
    )
}

#[tokio::test]
async fn a_refund_webhook_marks_its_line_refunded_once_and_a_cancellation_refunds_nothing() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let settings = app.get_json("/api", &session).await;
    let response = app
        .api(Method::PATCH, &format!("/api/{}", settings["id"]), &session)
        .json(&serde_json::json!({
            "actblueWebhookUsername": "actblue",
            "actblueWebhookPassword": "long-enough-secret"
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let url = format!("/api/webhooks/actblue/{}", client.short_name);
    let answer = |body: Value| send(&app, &url, body);

    // The refund of line 55501 arrives before its contribution: the line is added already refunded.
    let refund = fixture("actblue-refund-webhook.json");
    let mut only_refunded = refund.clone();
    only_refunded["lineitems"]
        .as_array_mut()
        .unwrap()
        .truncate(1);
    assert_eq!(answer(only_refunded).await, (1, 1));
    // The contribution webhook then adds the other line and leaves the refunded one as it is.
    assert_eq!(answer(fixture("actblue-webhook.json")).await, (1, 0));
    // The full refund webhook (and ActBlue's retry of it) changes nothing more.
    assert_eq!(answer(refund.clone()).await, (0, 0));
    assert_eq!(answer(refund.clone()).await, (0, 0));
    let refunded_at = Some("2026-04-02 14:15:00".to_owned());
    assert_eq!(
        lines(&app, &client).await,
        vec![
            ("55501".to_owned(), refunded_at.clone()),
            ("55502".to_owned(), None)
        ]
    );

    // A known line: contribution first, refund later. The whole contribution is refunded when no line names
    // its own refund date.
    let mut gift = fixture("actblue-webhook.json");
    for (i, line) in gift["lineitems"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        line["lineitemId"] = Value::from(66601 + i as i64);
    }
    assert_eq!(answer(gift.clone()).await, (2, 0));
    let mut whole = gift.clone();
    whole["contribution"]["refundedAt"] = Value::from("2026-04-03 09:00:00");
    assert_eq!(answer(whole.clone()).await, (0, 2));
    assert_eq!(answer(whole).await, (0, 0));

    // A cancelled recurring series keeps the money it already gave.
    let mut cancelled = fixture("actblue-webhook.json");
    for (i, line) in cancelled["lineitems"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        line["lineitemId"] = Value::from(77701 + i as i64);
    }
    cancelled["contribution"]["cancelledAt"] = Value::from("2026-04-05T08:00:00-04:00");
    assert_eq!(answer(cancelled).await, (2, 0));

    // Offset-less refund dates are in the client's zone (America/New_York: 09:00 EDT is 13:00 UTC).
    let at = |d: &str| Some(d.to_owned());
    assert_eq!(
        lines(&app, &client).await,
        vec![
            ("55501".to_owned(), refunded_at),
            ("55502".to_owned(), None),
            ("66601".to_owned(), at("2026-04-03 13:00:00")),
            ("66602".to_owned(), at("2026-04-03 13:00:00")),
            ("77701".to_owned(), None),
            ("77702".to_owned(), None),
        ]
    );

    // The page's figures follow: March 31 holds six gifts of 25 + 10 (gross 105), three of them refunded
    // (25 + 25 + 10 = 60), so net 45.
    let summary = app
        .get_json(
            "/api/contributions/summary?from=2026-03-31&to=2026-03-31",
            &session,
        )
        .await;
    assert_eq!(
        (
            summary["gifts"].as_i64(),
            summary["gross"].as_str(),
            summary["refunds"].as_str(),
            summary["net"].as_str()
        ),
        (Some(6), Some("105.00"), Some("60.00"), Some("45.00"))
    );
}
