use super::*;

#[tokio::test]
async fn templates_are_created_edited_listed_and_deleted() {
    let app = spawn_app().await;
    let session = app.session(&app.create_client().await).await;
    let t = post(
        &app,
        &session,
        "/api/crm-mailing-template",
        json!({ "name": "Monthly", "bodyHtml": "<p>Hi {{First.Name}}</p>" }),
    )
    .await;
    let id = t["id"].as_i64().unwrap();
    let patched = app
        .api(
            Method::PATCH,
            &format!("/api/crm-mailing-template/{id}"),
            &session,
        )
        .json(&json!({ "name": "Monthly update" }))
        .send()
        .await
        .unwrap();
    assert_eq!(patched.status(), StatusCode::OK);
    let all = app.get_json("/api/crm-mailing-template", &session).await;
    assert_eq!(all[0]["name"], "Monthly update");
    assert_eq!(all[0]["bodyHtml"], "<p>Hi {{First.Name}}</p>");
    let nameless = app
        .api(Method::POST, "/api/crm-mailing-template", &session)
        .json(&json!({ "name": "" }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(nameless).await,
        (
            StatusCode::BAD_REQUEST,
            "Template name is required".to_owned()
        )
    );
    let deleted = app
        .api(
            Method::DELETE,
            &format!("/api/crm-mailing-template/{id}"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let gone = app
        .api(
            Method::GET,
            &format!("/api/crm-mailing-template/{id}"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
}
