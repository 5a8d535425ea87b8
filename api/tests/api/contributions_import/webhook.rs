use super::*;

pub(super) fn basic(user: &str, password: &str) -> String {
    use base64::Engine;
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
    )
}

#[tokio::test]
async fn the_actblue_webhook_needs_its_credentials_and_writes_each_line_item_once() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let body = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/actblue-webhook.json"
    ))
    .unwrap();
    let url = format!("/api/webhooks/actblue/{}", client.short_name);
    let post = |auth: Option<String>| {
        let mut request = app
            .request(Method::POST, &url)
            .header("content-type", "application/json")
            .body(body.clone());
        if let Some(auth) = auth {
            request = request.header("authorization", auth);
        }
        request.send()
    };
    // No credentials set yet: nothing gets in.
    assert_eq!(
        post(Some(basic("actblue", "long-enough-secret")))
            .await
            .unwrap()
            .status(),
        StatusCode::UNAUTHORIZED
    );

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
    let saved: Value = response.json().await.unwrap();
    assert_eq!(
        (
            saved["actblueWebhookUsername"].as_str(),
            saved["actblueWebhookPasswordSet"].as_bool()
        ),
        (Some("actblue"), Some(true))
    );
    assert_eq!(saved["timeZone"], "America/New_York");

    for wrong in [
        None,
        Some(basic("actblue", "wrong-password-here")),
        Some(basic("someone", "long-enough-secret")),
        Some("Bearer long-enough-secret".to_owned()),
    ] {
        let response = post(wrong.clone()).await.unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{wrong:?}");
    }
    assert_eq!(contribution_count(&app, &client).await, 0);
    let other = app
        .request(Method::POST, "/api/webhooks/actblue/nosuchclient")
        .header("authorization", basic("actblue", "long-enough-secret"))
        .header("content-type", "application/json")
        .body(body.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), StatusCode::UNAUTHORIZED);

    let right = Some(basic("actblue", "long-enough-secret"));
    let first = post(right.clone()).await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(first.json::<Value>().await.unwrap()["newLineItems"], 2);
    // ActBlue retries: a replay writes nothing new.
    let replay = post(right).await.unwrap();
    assert_eq!(replay.json::<Value>().await.unwrap()["newLineItems"], 0);

    let mut tx = app.tenancy.begin(&client).await.unwrap();
    type Gift = (
        String,
        String,
        String,
        String,
        Option<i32>,
        String,
        Option<bool>,
        String,
        String,
    );
    let gifts: Vec<Gift> = sqlx::query_as(
        "select g.line_item_id, g.receipt_id, g.amount::text, g.email, g.recurring_months, g.refcode, g.mobile,
                to_char(g.paid_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS'), o.name
         from contributions g join contacts c on c.id = g.contact_id join origin_codes o on o.id = c.origin_code_id
         order by g.line_item_id",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    let expected = |line: &str, amount: &str| {
        (
            line.to_owned(),
            "AB81234567".to_owned(),
            amount.to_owned(),
            "rosa.parks@example.org".to_owned(),
            Some(0),
            "em_20260331_qend_match_a".to_owned(),
            Some(true),
            "2026-04-01 03:41:09".to_owned(),
            "actblue".to_owned(),
        )
    };
    assert_eq!(
        gifts,
        vec![expected("55501", "25.00"), expected("55502", "10.00")]
    );
    let parsed: bool = sqlx::query_scalar(
        "select parsed from source_codes where code = 'em_20260331_qend_match_a'",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    assert!(parsed);
}
