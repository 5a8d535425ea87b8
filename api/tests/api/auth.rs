use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::Value;

#[tokio::test]
async fn login_gives_a_basic_token_and_refuses_bad_credentials_alike() {
    let app = spawn_app().await;
    let email = app.create_user(true, &[]).await;

    let ok = app.login(&email.to_uppercase(), PASSWORD).await;
    assert_eq!(ok.status(), StatusCode::OK);
    let body: Value = ok.json().await.unwrap();
    assert_eq!(body["twoFactorRequired"], false);
    assert_eq!(body["email"], email.as_str());
    assert!(body["accessToken"].as_str().unwrap().len() > 20);

    let wrong = json_message(app.login(&email, "Wrong-passw0rd").await).await;
    let unknown = json_message(app.login("nobody@example.org", PASSWORD).await).await;
    assert_eq!(
        wrong,
        (
            StatusCode::UNAUTHORIZED,
            "Incorrect email or password".to_owned()
        )
    );
    // An unknown address gets the very same answer: no account enumeration.
    assert_eq!(unknown, wrong);
}

#[tokio::test]
async fn a_user_sees_and_may_enter_only_the_clients_granted() {
    let app = spawn_app().await;
    let granted = app.create_client().await;
    let other = app.create_client().await;
    let email = app.create_user(false, &[&granted]).await;
    let basic = app.basic_token(&email).await;

    let clients: Vec<Value> = app
        .request(Method::GET, "/auth-api/session/clients")
        .bearer_auth(&basic)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ids: Vec<i64> = clients.iter().map(|c| c["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, vec![granted.id]);
    assert_eq!(clients[0]["label"], granted.name.as_str());

    let refused = json_message(app.client_login(&basic, other.id).await).await;
    assert_eq!(
        refused,
        (
            StatusCode::FORBIDDEN,
            "You do not have access to this client".to_owned()
        )
    );

    let session = app.session_for(&email, &granted).await;
    let claims = decode_claims(&session.token);
    assert_eq!(claims["scope"], serde_json::json!(["basic", "client"]));
    assert_eq!(claims["clientId"], granted.id);
    assert_eq!(claims["clientShort"], granted.short_name.as_str());
    assert_eq!(claims["user"]["email"], email.as_str());
}

#[tokio::test]
async fn api_calls_need_a_valid_client_token_with_matching_headers() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    let anonymous = app.request(Method::GET, "/api/jobs").send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    assert!(json_message(anonymous).await.1.len() > 3);

    // Same claims, signed with another key.
    let forged = forge(&session.token);
    let response = app
        .request(Method::GET, "/api/jobs")
        .bearer_auth(forged)
        .header("client-short", &client.short_name)
        .header("client-id", client.id.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(response).await,
        (
            StatusCode::UNAUTHORIZED,
            "Invalid or expired token".to_owned()
        )
    );

    // A step-1 token has not chosen a client.
    let basic = app.basic_token(&app.create_user(true, &[]).await).await;
    let response = app
        .request(Method::GET, "/api/jobs")
        .bearer_auth(basic)
        .header("client-short", &client.short_name)
        .header("client-id", client.id.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(response).await,
        (StatusCode::FORBIDDEN, "Select a client first".to_owned())
    );

    // Headers missing or naming anything but the token's client are refused, not corrected.
    for (short, id) in [
        (None, None),
        (Some("someoneelse"), Some(client.id.to_string())),
        (Some(client.short_name.as_str()), Some("999999".to_owned())),
    ] {
        let mut request = app
            .request(Method::GET, "/api/jobs")
            .bearer_auth(&session.token);
        if let Some(short) = short {
            request = request.header("client-short", short);
        }
        if let Some(id) = id {
            request = request.header("client-id", id);
        }
        let (status, message) = json_message(request.send().await.unwrap()).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(
            message,
            "The client-short and client-id headers do not match your session"
        );
    }

    let ok = app
        .api(Method::GET, "/api/jobs", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), StatusCode::OK);
}

#[tokio::test]
async fn me_lists_the_users_permissions_in_the_chosen_client() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let email = app.create_user(true, &[]).await;
    let app = &app;
    let me = |token: String| async move {
        app.request(Method::GET, "/auth-api/session/me")
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
            .json::<Value>()
            .await
            .unwrap()
    };
    let before = me(app.basic_token(&email).await).await;
    assert_eq!(before["email"], email.as_str());
    assert_eq!(
        before["permissions"],
        serde_json::json!([]),
        "no client chosen yet"
    );
    assert_eq!(
        before["universalPermissions"],
        serde_json::json!(["view user"])
    );
    let after = me(app.session_for(&email, &client).await.token).await;
    let permissions: Vec<&str> = after["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(permissions.contains(&"pageContributions") && permissions.contains(&"edit role"));
    assert_eq!(after["clientName"], client.name.as_str());
    assert_eq!(after["canSwitchClient"], true);
}

fn forge(token: &str) -> String {
    let claims = decode_claims(token);
    jsonwebtoken::encode(
        &jsonwebtoken::Header::default(),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(b"not-the-server-secret-not-the-server"),
    )
    .unwrap()
}

/// Every operation the document marks as secured, with its path parameters filled in.
async fn secured_operations(app: &TestApp) -> Vec<(Method, String)> {
    let spec: Value = app
        .request(Method::GET, "/api/openapi.json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut operations = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            if operation["security"]
                .as_array()
                .is_none_or(|s| s.is_empty())
            {
                continue;
            }
            let concrete = path.replace("{kind}", "client").replace(['{', '}'], "");
            let concrete = concrete
                .split('/')
                .map(|segment| {
                    if ["id", "uploadId"].contains(&segment) {
                        "1"
                    } else {
                        segment
                    }
                })
                .collect::<Vec<_>>()
                .join("/");
            operations.push((
                Method::from_bytes(method.to_uppercase().as_bytes()).unwrap(),
                concrete,
            ));
        }
    }
    assert!(operations.len() > 40, "{operations:?}");
    operations
}

#[tokio::test]
async fn every_secured_operation_refuses_a_missing_forged_or_expired_token() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let expired = expired(&session.token);
    let forged = forge(&session.token);
    for (method, path) in secured_operations(&app).await {
        for token in [None, Some(expired.as_str()), Some(forged.as_str())] {
            let mut request = app
                .request(method.clone(), &path)
                .header("client-short", &client.short_name)
                .header("client-id", client.id.to_string())
                .json(&serde_json::json!({}));
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            let response = request.send().await.unwrap();
            assert_eq!(
                response.status(),
                StatusCode::UNAUTHORIZED,
                "{method} {path} with token {:?}",
                token.map(|t| &t[..10])
            );
        }
    }
}
