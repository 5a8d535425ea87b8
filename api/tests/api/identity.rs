//! Identity end to end over HTTP: registration with a verification mail, administrator enabling, two-factor
//! sign-in by e-mail, phone and authenticator app, Google ID tokens against a locally served key set, password
//! reset, refresh-token rotation, logout, rate limits, roles and permissions, and client-auth mode.

use crate::helpers::*;
use reqwest::{Method, StatusCode, Url};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use worker::mail::sink::Delivered;

type Inbox = Arc<Mutex<Vec<Delivered>>>;

/// An app whose mail goes to a local sink.
async fn app_with_mail(adjust: impl FnOnce(&mut api::Settings)) -> (TestApp, Inbox) {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| {
        s.smtp_url = format!("smtp://127.0.0.1:{port}");
        s.public_url = "http://compass.example".into();
        adjust(s);
    })
    .await;
    (app, inbox)
}

/// Every message delivered to `to`, decoded.
fn mail_to(inbox: &Inbox, to: &str) -> Vec<String> {
    inbox
        .lock()
        .unwrap()
        .iter()
        .filter(|m| m.recipients.iter().any(|r| r == to))
        .map(|m| unqp(&String::from_utf8_lossy(&m.data)))
        .collect()
}

/// Waits for the `n`th message to `to` (mail from background tasks takes a moment).
async fn nth_mail(inbox: &Inbox, to: &str, n: usize) -> String {
    for _ in 0..100 {
        if let Some(m) = mail_to(inbox, to).get(n - 1) {
            return m.clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no message #{n} to {to}");
}

fn login_code(mail: &str) -> String {
    let at = mail.find("login code is ").expect("a login code") + "login code is ".len();
    mail[at..]
        .chars()
        .filter(char::is_ascii_digit)
        .take(6)
        .collect()
}

/// The first link in a mail that contains `path`, with its query parameters.
fn link(mail: &str, path: &str) -> (Url, std::collections::HashMap<String, String>) {
    let start = mail
        .find(&format!("http://compass.example{path}"))
        .unwrap_or_else(|| panic!("no link to {path} in {mail}"));
    // The text part writes a link as "text (url)": the closing parenthesis ends it too.
    let end = start
        + mail[start..]
            .find(['"', '<', ' ', ')', '\r', '\n'])
            .unwrap();
    let url = Url::parse(&mail[start..end].replace("&amp;", "&")).unwrap();
    let params = url.query_pairs().into_owned().collect();
    (url, params)
}

async fn post(app: &TestApp, path: &str, body: Value) -> reqwest::Response {
    app.request(Method::POST, path)
        .json(&body)
        .send()
        .await
        .unwrap()
}

async fn post_json(app: &TestApp, path: &str, body: Value) -> (StatusCode, Value) {
    let response = post(app, path, body).await;
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn session_from(body: &Value, client: &tenancy::Client) -> Session {
    Session {
        token: body["accessToken"]
            .as_str()
            .expect("an access token")
            .to_owned(),
        client: client.clone(),
    }
}

const NEW_PASSWORD: &str = "Fresh-passw0rd";

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
async fn a_client_user_registers_verifies_is_enabled_and_signs_in_with_an_emailed_code() {
    let (app, inbox) = app_with_mail(|_| {}).await;
    let client = app.create_client().await;
    let admin = app.session(&client).await;
    let email = format!("{}@example.org", unique("reg"));

    // Registered but not verified: the password is right, but sign-in is refused.
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/register",
        json!({ "email": email, "password": PASSWORD, "firstname": "A", "lastname": "B", "phone": "",
                "twoFactorMethod": "email", "client": client.short_name }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let login = json!({ "username": email, "password": PASSWORD, "client": client.short_name });
    let (status, body) = post_json(&app, "/auth-api/auth/login", login.clone()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        body["message"],
        "Verify your email first: follow the link we sent you"
    );

    // A forged verification token is refused; the real one verifies.
    let (_, params) = link(
        &nth_mail(&inbox, &email, 1).await,
        "/auth/finish-registration",
    );
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/finish-registration",
        json!({ "email": email, "token": "forged", "client": client.short_name }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "This link is invalid or has expired");
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/finish-registration",
        json!({ "email": email, "token": params["token"], "client": client.short_name }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    // Verified, not yet enabled.
    let (status, body) = post_json(&app, "/auth-api/auth/login", login.clone()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        body["message"],
        "This account is not enabled yet. An administrator has to enable it"
    );
    let users = app.get_json("/api/users", &admin).await;
    let user = users
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["email"] == email)
        .unwrap()
        .clone();
    assert_eq!(
        (
            user["kind"].clone(),
            user["enabled"].clone(),
            user["emailVerified"].clone()
        ),
        (json!("client"), json!(false), json!(true))
    );
    let response = app
        .api(
            Method::PATCH,
            &format!("/api/users/client/{}", user["id"]),
            &admin,
        )
        .json(&json!({ "enabled": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);

    // Registering again reports the duplicate and flags it once the account is enabled.
    let (_, body) = post_json(
        &app,
        "/auth-api/auth/register",
        json!({ "email": email, "password": PASSWORD, "firstname": "A", "lastname": "B", "phone": "",
                "twoFactorMethod": "email", "client": client.short_name }),
    )
    .await;
    assert_eq!(body, json!({ "status": "duplicate", "duplicate": true }));

    // Step 1 mails a code; step 2 takes it once.
    let (status, body) = post_json(&app, "/auth-api/auth/login", login.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["twoFactorRequired"], true);
    assert_eq!(body["accessToken"], Value::Null);
    assert_eq!(body["twoFactorMethod"], "email");
    let mail = nth_mail(&inbox, &email, 2).await;
    assert!(mail.contains("Subject: Your Compass login code"), "{mail}");
    let code = login_code(&mail);
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let submit = |code: &str| json!({ "email": email, "code": code, "client": client.short_name });
    let (status, body) = post_json(&app, "/auth-api/auth/login-code", submit(wrong)).await;
    assert_eq!(
        (status, body["message"].clone()),
        (StatusCode::UNAUTHORIZED, json!("Invalid passcode"))
    );
    let (status, body) = post_json(&app, "/auth-api/auth/login-code", submit(&code)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let session = session_from(&body, &client);
    let (status, _) = post_json(&app, "/auth-api/auth/login-code", submit(&code)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a code works once");

    // The client user acts for their client at once, with no page permission until a role grants one.
    let claims = decode_claims(&session.token);
    assert_eq!(claims["user"]["kind"], "client");
    assert_eq!(claims["clientShort"], client.short_name.as_str());
    assert_eq!(claims["scope"], json!(["basic", "client"]));
    let lists = app
        .api(Method::GET, "/api/crm-list", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(lists.status(), StatusCode::OK, "CRM needs no permission");
    let contacts = app
        .api(Method::GET, "/api/contacts", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(contacts.status(), StatusCode::FORBIDDEN);
    let role: Value = app
        .api(Method::POST, "/api/roles", &admin)
        .json(&json!({ "name": "Contacts", "permissions": ["pageContacts"] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let response = app
        .api(
            Method::PATCH,
            &format!("/api/users/client/{}", user["id"]),
            &admin,
        )
        .json(&json!({ "roleIds": [role["id"]] }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let contacts = app
        .api(Method::GET, "/api/contacts", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(
        contacts.status(),
        StatusCode::OK,
        "the role grants the page"
    );
    let me = app
        .request(Method::GET, "/auth-api/session/me")
        .bearer_auth(&session.token)
        .send()
        .await
        .unwrap();
    let me: Value = me.json().await.unwrap();
    assert_eq!(me["permissions"], json!(["pageContacts"]));
    assert_eq!(me["kind"], "client");
    assert_eq!(me["canSwitchClient"], false);

    // Disabling the user ends their session at once.
    let response = app
        .api(
            Method::PATCH,
            &format!("/api/users/client/{}", user["id"]),
            &admin,
        )
        .json(&json!({ "enabled": false }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let lists = app
        .api(Method::GET, "/api/crm-list", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(lists.status(), StatusCode::UNAUTHORIZED);

    // Sign-ins and changes are in the client's audit trail.
    let events = app.get_json("/api/audit-events", &admin).await;
    let actions: Vec<&str> = events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    for expected in [
        "register",
        "sign in",
        "user enabled",
        "role created",
        "roles assigned",
        "user disabled",
    ] {
        assert!(actions.contains(&expected), "{expected} in {actions:?}");
    }
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

#[tokio::test]
async fn password_reset_mails_a_single_use_link_and_does_not_reveal_accounts() {
    let (app, inbox) = app_with_mail(|_| {}).await;
    let client = app.create_client().await;
    let email = app.create_user(false, &[&client]).await;
    let old = app.basic_token(&email).await;
    let unknown = format!("{}@example.org", unique("nobody"));

    let known_answer = post_json(
        &app,
        "/auth-api/auth/reset-email",
        json!({ "email": email }),
    )
    .await;
    let unknown_answer = post_json(
        &app,
        "/auth-api/auth/reset-email",
        json!({ "email": unknown }),
    )
    .await;
    assert_eq!(known_answer, unknown_answer, "the same answer either way");
    assert_eq!(known_answer, (StatusCode::OK, json!({ "status": "sent" })));
    let (_, params) = link(&nth_mail(&inbox, &email, 1).await, "/auth/reset-password");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(mail_to(&inbox, &unknown).is_empty());

    let check = |token: &str| json!({ "email": email, "token": token });
    assert_eq!(
        post_json(&app, "/auth-api/auth/reset-check", check("forged"))
            .await
            .1,
        json!({ "valid": false })
    );
    assert_eq!(
        post_json(&app, "/auth-api/auth/reset-check", check(&params["token"]))
            .await
            .1,
        json!({ "valid": true })
    );
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/reset-password",
        json!({ "email": email, "token": params["token"], "password": "weak" }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], api::identity::PASSWORD_RULE);
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/reset-password",
        json!({ "email": email, "token": params["token"], "password": NEW_PASSWORD }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/reset-password",
        json!({ "email": email, "token": params["token"], "password": "Another-passw0rd" }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "the link works once");

    assert_eq!(
        app.login(&email, PASSWORD).await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.login(&email, NEW_PASSWORD).await.status(),
        StatusCode::OK
    );
    let me = app
        .request(Method::GET, "/auth-api/session/me")
        .bearer_auth(&old)
        .send()
        .await
        .unwrap();
    assert_eq!(
        me.status(),
        StatusCode::UNAUTHORIZED,
        "a reset ends every session"
    );
}

#[tokio::test]
async fn refresh_tokens_rotate_and_logout_ends_the_session() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let email = app.create_user(true, &[]).await;
    let (_, login) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD }),
    )
    .await;
    let first = login["refreshToken"].as_str().unwrap().to_owned();
    let (status, pair) = post_json(
        &app,
        "/auth-api/auth/refresh",
        json!({ "refreshToken": first }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let second = pair["refreshToken"].as_str().unwrap().to_owned();
    assert_ne!(first, second);
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/refresh",
        json!({ "refreshToken": first }),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "a used refresh token is dead"
    );

    // Client login replaces the session; refreshing keeps the client.
    let client_login: Value = app
        .client_login(pair["accessToken"].as_str().unwrap(), client.id)
        .await
        .json()
        .await
        .unwrap();
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/refresh",
        json!({ "refreshToken": second }),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "client login ended the universal session"
    );
    let (status, refreshed) = post_json(
        &app,
        "/auth-api/auth/refresh",
        json!({ "refreshToken": client_login["refreshToken"] }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let claims = decode_claims(refreshed["accessToken"].as_str().unwrap());
    assert_eq!(claims["clientId"], client.id);
    let session = session_from(&refreshed, &client);
    assert_eq!(
        app.api(Method::GET, "/api/crm-list", &session)
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );

    let response = app
        .request(Method::POST, "/auth-api/auth/logout")
        .bearer_auth(&session.token)
        .json(&json!({ "refreshToken": refreshed["refreshToken"] }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        app.api(Method::GET, "/api/crm-list", &session)
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::UNAUTHORIZED
    );
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/refresh",
        json!({ "refreshToken": refreshed["refreshToken"] }),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/refresh",
        json!({ "refreshToken": "u.forged" }),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn an_expired_token_is_refused() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let expired = expired(&session.token);
    let stale = Session {
        token: expired,
        client,
    };
    let (status, message) = json_message(
        app.api(Method::GET, "/api/crm-list", &stale)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status, message.as_str()),
        (StatusCode::UNAUTHORIZED, "Invalid or expired token")
    );
}

#[tokio::test]
async fn sign_in_attempts_are_limited_per_account() {
    let app = spawn_app_with(|s| {
        s.auth_attempts_per_account = 3;
        // One long window: the test never straddles a window boundary.
        s.auth_limit_window_seconds = 365 * 24 * 3600;
    })
    .await;
    let email = app.create_user(true, &[]).await;
    for _ in 0..3 {
        assert_eq!(
            app.login(&email, "wrong-password").await.status(),
            StatusCode::UNAUTHORIZED
        );
    }
    let (status, message) = json_message(app.login(&email, PASSWORD).await).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(message, api::identity::limits::TOO_MANY);
    // Another account from the same address is not affected.
    let other = app.create_user(true, &[]).await;
    assert_eq!(app.login(&other, PASSWORD).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn registration_is_limited_per_address() {
    let app = spawn_app_with(|s| {
        s.auth_attempts_per_address = 2;
        s.auth_limit_window_seconds = 365 * 24 * 3600;
    })
    .await;
    let client = app.create_client().await;
    for expected in [
        StatusCode::BAD_REQUEST,
        StatusCode::BAD_REQUEST,
        StatusCode::TOO_MANY_REQUESTS,
    ] {
        let (status, _) = post_json(
            &app,
            "/auth-api/auth/register",
            json!({ "email": "x@example.org", "password": "weak", "firstname": "", "lastname": "", "phone": "",
                    "twoFactorMethod": "email", "client": client.short_name }),
        )
        .await;
        assert_eq!(status, expected);
    }
}

#[tokio::test]
async fn registration_checks_the_spec_rules() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let register = |password: &str, phone: &str, method: &str| {
        json!({ "email": format!("{}@example.org", unique("r")), "password": password, "firstname": "A",
                "lastname": "B", "phone": phone, "twoFactorMethod": method, "client": client.short_name })
    };
    let cases = [
        (
            register("weakpassword1", "", "email"),
            api::identity::PASSWORD_RULE,
        ),
        (
            register(PASSWORD, "555-0123", "email"),
            "Phone number should include only digits",
        ),
        (
            register(PASSWORD, "", "phone"),
            "A phone number is needed for the phone method",
        ),
    ];
    for (body, message) in cases {
        let (status, answer) = post_json(&app, "/auth-api/auth/register", body).await;
        assert_eq!(
            (status, answer["message"].as_str().unwrap()),
            (StatusCode::BAD_REQUEST, message)
        );
    }
    let mut no_client = register(PASSWORD, "", "email");
    no_client["client"] = Value::Null;
    let (status, _) = post_json(&app, "/auth-api/auth/register", no_client).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

/// Signs an ID token with the test key, as Google would.
fn google_token(claims: Value) -> String {
    let key =
        jsonwebtoken::EncodingKey::from_rsa_pem(include_bytes!("../fixtures/google-test-key.pem"))
            .unwrap();
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::RS256);
    header.kid = Some("test-key-1".into());
    jsonwebtoken::encode(&header, &claims, &key).unwrap()
}

#[tokio::test]
async fn google_id_tokens_are_verified_against_the_published_keys() {
    let (keys_url, fetched) = start_http(
        200,
        include_str!("../fixtures/google-test-jwks.json").into(),
    )
    .await;
    let app = spawn_app_with(|s| {
        s.google_client_id = Some("compass-test.apps.googleusercontent.com".into());
        s.google_jwks_url = format!("{keys_url}/oauth2/v3/certs");
    })
    .await;
    let config: Value = app
        .request(Method::GET, "/auth-api/auth/config")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        config["googleClientId"],
        "compass-test.apps.googleusercontent.com"
    );
    let email = app.create_user(true, &[]).await;
    let now = chrono::Utc::now().timestamp();
    let claims = |aud: &str, iss: &str, exp: i64, email: &str, verified: bool| {
        json!({ "iss": iss, "aud": aud, "exp": exp, "iat": now, "sub": "1234", "email": email,
                "email_verified": verified })
    };
    let aud = "compass-test.apps.googleusercontent.com";
    let good = google_token(claims(
        aud,
        "https://accounts.google.com",
        now + 600,
        &email.to_uppercase(),
        true,
    ));
    let (status, body) =
        post_json(&app, "/auth-api/auth/google", json!({ "credential": good })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        decode_claims(body["accessToken"].as_str().unwrap())["user"]["email"],
        email.as_str()
    );

    let refused = [
        claims(
            "someone-else",
            "https://accounts.google.com",
            now + 600,
            &email,
            true,
        ),
        claims(aud, "https://evil.example", now + 600, &email, true),
        claims(aud, "accounts.google.com", now - 600, &email, true),
        claims(aud, "accounts.google.com", now + 600, &email, false),
        claims(
            aud,
            "accounts.google.com",
            now + 600,
            "stranger@example.org",
            true,
        ),
    ];
    for c in refused {
        let (status, _) = post_json(
            &app,
            "/auth-api/auth/google",
            json!({ "credential": google_token(c.clone()) }),
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{c}");
    }
    // A token signed with another key (here HS256 with a guessable secret) is refused.
    let forged = jsonwebtoken::encode(
        &jsonwebtoken::Header::default(),
        &claims(aud, "accounts.google.com", now + 600, &email, true),
        &jsonwebtoken::EncodingKey::from_secret(b"guess"),
    )
    .unwrap();
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/google",
        json!({ "credential": forged }),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        fetched.lock().unwrap().len(),
        1,
        "the key set is fetched once and cached"
    );
}

#[tokio::test]
async fn google_sign_in_is_off_without_a_client_id() {
    let app = spawn_app().await;
    let config: Value = app
        .request(Method::GET, "/auth-api/auth/config")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(config["googleClientId"], Value::Null);
    let page = app
        .request(Method::GET, "/auth/login")
        .send()
        .await
        .unwrap();
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(!csp.contains("google"), "{csp}");
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/google",
        json!({ "credential": "x.y.z" }),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn operations_check_permissions_not_just_the_menu() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let admin = app.session(&client).await;
    let email = app.create_user(false, &[&client]).await;
    let plain = app.session_for(&email, &client).await;
    let basic = app.basic_token(&email).await;

    for (method, path, body) in [
        (Method::GET, "/api/contacts", None),
        (Method::GET, "/api/external-origin-code", None),
        (Method::GET, "/api/users", None),
        (Method::GET, "/api/audit-events", None),
        (Method::GET, "/api/roles", None),
        (
            Method::POST,
            "/api/roles",
            Some(json!({ "name": "Mine", "permissions": ["pageReports"] })),
        ),
    ] {
        let mut request = app.api(method.clone(), path, &plain);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let (status, message) = json_message(request.send().await.unwrap()).await;
        assert_eq!(
            (status, message.as_str()),
            (
                StatusCode::FORBIDDEN,
                "You do not have permission to do this"
            ),
            "{method} {path}"
        );
    }
    let grantable = app
        .request(Method::GET, "/auth-api/session/universal-users/clients")
        .bearer_auth(&basic)
        .send()
        .await
        .unwrap();
    assert_eq!(grantable.status(), StatusCode::FORBIDDEN);
    let universal = app
        .request(Method::GET, "/auth-api/session/universal-users")
        .bearer_auth(&basic)
        .send()
        .await
        .unwrap();
    assert_eq!(universal.status(), StatusCode::FORBIDDEN);

    // A role with "view user" and "edit role" opens user and role management.
    let role: Value = app
        .api(Method::POST, "/api/roles", &admin)
        .json(&json!({ "name": "Managers", "permissions": ["edit role", "view user", "bogus"] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(role["message"], "Unknown permission: bogus");
    let role: Value = app
        .api(Method::POST, "/api/roles", &admin)
        .json(&json!({ "name": "Managers", "permissions": ["edit role", "view user"] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(role["permissions"], json!(["view user", "edit role"]));
    let duplicate = app
        .api(Method::POST, "/api/roles", &admin)
        .json(&json!({ "name": "Managers", "permissions": [] }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(duplicate).await,
        (
            StatusCode::CONFLICT,
            "A role with this name already exists".to_owned()
        )
    );
    let users = app.get_json("/api/users", &admin).await;
    let me = users
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["email"] == email.as_str())
        .unwrap()
        .clone();
    assert_eq!(me["kind"], "universal");
    let response = app
        .api(
            Method::PATCH,
            &format!("/api/users/universal/{}", me["id"]),
            &admin,
        )
        .json(&json!({ "roleIds": [role["id"]] }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        app.api(Method::GET, "/api/users", &plain)
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
    assert_eq!(
        app.api(Method::GET, "/api/roles", &plain)
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
    assert_eq!(
        app.api(Method::GET, "/api/contacts", &plain)
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::FORBIDDEN
    );

    // Roles are per client: the same user in another client holds nothing there.
    let other = app.create_client().await;
    let other_admin = app.session(&other).await;
    let response = app
        .api(
            Method::PATCH,
            &format!("/api/users/universal/{}", me["id"]),
            &other_admin,
        )
        .json(&json!({ "roleIds": [] }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.status(),
        StatusCode::NOT_FOUND,
        "not granted that client"
    );
    let foreign_role = app
        .api(
            Method::PATCH,
            &format!("/api/users/universal/{}", me["id"]),
            &admin,
        )
        .json(&json!({ "roleIds": [role["id"].as_i64().unwrap() + 100000] }))
        .send()
        .await
        .unwrap();
    assert_eq!(foreign_role.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn universal_users_are_managed_with_the_view_user_permission() {
    let (app, inbox) = app_with_mail(|_| {}).await;
    let client = app.create_client().await;
    let admin_email = app.create_user(true, &[]).await;
    let admin = app.basic_token(&admin_email).await;
    let new_email = format!("{}@example.org", unique("staff"));
    let created = app
        .request(Method::POST, "/auth-api/session/universal-users")
        .bearer_auth(&admin)
        .json(&json!({ "email": new_email, "firstName": "New", "lastName": "Staff", "allClients": false,
                       "universalPermissions": [], "clientIds": [client.id] }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::OK);
    let created: Value = created.json().await.unwrap();
    assert_eq!(created["clientIds"], json!([client.id]));
    assert_eq!(created["twoFactorMethod"], "email");
    let grantable: Value = app
        .request(Method::GET, "/auth-api/session/universal-users/clients")
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(grantable
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["id"] == client.id));

    // The invitation is a reset link that sets the first password.
    let (_, params) = link(
        &nth_mail(&inbox, &new_email, 1).await,
        "/auth/reset-password",
    );
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/reset-password",
        json!({ "email": new_email, "token": params["token"], "password": NEW_PASSWORD }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, body) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": new_email, "password": NEW_PASSWORD }),
    )
    .await;
    assert_eq!(body["twoFactorRequired"], true);
    let code = login_code(&nth_mail(&inbox, &new_email, 2).await);
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/login-code",
        json!({ "email": new_email, "code": code }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let staff = body["accessToken"].as_str().unwrap().to_owned();
    let clients: Value = app
        .request(Method::GET, "/auth-api/session/clients")
        .bearer_auth(&staff)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(clients.as_array().unwrap().len(), 1);

    // Self-protection and disabling.
    let admin_id = app
        .request(Method::GET, "/auth-api/session/me")
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap()["id"]
        .clone();
    let lock_out = app
        .request(
            Method::PATCH,
            &format!("/auth-api/session/universal-users/{admin_id}"),
        )
        .bearer_auth(&admin)
        .json(&json!({ "enabled": false }))
        .send()
        .await
        .unwrap();
    assert_eq!(lock_out.status(), StatusCode::BAD_REQUEST);
    let disable = app
        .request(
            Method::PATCH,
            &format!("/auth-api/session/universal-users/{}", created["id"]),
        )
        .bearer_auth(&admin)
        .json(&json!({ "enabled": false }))
        .send()
        .await
        .unwrap();
    assert_eq!(disable.status(), StatusCode::OK);
    let me = app
        .request(Method::GET, "/auth-api/session/me")
        .bearer_auth(&staff)
        .send()
        .await
        .unwrap();
    assert_eq!(
        me.status(),
        StatusCode::UNAUTHORIZED,
        "disabling ends the session"
    );
    assert_eq!(
        app.login(&new_email, NEW_PASSWORD).await.status(),
        StatusCode::FORBIDDEN,
        "a disabled account cannot sign in"
    );
}

#[tokio::test]
async fn profile_and_password_changes() {
    let app = spawn_app().await;
    let email = app.create_user(true, &[]).await;
    let token = app.basic_token(&email).await;
    let other_session = app.basic_token(&email).await;
    let patch = |body: Value| {
        app.request(Method::PATCH, "/auth-api/session/profile")
            .bearer_auth(&token)
            .json(&body)
            .send()
    };
    let (status, message) = json_message(
        patch(
            json!({ "firstName": "A", "lastName": "B", "phone": "12", "twoFactorMethod": "email" }),
        )
        .await
        .unwrap(),
    )
    .await;
    assert_eq!(
        (status, message.as_str()),
        (
            StatusCode::BAD_REQUEST,
            "Phone number should include only digits"
        )
    );
    let me: Value = patch(json!({ "firstName": " Ann ", "lastName": "Lee", "phone": "2025550123", "twoFactorMethod": "phone" }))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (
            me["firstName"].clone(),
            me["phone"].clone(),
            me["twoFactorMethod"].clone()
        ),
        (json!("Ann"), json!("2025550123"), json!("phone"))
    );
    let (status, _) = json_message(
        patch(json!({ "firstName": "A", "lastName": "B", "phone": "", "twoFactorMethod": "app" }))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "no authenticator enrolled");

    let change = |current: &str, new: &str| {
        app.request(Method::POST, "/auth-api/session/password")
            .bearer_auth(&token)
            .json(&json!({ "currentPassword": current, "newPassword": new }))
            .send()
    };
    let (status, message) = json_message(change("wrong", NEW_PASSWORD).await.unwrap()).await;
    assert_eq!(
        (status, message.as_str()),
        (StatusCode::BAD_REQUEST, "Current password is incorrect")
    );
    assert_eq!(
        change(PASSWORD, NEW_PASSWORD).await.unwrap().status(),
        StatusCode::NO_CONTENT
    );
    let me = app
        .request(Method::GET, "/auth-api/session/me")
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), StatusCode::OK, "this session stays");
    let other = app
        .request(Method::GET, "/auth-api/session/me")
        .bearer_auth(&other_session)
        .send()
        .await
        .unwrap();
    assert_eq!(
        other.status(),
        StatusCode::UNAUTHORIZED,
        "other sessions end"
    );
}

#[tokio::test]
async fn client_auth_mode_signs_in_to_the_one_client() {
    let setup = spawn_app().await;
    let client = setup.create_client().await;
    let other = setup.create_client().await;
    let (app, inbox) = app_with_mail(|s| s.client_auth = Some(client.short_name.clone())).await;
    let config: Value = app
        .request(Method::GET, "/auth-api/auth/config")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(config["clientAuthShort"], client.short_name.as_str());
    assert_eq!(config["clientName"], client.name.as_str());

    // A universal administrator signs straight in to the client.
    let email = app.create_user(true, &[]).await;
    let (_, body) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD }),
    )
    .await;
    let claims = decode_claims(body["accessToken"].as_str().unwrap());
    assert_eq!(claims["clientShort"], client.short_name.as_str());
    let token = body["accessToken"].as_str().unwrap();
    let clients: Value = app
        .request(Method::GET, "/auth-api/session/clients")
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(clients.as_array().unwrap().len(), 1, "only the one client");
    assert_eq!(
        app.client_login(token, other.id).await.status(),
        StatusCode::FORBIDDEN
    );
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD, "client": other.short_name }),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "another client cannot be named"
    );

    // Registration needs no client name.
    let new_email = format!("{}@example.org", unique("ca"));
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/register",
        json!({ "email": new_email, "password": PASSWORD, "firstname": "C", "lastname": "A", "phone": "",
                "twoFactorMethod": "email" }),
    )
    .await;
    assert_eq!(
        (status, body["status"].clone()),
        (StatusCode::OK, json!("pending"))
    );
    let (_, params) = link(
        &nth_mail(&inbox, &new_email, 1).await,
        "/auth/finish-registration",
    );
    assert_eq!(params["client"], client.short_name);
}

// Issue 11, the outside review: each test below is named after the finding it closes.

/// A login request as a trusted reverse proxy forwards it for `from`.
async fn login_from(app: &TestApp, email: &str, password: &str, from: &str) -> StatusCode {
    app.request(Method::POST, "/auth-api/auth/login")
        .header("x-forwarded-for", from)
        .json(&json!({ "username": email, "password": password }))
        .send()
        .await
        .unwrap()
        .status()
}

/// Issue 11, item 9.
#[tokio::test]
async fn a_universal_users_email_cannot_be_registered_as_a_client_user_and_signs_in_to_the_client()
{
    let (app, inbox) = app_with_mail(|_| {}).await;
    let client = app.create_client().await;
    let staff = app.create_user(false, &[&client]).await;
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/register",
        json!({ "email": staff.to_uppercase(), "password": PASSWORD, "firstname": "Mal", "lastname": "Lory",
                "phone": "", "twoFactorMethod": "email", "client": client.short_name }),
    )
    .await;
    assert_eq!(
        (status, body),
        (
            StatusCode::OK,
            json!({ "status": "duplicate", "duplicate": true })
        ),
        "answered as for an existing account"
    );
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let rows: i64 = sqlx::query_scalar("select count(*) from client_users where email = $1")
        .bind(&staff)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(rows, 0, "no client user was made");

    // A client user left behind with the staff member's address (before this fix) does not shadow them.
    sqlx::query(
        "insert into client_users (email, password_hash, email_verified, enabled) values ($1, 'x', now(), true)",
    )
    .bind(&staff)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": staff, "password": PASSWORD, "client": client.short_name }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let claims = decode_claims(body["accessToken"].as_str().unwrap());
    assert_eq!(claims["user"]["kind"], "universal");
    assert_eq!(claims["clientShort"], client.short_name.as_str());
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(mail_to(&inbox, &staff).is_empty(), "no verification mail");
}

/// Issue 11, item 10: an attacker elsewhere cannot lock out the owner.
#[tokio::test]
async fn eleven_wrong_passwords_from_another_address_do_not_lock_the_owner_out() {
    let app = spawn_app_with(|s| {
        s.auth_attempts_per_account = 10;
        s.auth_attempts_per_address = 60;
        s.auth_account_failures_before_delay = 20;
        s.auth_limit_window_seconds = 365 * 24 * 3600;
        s.trusted_proxies = "127.0.0.1, ::1".parse().unwrap();
    })
    .await;
    let email = app.create_user(true, &[]).await;
    for n in 1..=11 {
        let expected = if n <= 10 {
            StatusCode::UNAUTHORIZED
        } else {
            StatusCode::TOO_MANY_REQUESTS
        };
        assert_eq!(
            login_from(&app, &email, "wrong-password", "203.0.113.9").await,
            expected,
            "attempt {n}"
        );
    }
    assert_eq!(
        login_from(&app, &email, PASSWORD, "198.51.100.7").await,
        StatusCode::OK,
        "the owner signs in from their own address"
    );
    assert_eq!(
        login_from(&app, &email, PASSWORD, "203.0.113.9").await,
        StatusCode::TOO_MANY_REQUESTS,
        "the attacker's address stays refused, even with the right password"
    );
}

/// Issue 11, item 10: failures across many addresses slow the account down, step by growing step, for every
/// address but those it signed in from.
#[tokio::test]
async fn failures_from_many_addresses_bring_growing_delays_but_not_at_the_owners_address() {
    let app = spawn_app_with(|s| {
        s.auth_attempts_per_account = 10;
        s.auth_account_failures_before_delay = 3;
        s.auth_limit_window_seconds = 365 * 24 * 3600;
        s.trusted_proxies = "127.0.0.1, ::1".parse().unwrap();
    })
    .await;
    let email = app.create_user(true, &[]).await;
    assert_eq!(
        login_from(&app, &email, PASSWORD, "198.51.100.7").await,
        StatusCode::OK
    );
    for n in 1..=3 {
        let from = format!("203.0.113.{n}");
        assert_eq!(
            login_from(&app, &email, "wrong-password", &from).await,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        login_from(&app, &email, "wrong-password", "203.0.113.4").await,
        StatusCode::TOO_MANY_REQUESTS,
        "the next attempt waits a second"
    );
    assert_eq!(
        login_from(&app, &email, PASSWORD, "198.51.100.7").await,
        StatusCode::OK,
        "not at an address the owner signed in from"
    );
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(
        login_from(&app, &email, "wrong-password", "203.0.113.5").await,
        StatusCode::UNAUTHORIZED,
        "after the delay, one more try"
    );
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(
        login_from(&app, &email, "wrong-password", "203.0.113.6").await,
        StatusCode::TOO_MANY_REQUESTS,
        "the delay has doubled"
    );
}

/// Issue 11, item 10.
#[tokio::test]
async fn successful_sign_ins_are_not_counted_by_the_sign_in_limits() {
    let app = spawn_app_with(|s| {
        s.auth_attempts_per_account = 3;
        s.auth_attempts_per_address = 3;
        s.auth_account_failures_before_delay = 3;
        s.auth_limit_window_seconds = 365 * 24 * 3600;
    })
    .await;
    let email = app.create_user(true, &[]).await;
    for n in 1..=6 {
        assert_eq!(
            app.login(&email, PASSWORD).await.status(),
            StatusCode::OK,
            "sign-in {n}"
        );
    }
}

/// Issue 11, item 10: `X-Forwarded-For` from a peer that is not a trusted proxy changes nothing.
#[tokio::test]
async fn forwarded_for_is_ignored_from_an_untrusted_peer() {
    for trusted in ["", "10.0.0.1"] {
        let app = spawn_app_with(|s| {
            s.auth_attempts_per_account = 3;
            s.auth_limit_window_seconds = 365 * 24 * 3600;
            s.trusted_proxies = trusted.parse().unwrap();
        })
        .await;
        let email = app.create_user(true, &[]).await;
        for n in 1..=3 {
            let from = format!("203.0.113.{n}");
            assert_eq!(
                login_from(&app, &email, "wrong-password", &from).await,
                StatusCode::UNAUTHORIZED
            );
        }
        assert_eq!(
            login_from(&app, &email, PASSWORD, "198.51.100.7").await,
            StatusCode::TOO_MANY_REQUESTS,
            "every attempt came from the same peer (trusted: {trusted:?})"
        );
    }
}

/// Issue 11, item 11: the answer does not wait for the account's work, so it cannot tell whether there is one.
#[tokio::test]
async fn reset_email_answers_alike_for_known_and_unknown_addresses_and_the_mail_still_arrives() {
    let (app, inbox) = app_with_mail(|_| {}).await;
    let email = app.create_user(false, &[]).await;
    let unknown = format!("{}@example.org", unique("nobody"));
    let reset = |to: &str| post_json(&app, "/auth-api/auth/reset-email", json!({ "email": to }));
    let unknown_answer = reset(&unknown).await;
    assert_eq!(
        unknown_answer,
        (StatusCode::OK, json!({ "status": "sent" }))
    );
    assert_eq!(reset(&email).await, unknown_answer);
    link(&nth_mail(&inbox, &email, 1).await, "/auth/reset-password");

    // Hold the account's open reset challenge: any work on it now waits until the lock goes.
    let mut lock = app.tenancy.public().await.unwrap();
    let held: Vec<i64> = sqlx::query_scalar(
        "select c.id from auth_challenges c join universal_users u on u.id = c.user_id
         where u.email = $1 and c.used is null for update of c",
    )
    .bind(&email)
    .fetch_all(&mut *lock)
    .await
    .unwrap();
    assert_eq!(held.len(), 1);
    let answer = tokio::time::timeout(std::time::Duration::from_secs(2), reset(&email)).await;
    assert_eq!(
        answer.expect("answered without waiting for the account's work"),
        unknown_answer
    );
    lock.commit().await.unwrap();
    let second = nth_mail(&inbox, &email, 2).await;
    let (_, params) = link(&second, "/auth/reset-password");
    assert_eq!(
        post_json(
            &app,
            "/auth-api/auth/reset-check",
            json!({ "email": email, "token": params["token"] })
        )
        .await
        .1,
        json!({ "valid": true }),
        "the newest link works"
    );
    assert!(mail_to(&inbox, &unknown).is_empty());
}

/// Issue 11, item 12: one key per purpose. The master secret and the tracking key (which the worker holds)
/// cannot sign access tokens, and refresh tokens are not hashed with the master secret.
#[tokio::test]
async fn neither_the_master_secret_nor_the_tracking_key_signs_tokens_or_keys_hashes() {
    use hmac::Mac;
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let works = |token: String| {
        let app = &app;
        let client = client.clone();
        async move {
            app.api(Method::GET, "/api/crm-list", &Session { token, client })
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    assert_eq!(works(session.token.clone()).await, StatusCode::OK);
    let claims = decode_claims(&session.token);
    for (name, key) in [
        ("JWT_SECRET", JWT_SECRET),
        ("the tracking key", app.tracking_secret.as_str()),
    ] {
        let forged = jsonwebtoken::encode(
            &jsonwebtoken::Header::default(),
            &claims,
            &jsonwebtoken::EncodingKey::from_secret(key.as_bytes()),
        )
        .unwrap();
        assert_eq!(
            works(forged).await,
            StatusCode::UNAUTHORIZED,
            "a token signed with {name}"
        );
    }

    let email = app.create_user(false, &[]).await;
    let (_, body) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD }),
    )
    .await;
    let refresh = body["refreshToken"].as_str().unwrap();
    let secret = refresh.strip_prefix("u.").unwrap();
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(JWT_SECRET.as_bytes()).unwrap();
    mac.update(b"refresh\0");
    mac.update(secret.as_bytes());
    let with_master = mac.finalize().into_bytes().to_vec();
    let mut tx = app.tenancy.public().await.unwrap();
    let stored: Vec<Vec<u8>> = sqlx::query_scalar(
        "select s.token_hash from auth_sessions s join universal_users u on u.id = s.user_id where u.email = $1",
    )
    .bind(&email)
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    assert_eq!(stored.len(), 1);
    assert_ne!(stored[0], with_master, "keyed with the master secret");
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

/// Everything the api logs on this thread while the returned guard lives (a `#[tokio::test]` runs the app's
/// tasks on the test's own thread).
fn capture_logs() -> (tracing::subscriber::DefaultGuard, Arc<Mutex<Vec<u8>>>) {
    #[derive(Clone)]
    struct Sink(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    // While only one dispatcher exists, tracing-core caches a call site's interest from whichever thread meets it
    // first, so another test's thread (with no subscriber) could switch our events off; a second, idle
    // dispatcher that lives for the whole run makes every thread ask its own.
    static IDLE: std::sync::OnceLock<tracing::Dispatch> = std::sync::OnceLock::new();
    IDLE.get_or_init(|| tracing::Dispatch::new(tracing::subscriber::NoSubscriber::default()));
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let sink = Sink(buffer.clone());
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::DEBUG)
        .with_ansi(false)
        .with_writer(move || sink.clone())
        .finish();
    (tracing::subscriber::set_default(subscriber), buffer)
}

fn logged(buffer: &Arc<Mutex<Vec<u8>>>) -> String {
    String::from_utf8_lossy(&buffer.lock().unwrap()).to_string()
}

/// Issue 11, item 14: without an SMS gateway a phone code is not written to the log (outside development mode
/// it goes by e-mail instead), and refused sign-ins and rate limits log the user's id, not their address.
#[tokio::test]
async fn codes_are_not_logged_and_refusals_log_user_ids_not_addresses() {
    let (guard, logs) = capture_logs();
    let (app, inbox) = app_with_mail(|s| {
        s.auth_attempts_per_account = 2;
        s.auth_limit_window_seconds = 365 * 24 * 3600;
    })
    .await;
    let email = app.create_user(false, &[]).await;
    let basic = app.basic_token(&email).await;
    let me: Value = app
        .request(Method::PATCH, "/auth-api/session/profile")
        .bearer_auth(&basic)
        .json(&json!({ "firstName": "P", "lastName": "Q", "phone": "2025550123", "twoFactorMethod": "phone" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = me["id"].as_i64().unwrap();
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD }),
    )
    .await;
    assert_eq!(
        (status, body["twoFactorMethod"].clone()),
        (StatusCode::OK, json!("email")),
        "no gateway: the code goes by e-mail"
    );
    let code = login_code(&nth_mail(&inbox, &email, 1).await);
    for expected in [
        StatusCode::UNAUTHORIZED,
        StatusCode::UNAUTHORIZED,
        StatusCode::TOO_MANY_REQUESTS,
    ] {
        assert_eq!(app.login(&email, "wrong-password").await.status(), expected);
    }
    drop(guard);
    let logs = logged(&logs);
    assert!(logs.contains("login refused"), "{logs}");
    assert!(logs.contains("auth rate limit"), "{logs}");
    for line in logs
        .lines()
        .filter(|l| l.contains("login refused") || l.contains("auth rate limit"))
    {
        assert!(line.contains(&format!("user={id}")), "{line}");
    }
    let local = email.split('@').next().unwrap();
    assert!(
        !logs.contains(local),
        "an e-mail address in the log: {logs}"
    );
    assert!(!logs.contains(&code), "a code in the log: {logs}");
}

/// Issue 11, item 14: in development mode (`DEV_LOG_CODES`) the log stands in for the SMS gateway.
#[tokio::test]
async fn phone_codes_are_logged_in_development_mode_only() {
    let (guard, logs) = capture_logs();
    let app = spawn_app_with(|s| s.dev_log_codes = true).await;
    let email = app.create_user(false, &[]).await;
    let basic = app.basic_token(&email).await;
    app.request(Method::PATCH, "/auth-api/session/profile")
        .bearer_auth(&basic)
        .json(&json!({ "firstName": "P", "lastName": "Q", "phone": "2025550123", "twoFactorMethod": "phone" }))
        .send()
        .await
        .unwrap();
    let (_, body) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD }),
    )
    .await;
    assert_eq!(body["twoFactorMethod"], "phone");
    drop(guard);
    let logs = logged(&logs);
    let at = logs.find("login code is ").expect("the code is logged") + "login code is ".len();
    let code = &logs[at..at + 6];
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/login-code",
        json!({ "email": email, "code": code }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}
