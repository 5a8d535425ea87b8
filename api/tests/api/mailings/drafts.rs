use super::*;

#[tokio::test]
async fn mailings_are_drafted_confirmed_and_locked_once_sending_started() {
    let app = spawn_app().await;
    let session = app.session(&app.create_client().await).await;
    let sender = post(
        &app,
        &session,
        "/api/sender",
        json!({ "name": "Team River", "fromAddress": "Team@River.org" }),
    )
    .await;
    assert_eq!(sender["fromAddress"], "team@river.org");
    let names = app.get_json("/api/sender/sender-names", &session).await;
    assert_eq!(
        names,
        json!([{ "id": sender["id"], "label": "Team River <team@river.org>" }])
    );
    let list_id = list(&app, &session).await;
    let mut body = json!({ "name": "June appeal", "subjectLine": "Rivers need you", "senderId": sender["id"],
                           "sendTime": "2026-12-01T15:00:00Z", "listId": list_id, "bodyHtml": "<p>Hi</p>", "isDraft": true });
    let draft = post(&app, &session, "/api/crm-mailing", body.clone()).await;
    assert_eq!(
        (draft["isDraft"].as_bool(), draft["sendAttempt"].as_str()),
        (Some(true), None)
    );
    assert_eq!(
        (draft["senderName"].as_str(), draft["listName"].as_str()),
        (Some("Team River"), Some("Donors"))
    );
    assert_eq!(
        (draft["recipCount"].as_i64(), draft["openCount"].as_i64()),
        (Some(0), Some(0))
    );
    let id = draft["id"].as_i64().unwrap();

    body["isDraft"] = json!(false);
    let confirmed = app
        .api(Method::PATCH, &format!("/api/crm-mailing/{id}"), &session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(confirmed.status(), StatusCode::OK);
    assert_eq!(
        app.get_json(&format!("/api/crm-mailing/{id}"), &session)
            .await["isDraft"],
        false
    );

    let mut tx = app.tenancy.begin(&session.client).await.unwrap();
    sqlx::query("update mailings set send_attempt = now() where id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let locked = app
        .api(Method::PATCH, &format!("/api/crm-mailing/{id}"), &session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(locked).await,
        (
            StatusCode::CONFLICT,
            "A sent mailing cannot be changed".to_owned()
        )
    );

    // Header injection through the subject is refused outright.
    body["subjectLine"] = json!("Hi\r\nBcc: everyone@example.org");
    let injected = app
        .api(Method::POST, "/api/crm-mailing", &session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(injected).await,
        (
            StatusCode::BAD_REQUEST,
            "Subject line must be a single line".to_owned()
        )
    );
    body["subjectLine"] = json!("Fine");
    body["listId"] = json!(987654);
    let unknown = app
        .api(Method::POST, "/api/crm-mailing", &session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(unknown).await,
        (StatusCode::BAD_REQUEST, "Unknown list".to_owned())
    );

    let deleted = app
        .api(Method::DELETE, &format!("/api/crm-mailing/{id}"), &session)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_eq!(app.get_json("/api/crm-mailing", &session).await, json!([]));
}
