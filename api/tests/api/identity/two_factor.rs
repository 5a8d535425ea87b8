use super::*;

/// Registers `email` with `client`, follows the verification link and has an administrator enable it.
async fn registered_client_user(
    app: &TestApp,
    inbox: &Inbox,
    admin: &Session,
    client: &tenancy::Client,
    email: &str,
    method: &str,
    phone: &str,
) -> i64 {
    let (status, body) = post_json(
        app,
        "/auth-api/auth/register",
        json!({ "email": format!("  {}  ", email.to_uppercase()), "password": PASSWORD, "firstname": "Reg",
                "lastname": "User", "phone": phone, "twoFactorMethod": method, "client": client.short_name }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({ "status": "pending", "duplicate": false }));
    let (_, params) = link(
        &nth_mail(inbox, email, 1).await,
        "/auth/finish-registration",
    );
    assert_eq!(
        params["email"], email,
        "the address was lower-cased and trimmed"
    );
    assert_eq!(params["client"], client.short_name);
    let (status, body) = post_json(
        app,
        "/auth-api/auth/finish-registration",
        json!({ "email": email, "token": params["token"], "client": client.short_name }),
    )
    .await;
    assert_eq!(
        (status, body),
        (StatusCode::OK, json!({ "status": "verified" }))
    );
    let users = app.get_json("/api/users", admin).await;
    let id = users
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["email"] == email)
        .expect("listed for the administrator")["id"]
        .as_i64()
        .unwrap();
    let response = app
        .api(Method::PATCH, &format!("/api/users/client/{id}"), admin)
        .json(&json!({ "enabled": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    id
}

#[tokio::test]
async fn wrong_codes_burn_the_challenge() {
    let (app, inbox) = app_with_mail(|_| {}).await;
    let client = app.create_client().await;
    let admin = app.session(&client).await;
    let email = format!("{}@example.org", unique("burn"));
    registered_client_user(&app, &inbox, &admin, &client, &email, "email", "").await;
    let login = json!({ "username": email, "password": PASSWORD, "client": client.short_name });
    let (status, _) = post_json(&app, "/auth-api/auth/login", login).await;
    assert_eq!(status, StatusCode::OK);
    let code = login_code(&nth_mail(&inbox, &email, 2).await);
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for _ in 0..5 {
        let (status, _) = post_json(
            &app,
            "/auth-api/auth/login-code",
            json!({ "email": email, "code": wrong, "client": client.short_name }),
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/login-code",
        json!({ "email": email, "code": code, "client": client.short_name }),
    )
    .await;
    assert_eq!(
        (status, body["message"].clone()),
        (StatusCode::UNAUTHORIZED, json!("Invalid passcode"))
    );
}

#[tokio::test]
async fn phone_codes_go_through_the_sms_gateway() {
    let (gateway, sent) = start_http(200, "{}".into()).await;
    let (app, inbox) = app_with_mail(|s| {
        s.sms_gateway_url = Some(format!("{gateway}/messages"));
        s.sms_gateway_key = "gateway-key".into();
    })
    .await;
    let client = app.create_client().await;
    let admin = app.session(&client).await;
    let email = format!("{}@example.org", unique("phone"));
    registered_client_user(&app, &inbox, &admin, &client, &email, "phone", "2025550123").await;
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD, "client": client.short_name }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["twoFactorMethod"], "phone");
    let message = sent
        .lock()
        .unwrap()
        .last()
        .cloned()
        .expect("the gateway was called");
    assert_eq!(message.request_line, "POST /messages HTTP/1.1");
    assert!(message
        .headers
        .to_lowercase()
        .contains("authorization: bearer gateway-key"));
    let sms: Value = serde_json::from_str(&message.body).unwrap();
    assert_eq!(sms["to"], "2025550123");
    let code = login_code(sms["message"].as_str().unwrap());
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/login-code",
        json!({ "email": email, "code": code, "client": client.short_name }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn an_authenticator_app_is_enrolled_from_the_profile_and_its_codes_work_once() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let email = app.create_user(false, &[&client]).await;
    let basic = app.basic_token(&email).await;
    let enrol: Value = app
        .request(Method::POST, "/auth-api/session/authenticator")
        .bearer_auth(&basic)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let secret = enrol["secret"].as_str().unwrap().to_owned();
    assert!(enrol["otpauthUri"]
        .as_str()
        .unwrap()
        .starts_with("otpauth://totp/Compass:"));
    assert!(enrol["qrSvg"].as_str().unwrap().contains("<svg"));
    let now = chrono::Utc::now().timestamp() as u64;
    let confirm = |code: String| {
        app.request(Method::POST, "/auth-api/session/authenticator/confirm")
            .bearer_auth(&basic)
            .json(&json!({ "code": code }))
            .send()
    };
    let response = confirm("123".into()).await.unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let code = api::identity::totp::code_at(&secret, now).unwrap();
    let me: Value = confirm(code).await.unwrap().json().await.unwrap();
    assert_eq!(me["twoFactorMethod"], "app");
    assert_eq!(me["authenticatorEnrolled"], true);

    // Sign-in now asks for the app's code; the one used to confirm does not work again.
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (
            body["twoFactorRequired"].clone(),
            body["twoFactorMethod"].clone()
        ),
        (json!(true), json!("app"))
    );
    let used = api::identity::totp::code_at(&secret, now).unwrap();
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/login-code",
        json!({ "email": email, "code": used }),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a code is accepted once");
    let next = api::identity::totp::code_at(&secret, now + 30).unwrap();
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/login-code",
        json!({ "email": email, "code": next }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        decode_claims(body["accessToken"].as_str().unwrap())["scope"],
        json!(["basic"])
    );
}

#[tokio::test]
async fn an_app_code_alone_does_not_sign_in_without_the_password_step() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let email = app.create_user(false, &[&client]).await;
    let basic = app.basic_token(&email).await;
    let enrol: Value = app
        .request(Method::POST, "/auth-api/session/authenticator")
        .bearer_auth(&basic)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let secret = enrol["secret"].as_str().unwrap();
    let now = chrono::Utc::now().timestamp() as u64;
    let response = app
        .request(Method::POST, "/auth-api/session/authenticator/confirm")
        .bearer_auth(&basic)
        .json(&json!({ "code": api::identity::totp::code_at(secret, now).unwrap() }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let code = api::identity::totp::code_at(secret, now + 30).unwrap();
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/login-code",
        json!({ "email": email, "code": code }),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

/// Enrols an authenticator app for a signed-in user; returns its secret.
async fn enrol_app(app: &TestApp, basic: &str) -> String {
    let enrol: Value = app
        .request(Method::POST, "/auth-api/session/authenticator")
        .bearer_auth(basic)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    enrol["secret"].as_str().unwrap().to_owned()
}

/// A universal user's stored authenticator columns.
async fn stored_totp(app: &TestApp, email: &str) -> (Option<String>, Option<String>) {
    let mut tx = app.tenancy.public().await.unwrap();
    sqlx::query_as("select totp_secret, totp_pending_secret from universal_users where email = $1")
        .bind(email)
        .fetch_one(&mut *tx)
        .await
        .unwrap()
}

/// Signs in with the password, then with the app's code of the next time step.
async fn sign_in_with_app(app: &TestApp, email: &str, secret: &str, offset: u64) -> StatusCode {
    let (status, body) = post_json(
        app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD }),
    )
    .await;
    assert_eq!(
        (status, body["twoFactorMethod"].clone()),
        (StatusCode::OK, json!("app"))
    );
    let now = chrono::Utc::now().timestamp() as u64;
    let code = api::identity::totp::code_at(secret, now + offset).unwrap();
    post_json(
        app,
        "/auth-api/auth/login-code",
        json!({ "email": email, "code": code }),
    )
    .await
    .0
}

/// Issue 11, item 13.
#[tokio::test]
async fn authenticator_secrets_are_encrypted_at_rest_and_app_codes_still_verify() {
    let app = spawn_app().await;
    let email = app.create_user(false, &[]).await;
    let basic = app.basic_token(&email).await;
    let secret = enrol_app(&app, &basic).await;
    let (_, pending) = stored_totp(&app, &email).await;
    let pending = pending.expect("a pending secret is stored");
    assert!(!pending.contains(&secret), "stored as given: {pending}");
    let now = chrono::Utc::now().timestamp() as u64;
    let response = app
        .request(Method::POST, "/auth-api/session/authenticator/confirm")
        .bearer_auth(&basic)
        .json(&json!({ "code": api::identity::totp::code_at(&secret, now).unwrap() }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let (active, _) = stored_totp(&app, &email).await;
    let active = active.expect("the app is enrolled");
    assert!(!active.contains(&secret), "stored as given: {active}");
    assert_eq!(
        sign_in_with_app(&app, &email, &secret, 30).await,
        StatusCode::OK
    );
}

/// Issue 11, item 13: secrets stored in plain text before encryption are encrypted when the api starts, and
/// their apps keep working.
#[tokio::test]
async fn plaintext_authenticator_secrets_are_encrypted_at_start_and_keep_working() {
    let app = spawn_app().await;
    let email = app.create_user(false, &[]).await;
    let secret = api::identity::totp::new_secret();
    let mut tx = app.tenancy.public().await.unwrap();
    sqlx::query(
        "update universal_users set totp_secret = $2, two_factor_method = 'app' where email = $1",
    )
    .bind(&email)
    .bind(&secret)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let restarted = spawn_app().await;
    let (active, _) = stored_totp(&restarted, &email).await;
    let active = active.expect("still enrolled");
    assert!(!active.contains(&secret), "still plain text: {active}");
    assert_eq!(
        sign_in_with_app(&restarted, &email, &secret, 0).await,
        StatusCode::OK
    );
}
