//! Issue 11: text Postgres cannot store is refused at the boundary (item 1), and the answers carry the headers
//! that keep them from being sniffed, cached or framed (item 15).

use crate::helpers::*;
use reqwest::{Method, RequestBuilder, StatusCode};
use serde_json::{json, Value};

/// The answer is the 400 naming `field`, in the api's usual error body.
async fn assert_refused(request: RequestBuilder, field: &str) {
    let response = request.send().await.unwrap();
    assert_eq!(
        json_message(response).await,
        (
            StatusCode::BAD_REQUEST,
            format!("{field}: must not contain a NUL character")
        )
    );
}

#[tokio::test]
async fn nul_byte_in_text_input_is_refused_with_400_auth_config_client() {
    let app = spawn_app().await;
    assert_refused(
        app.request(Method::GET, "/auth-api/auth/config?client=a%00"),
        "client",
    )
    .await;
}

#[tokio::test]
async fn nul_byte_in_text_input_is_refused_with_400_login_username() {
    let app = spawn_app().await;
    assert_refused(
        app.request(Method::POST, "/auth-api/auth/login")
            .json(&json!({ "username": "a\u{0}@example.org", "password": "x" })),
        "username",
    )
    .await;
}

#[tokio::test]
async fn nul_byte_in_text_input_is_refused_with_400_reset_email() {
    let app = spawn_app().await;
    assert_refused(
        app.request(Method::POST, "/auth-api/auth/reset-email")
            .json(&json!({ "email": "a\u{0}@example.org" })),
        "email",
    )
    .await;
}

#[tokio::test]
async fn nul_byte_in_text_input_is_refused_with_400_register_names() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    for field in ["firstname", "lastname"] {
        let mut body = json!({
            "email": format!("{}@example.org", unique("reg")),
            "password": PASSWORD,
            "firstname": "Ann",
            "lastname": "Lee",
            "phone": "",
            "twoFactorMethod": "email",
            "client": client.short_name,
        });
        body[field] = json!("A\u{0}nn");
        assert_refused(
            app.request(Method::POST, "/auth-api/auth/register")
                .json(&body),
            field,
        )
        .await;
    }
}

#[tokio::test]
async fn nul_byte_in_text_input_is_refused_with_400_contact_search() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    assert_refused(app.api(Method::GET, "/api/contacts?q=%00", &session), "q").await;
}

#[tokio::test]
async fn nul_byte_in_text_input_is_refused_with_400_role_patch() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let role: Value = app
        .api(Method::POST, "/api/roles", &session)
        .json(&json!({ "name": unique("role"), "permissions": [] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = role["id"].as_i64().expect("the role is created");
    assert_refused(
        app.api(Method::PATCH, &format!("/api/roles/{id}"), &session)
            .json(&json!({ "name": "Ed\u{0}itors", "permissions": [] })),
        "name",
    )
    .await;
    assert_refused(
        app.api(Method::PATCH, &format!("/api/roles/{id}"), &session)
            .json(&json!({ "name": "Editors", "permissions": ["ok", "x\u{0}"] })),
        "permissions[1]",
    )
    .await;
}

#[tokio::test]
async fn nul_byte_in_text_input_is_refused_with_400_profile_patch() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    assert_refused(
        app.api(Method::PATCH, "/auth-api/session/profile", &session)
            .json(&json!({
                "firstName": "Pat\u{0}",
                "lastName": "Lee",
                "phone": "",
                "twoFactorMethod": "email",
            })),
        "firstName",
    )
    .await;
}

#[tokio::test]
async fn nul_byte_in_text_input_is_refused_with_400_origin_codes() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    assert_refused(
        app.api(
            Method::GET,
            "/api/external-origin-code/search?q=web%00",
            &session,
        ),
        "q",
    )
    .await;
    assert_refused(
        app.api(
            Method::POST,
            "/api/external-origin-code/get-or-create-crm",
            &session,
        )
        .json(&json!({ "name": "web\u{0}" })),
        "name",
    )
    .await;
}

