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

/// Moves the account-wide failure clock of every account of this app back by `secs`, as if the last failure had
/// come that long ago.
async fn age_account_failures(app: &TestApp, secs: i64) {
    let client = redis::Client::open(redis_url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{}:authfail:login:acct:*", app.queue_name))
        .query_async(&mut conn)
        .await
        .unwrap();
    assert!(!keys.is_empty(), "the account's failures are counted");
    for key in keys {
        let last: i64 = redis::cmd("HGET")
            .arg(&key)
            .arg("last")
            .query_async(&mut conn)
            .await
            .unwrap();
        let _: () = redis::cmd("HSET")
            .arg(&key)
            .arg("last")
            .arg(last - secs * 1000)
            .query_async(&mut conn)
            .await
            .unwrap();
    }
}

/// Issue 11, item 10, and issue 33, item 9: failures across many addresses slow the wrong guesses at an account,
/// step by growing step, but never refuse its owner's right password, at a new address or a known one.
#[tokio::test]
async fn failures_from_many_addresses_slow_wrong_guesses_but_never_refuse_the_right_password() {
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
    for n in 1..=5 {
        let from = format!("203.0.113.{n}");
        let expected = if n <= 3 {
            StatusCode::UNAUTHORIZED
        } else {
            StatusCode::TOO_MANY_REQUESTS
        };
        assert_eq!(
            login_from(&app, &email, "wrong-password", &from).await,
            expected,
            "wrong guess {n}: past the third, a guess must wait"
        );
    }
    for n in 1..=2 {
        assert_eq!(
            login_from(&app, &email, PASSWORD, &format!("192.0.2.{n}")).await,
            StatusCode::OK,
            "the owner's right password from a new address {n} passes while the account is slowed"
        );
    }
    assert_eq!(
        login_from(&app, &email, PASSWORD, "198.51.100.7").await,
        StatusCode::OK,
        "and at an address the owner signed in from"
    );
    // Five wrong guesses ask for 4 s since the last one; once that has passed, one more guess is answered.
    age_account_failures(&app, 5).await;
    assert_eq!(
        login_from(&app, &email, "wrong-password", "203.0.113.20").await,
        StatusCode::UNAUTHORIZED,
        "after the delay, one more try"
    );
    assert_eq!(
        login_from(&app, &email, "wrong-password", "203.0.113.21").await,
        StatusCode::TOO_MANY_REQUESTS,
        "and the next waits again, longer"
    );
    age_account_failures(&app, 5).await;
    assert_eq!(
        login_from(&app, &email, "wrong-password", "203.0.113.22").await,
        StatusCode::TOO_MANY_REQUESTS,
        "the delay has doubled, twice, past 5 s"
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
