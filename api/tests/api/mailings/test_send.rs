use super::*;

#[tokio::test]
async fn send_to_my_inbox_delivers_one_rendered_copy_to_the_signed_in_user() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let client = app.create_client().await;
    let email = app.create_user(true, &[]).await;
    let session = app.session_for(&email, &client).await;
    let sender = post(
        &app,
        &session,
        "/api/sender",
        json!({ "name": "Team River", "fromAddress": "team@river.org" }),
    )
    .await;
    let response = app
        .api(Method::POST, "/api/crm-mailing/send-to-my-inbox", &session)
        .json(
            &json!({ "name": "June", "subjectLine": "Rivers need you", "senderId": sender["id"],
                        "bodyHtml": "<p>Dear {{First.Name}} ({{ Email }}){{Unknown.Tag}}</p>" }),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let result: Value = response.json().await.unwrap();
    assert_eq!(
        (result["message"].as_str(), result["to"].as_str()),
        (Some("Draft sent"), Some(email.as_str()))
    );

    let delivered = inbox.lock().unwrap().clone();
    assert_eq!(delivered.len(), 1);
    assert_eq!(delivered[0].recipients, vec![email.clone()]);
    let raw = String::from_utf8_lossy(&delivered[0].data).to_string();
    assert!(raw.contains("Subject: [Test] Rivers need you"), "{raw}");
    assert!(raw.contains(&format!("Dear Test ({email})</p>")), "{raw}");
    assert!(!raw.contains("{{"), "{raw}");
}

#[tokio::test]
async fn issue_17_bug_3_send_to_my_inbox_merges_the_subject_like_the_real_send() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let client = app.create_client().await;
    let email = app.create_user(true, &[]).await;
    let session = app.session_for(&email, &client).await;
    let sender = post(
        &app,
        &session,
        "/api/sender",
        json!({ "name": "Team River", "fromAddress": "team@river.org" }),
    )
    .await;
    let response = app
        .api(Method::POST, "/api/crm-mailing/send-to-my-inbox", &session)
        .json(
            &json!({ "name": "June", "subjectLine": "Hello {{First.Name}}, rivers need you", "senderId": sender["id"],
                     "bodyHtml": "<p>Hi</p>" }),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let raw = String::from_utf8_lossy(&inbox.lock().unwrap()[0].data).to_string();
    assert!(
        raw.contains("Subject: [Test] Hello Test, rivers need you"),
        "{raw}"
    );
}

#[tokio::test]
async fn send_to_my_inbox_says_so_when_the_mail_server_is_down() {
    let app = spawn_app().await;
    let session = app.session(&app.create_client().await).await;
    let sender = post(
        &app,
        &session,
        "/api/sender",
        json!({ "name": "T", "fromAddress": "t@example.org" }),
    )
    .await;
    let response = app
        .api(Method::POST, "/api/crm-mailing/send-to-my-inbox", &session)
        .json(&json!({ "name": "N", "subjectLine": "S", "senderId": sender["id"], "bodyHtml": "<p>x</p>" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
}
