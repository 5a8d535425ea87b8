//! Issue 17, item 11: list, template and form names are unique per client, compared without case.
use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn post(app: &TestApp, session: &Session, path: &str, body: Value) -> reqwest::Response {
    app.api(Method::POST, path, session)
        .json(&body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_second_list_template_or_form_of_the_same_name_is_refused_with_409() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let other = app.create_client().await;
    let session = app.session(&client).await;
    let other_session = app.session(&other).await;
    let code: Value = post(
        &app,
        &session,
        "/api/external-origin-code/get-or-create-crm",
        json!({ "name": "web" }),
    )
    .await
    .json()
    .await
    .unwrap();
    let code = code["id"].as_i64().unwrap();

    let list = json!({ "name": "Donors", "originCodes": [code] });
    assert_eq!(
        post(&app, &session, "/api/crm-list", list).await.status(),
        StatusCode::CREATED
    );
    let again = json!({ "name": "  donors ", "originCodes": [code] });
    let (status, message) = json_message(post(&app, &session, "/api/crm-list", again).await).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(message, "A list with this name already exists");
    // An upload list of a taken name is refused before the file is stored.
    let response = app
        .upload(
            "/api/crm-list/upload?name=DONORS",
            &session,
            "donors.csv",
            b"Email\nann@example.org\n".to_vec(),
        )
        .await;
    let (status, message) = json_message(response).await;
    assert_eq!(
        (status, message.as_str()),
        (StatusCode::CONFLICT, "A list with this name already exists")
    );

    let template = json!({ "name": "Welcome", "bodyHtml": "<p>Hi</p>" });
    let created = post(
        &app,
        &session,
        "/api/crm-mailing-template",
        template.clone(),
    )
    .await;
    assert!(created.status().is_success());
    let (status, message) = json_message(
        post(
            &app,
            &session,
            "/api/crm-mailing-template",
            json!({ "name": "WELCOME", "bodyHtml": "" }),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(message, "A template with this name already exists");
    // Renaming another template onto a taken name is refused the same way.
    let second: Value = post(
        &app,
        &session,
        "/api/crm-mailing-template",
        json!({ "name": "Appeal", "bodyHtml": "" }),
    )
    .await
    .json()
    .await
    .unwrap();
    let renamed = app
        .api(
            Method::PATCH,
            &format!("/api/crm-mailing-template/{}", second["id"]),
            &session,
        )
        .json(&json!({ "name": "welcome" }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(renamed).await,
        (
            StatusCode::CONFLICT,
            "A template with this name already exists".to_owned()
        )
    );

    let form = json!({ "name": "Petition", "originCodeName": "petition" });
    assert!(post(&app, &session, "/api/crm-form", form)
        .await
        .status()
        .is_success());
    let (status, message) = json_message(
        post(
            &app,
            &session,
            "/api/crm-form",
            json!({ "name": "petition", "originCodeName": "petition" }),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(message, "A form with this name already exists");

    // Another client may use the same names.
    let list = json!({ "name": "Donors", "originCodes": [] });
    let status = post(&app, &other_session, "/api/crm-list", list)
        .await
        .status();
    assert_ne!(status, StatusCode::CONFLICT);
    assert!(
        post(&app, &other_session, "/api/crm-mailing-template", template)
            .await
            .status()
            .is_success()
    );
}