#[tokio::test]
async fn nul_byte_in_text_input_is_refused_with_400_list_and_form_names() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let code: Value = app
        .api(
            Method::POST,
            "/api/external-origin-code/get-or-create-crm",
            &session,
        )
        .json(&json!({ "name": "web" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_refused(
        app.api(Method::POST, "/api/crm-list", &session)
            .json(&json!({ "name": "Donors\u{0}", "originCodes": [code["id"]] })),
        "name",
    )
    .await;
    assert_refused(
        app.api(Method::POST, "/api/crm-form", &session)
            .json(&json!({ "name": "Signup\u{0}" })),
        "name",
    )
    .await;
    // The list upload names its list in the query string.
    let part = reqwest::multipart::Part::bytes(b"Email\na@example.org\n".to_vec())
        .file_name("list.csv".to_owned());
    assert_refused(
        app.api(
            Method::POST,
            "/api/crm-list/upload?name=Up%00load",
            &session,
        )
        .multipart(reqwest::multipart::Form::new().part("file", part)),
        "name",
    )
    .await;
    // Nothing was stored by any of them.
    let lists = app.get_json("/api/crm-list", &session).await;
    assert_eq!(lists, json!([]));
}

#[tokio::test]
async fn nul_byte_in_text_input_is_refused_with_400_upload_text_field() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let part = reqwest::multipart::Part::bytes(b"Email\na@example.org\n".to_vec())
        .file_name("contacts.csv".to_owned());
    let form = reqwest::multipart::Form::new()
        .part("file", part)
        .text("mapping", r#"{"Email":"email"}"#)
        .text("originCode", "web\u{0}");
    let response = app
        .api(Method::POST, "/api/imports/contacts", &session)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let (status, message) = json_message(response).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(message.contains("originCode"), "{message}");
}

#[tokio::test]
async fn nul_byte_in_text_input_is_refused_with_400_path_segment() {
    let app = spawn_app().await;
    assert_refused(
        app.request(Method::GET, "/api/unsubscribe/tok%00en"),
        "path",
    )
    .await;
}

#[tokio::test]
async fn token_answers_are_not_stored_and_api_answers_not_sniffed() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let email = app.create_user(true, &[]).await;

    // A token answer, and an error answer of the same operation.
    let login = app.login(&email, PASSWORD).await;
    assert_eq!(login.status(), StatusCode::OK);
    assert_eq!(login.headers()["x-content-type-options"], "nosniff");
    assert_eq!(login.headers()["cache-control"], "no-store");
    let refused = app.login(&email, "wrong").await;
    assert_eq!(refused.headers()["x-content-type-options"], "nosniff");
    assert_eq!(refused.headers()["cache-control"], "no-store");

    let basic = app.basic_token(&email).await;
    let chosen = app.client_login(&basic, client.id).await;
    assert_eq!(chosen.status(), StatusCode::OK);
    assert_eq!(chosen.headers()["cache-control"], "no-store");
    let body: Value = chosen.json().await.unwrap();
    let refresh = app
        .request(Method::POST, "/auth-api/auth/refresh")
        .json(&json!({ "refreshToken": body["refreshToken"] }))
        .send()
        .await
        .unwrap();
    assert_eq!(refresh.status(), StatusCode::OK);
    assert_eq!(refresh.headers()["cache-control"], "no-store");

    // /api JSON answers, a success and a 404.
    let session = app.session(&client).await;
    let lists = app
        .api(Method::GET, "/api/crm-list", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(lists.status(), StatusCode::OK);
    assert_eq!(lists.headers()["x-content-type-options"], "nosniff");
    let missing = app
        .request(Method::GET, "/api/no-such-thing/here")
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(missing.headers()["x-content-type-options"], "nosniff");
    let document = app
        .request(Method::GET, "/api/openapi.json")
        .send()
        .await
        .unwrap();
    assert_eq!(document.headers()["x-content-type-options"], "nosniff");
}

#[tokio::test]
async fn unsubscribe_page_and_api_docs_cannot_be_framed() {
    let app = spawn_app().await;
    for path in ["/api/unsubscribe/not-a-token", "/api/docs"] {
        let page = app.request(Method::GET, path).send().await.unwrap();
        assert_eq!(page.status(), StatusCode::OK, "{path}");
        let csp = page.headers()["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(page.headers()["x-frame-options"], "DENY", "{path}");
        assert_eq!(
            page.headers()["x-content-type-options"],
            "nosniff",
            "{path}"
        );
    }
}
