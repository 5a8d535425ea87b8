use super::*;

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
