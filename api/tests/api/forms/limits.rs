use super::*;

#[tokio::test]
async fn public_endpoints_limit_each_address_and_answer_no_cross_site_callers() {
    let app = spawn_app_with(|s| {
        s.form_submits_per_minute = 2;
        s.form_views_per_minute = 3;
    })
    .await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let id = create_form(&app, &session, json!({ "name": "Limited" })).await["id"]
        .as_i64()
        .unwrap();

    let mut statuses = Vec::new();
    for i in 0..3 {
        let response = public(
            &app,
            Method::POST,
            &format!("/api/crm-form/{id}/submit"),
            &client,
        )
        .json(&json!({ "email": format!("p{i}@example.org") }))
        .send()
        .await
        .unwrap();
        statuses.push(response.status().as_u16());
    }
    assert_eq!(statuses, vec![200, 200, 429]);
    let mut views = Vec::new();
    for _ in 0..4 {
        views.push(
            public(
                &app,
                Method::POST,
                &format!("/api/crm-form/{id}/view"),
                &client,
            )
            .send()
            .await
            .unwrap()
            .status()
            .as_u16(),
        );
    }
    assert_eq!(views, vec![204, 204, 204, 429]);
    assert_eq!(
        app.get_json(&format!("/api/crm-form/{id}"), &session).await["submissionCount"],
        2
    );

    // A page on another site may not call these endpoints from a browser: no CORS grant is ever given.
    let preflight = app
        .request(Method::OPTIONS, &format!("/api/crm-form/{id}/submit"))
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "client-short, content-type",
        )
        .send()
        .await
        .unwrap();
    assert!(preflight
        .headers()
        .get("access-control-allow-origin")
        .is_none());
}
