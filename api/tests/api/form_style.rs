//! Issue 17, item 17: a form's style (colours, logo, button text) is validated, stored and handed to the public
//! viewer.
use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn send(
    app: &TestApp,
    session: &Session,
    method: Method,
    path: &str,
    body: Value,
) -> reqwest::Response {
    app.api(method, path, session)
        .json(&body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_forms_style_round_trips_to_the_public_viewer_and_bad_values_are_refused() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    // A new form without a style takes the default: every field null.
    let response = send(
        &app,
        &session,
        Method::POST,
        "/api/crm-form",
        json!({ "name": "Petition" }),
    )
    .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let form: Value = response.json().await.unwrap();
    let id = form["id"].as_i64().unwrap();
    assert_eq!(
        form["style"],
        json!({ "primaryColor": null, "backgroundColor": null, "logoUrl": null, "buttonText": null })
    );

    let style = json!({
        "primaryColor": "#1A7F37",
        "backgroundColor": "#fff8e1",
        "logoUrl": "https://cdn.example.org/logo.png",
        "buttonText": "  Join us  ",
    });
    let path = format!("/api/crm-form/{id}");
    let response = send(
        &app,
        &session,
        Method::PATCH,
        &path,
        json!({ "style": style }),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    let stored = json!({
        "primaryColor": "#1a7f37",
        "backgroundColor": "#fff8e1",
        "logoUrl": "https://cdn.example.org/logo.png",
        "buttonText": "Join us",
    });
    let saved: Value = response.json().await.unwrap();
    assert_eq!(saved["style"], stored);

    // A save without a style keeps it; the public viewer gets it with the body.
    let response = send(
        &app,
        &session,
        Method::PATCH,
        &path,
        json!({ "name": "Petition 2" }),
    )
    .await;
    assert_eq!(response.json::<Value>().await.unwrap()["style"], stored);
    let view: Value = app
        .request(Method::GET, &format!("/api/crm-form/{id}/viewer"))
        .header("client-short", &client.short_name)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(view["name"], "Petition 2");
    assert_eq!(view["style"], stored);

    let refused = [
        (
            json!({ "primaryColor": "green" }),
            "The primary colour must be a colour like #1a73e8",
        ),
        (
            json!({ "backgroundColor": "#12345" }),
            "The background colour must be a colour like #1a73e8",
        ),
        (
            json!({ "logoUrl": "http://cdn.example.org/logo.png" }),
            "The logo URL must start with https://",
        ),
        (
            json!({ "logoUrl": "javascript:alert(1)" }),
            "The logo URL must start with https://",
        ),
        (
            json!({ "logoUrl": format!("https://cdn.example.org/{}", "a".repeat(2000)) }),
            "The logo URL is too long",
        ),
        (
            json!({ "logoUrl": "data:image/svg+xml;base64,PHN2Zz4=" }),
            "The logo URL must start with https://",
        ),
        (
            json!({ "buttonText": "Join\nus" }),
            "The button text must be one line of at most 100 characters",
        ),
    ];
    for (bad, message) in refused {
        let response = send(
            &app,
            &session,
            Method::PATCH,
            &path,
            json!({ "style": bad.clone() }),
        )
        .await;
        assert_eq!(
            json_message(response).await,
            (StatusCode::BAD_REQUEST, message.to_owned()),
            "{bad}"
        );
    }
    // Refused on create too, and nothing is stored.
    let response = send(
        &app,
        &session,
        Method::POST,
        "/api/crm-form",
        json!({ "name": "Other", "style": { "primaryColor": "#zzzzzz" } }),
    )
    .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let forms: Value = app
        .api(Method::GET, "/api/crm-form", &session)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(forms.as_array().unwrap().len(), 1);

    // An uploaded logo travels as a data URL; an empty style puts the default back.
    let uploaded = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    let response = send(
        &app,
        &session,
        Method::PATCH,
        &path,
        json!({ "style": { "logoUrl": uploaded } }),
    )
    .await;
    assert_eq!(
        response.json::<Value>().await.unwrap()["style"]["logoUrl"],
        uploaded
    );
    let response = send(&app, &session, Method::PATCH, &path, json!({ "style": {} })).await;
    assert_eq!(
        response.json::<Value>().await.unwrap()["style"],
        json!({ "primaryColor": null, "backgroundColor": null, "logoUrl": null, "buttonText": null })
    );
}
