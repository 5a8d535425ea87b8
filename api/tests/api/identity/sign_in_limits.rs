use super::*;

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
