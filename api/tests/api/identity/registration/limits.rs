use super::*;

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

fn registration(email: &str, client: &tenancy::Client) -> Value {
    json!({ "email": email, "password": PASSWORD, "firstname": "Ann", "lastname": "Lee", "phone": "",
            "twoFactorMethod": "email", "client": client.short_name })
}

async fn register_from(app: &TestApp, body: Value, from: &str) -> (StatusCode, Value) {
    let response = app
        .request(Method::POST, "/auth-api/auth/register")
        .header("x-forwarded-for", from)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Issue 33, item 10: the duplicate answer stays (the spec asks for it), but asking is slow: a few registrations
/// per address and per named e-mail an hour, and the owner of an existing account hears of each try.
#[tokio::test]
async fn registration_is_slow_to_enumerate_and_the_owner_hears_of_it() {
    let (app, inbox) = app_with_mail(|s| {
        s.registrations_per_address_per_hour = 3;
        s.registrations_per_email_per_hour = 2;
        s.trusted_proxies = "127.0.0.1, ::1".parse().unwrap();
    })
    .await;
    let client = app.create_client().await;
    // One address asking about many e-mails.
    for n in 1..=4 {
        let (status, _) = register_from(
            &app,
            registration(&format!("probe{n}@example.org"), &client),
            "203.0.113.50",
        )
        .await;
        let expected = if n <= 3 {
            StatusCode::OK
        } else {
            StatusCode::TOO_MANY_REQUESTS
        };
        assert_eq!(status, expected, "registration {n} from one address");
    }
    // Many addresses asking about one e-mail: the owner's, verified and enabled.
    let owner = "owner@example.org";
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query(
        "insert into client_users (email, password_hash, email_verified, enabled) values ($1, 'x', now(), true)",
    )
    .bind(owner)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    for n in 1..=3 {
        let (status, body) = register_from(
            &app,
            registration(owner, &client),
            &format!("198.51.100.{n}"),
        )
        .await;
        if n <= 2 {
            assert_eq!(
                (status, body),
                (
                    StatusCode::OK,
                    json!({ "status": "duplicate", "duplicate": true })
                )
            );
        } else {
            assert_eq!(
                status,
                StatusCode::TOO_MANY_REQUESTS,
                "try {n} at one e-mail"
            );
        }
    }
    let told = nth_mail(&inbox, owner, 2).await;
    assert!(told.contains("Someone tried to register"), "{told}");
    assert!(
        told.contains(&format!("client={}", client.short_name)),
        "{told}"
    );
    assert_eq!(
        mail_to(&inbox, owner).len(),
        2,
        "one notice per answered try, none for the refused one"
    );
}
