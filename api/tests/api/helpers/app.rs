//! A test app: the api on a free port over the test database and Redis, with its settings.

use super::{database_url, redis_url, unique, DKIM_KEY_SECRET, JWT_SECRET};
use api::{Application, Settings};
use tenancy::Tenancy;

pub struct TestApp {
    pub address: String,
    pub smtp_url: String,
    pub tracking_secret: String,
    /// The send journals of this app's workers.
    pub send_journal: std::path::PathBuf,
    pub tenancy: Tenancy,
    pub queue_name: String,
    pub http: reqwest::Client,
    /// The api's `DNS_RESOLVER`, which this app's workers ask too.
    pub dns_resolver: Option<String>,
}
/// `TEST_LOG=1 cargo test …` shows the api's and worker's logs.
fn init_logs() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    if std::env::var_os("TEST_LOG").is_some() {
        ONCE.call_once(telemetry::init_tracing);
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// `spawn_app` with settings changed by `adjust` first.
pub async fn spawn_app_with(adjust: impl FnOnce(&mut Settings)) -> TestApp {
    init_logs();
    let web_dist = std::env::temp_dir().join(unique("compass-web-"));
    std::fs::create_dir_all(&web_dist).unwrap();
    std::fs::write(
        web_dist.join("index.html"),
        "<!doctype html><title>Compass</title><div id=root></div>",
    )
    .unwrap();
    let queue_name = unique("compass-test-");
    let mut settings = Settings {
        database_url: database_url(),
        redis_url: redis_url(),
        job_queue: queue_name.clone(),
        host: "127.0.0.1".into(),
        port: 0,
        jwt_secret: JWT_SECRET.into(),
        token_ttl_minutes: 30,
        web_dist,
        provider_name: "Test Agency".into(),
        google_client_id: None,
        max_body_bytes: 64 * 1024,
        max_upload_bytes: 4 * 1024 * 1024,
        smtp_url: "smtp://127.0.0.1:9".into(),
        tracking_secret: Default::default(),
        dkim_key_secret: DKIM_KEY_SECRET.into(),
        dns_resolver: None,
        public_url: "http://127.0.0.1".into(),
        form_views_per_minute: 0,
        form_submits_per_minute: 0,
        database_pool_size: 8,
        client_auth: None,
        mail_from_address: "no-reply@compass.test".into(),
        mail_from_name: "Compass".into(),
        sms_gateway_url: None,
        sms_gateway_key: Default::default(),
        google_jwks_url: "http://127.0.0.1:9/certs".into(),
        // Tests sign in often from one address; the limit test sets its own.
        auth_attempts_per_account: 0,
        auth_attempts_per_address: 0,
        auth_limit_window_seconds: 900,
        auth_account_failures_before_delay: 0,
        registrations_per_address_per_hour: 0,
        registrations_per_email_per_hour: 0,
        trusted_proxies: Default::default(),
        dev_log_codes: false,
        ses_sns_cert_pem: None,
    };
    adjust(&mut settings);
    let smtp_url = settings.smtp_url.clone();
    let dns_resolver = settings.dns_resolver.clone();
    // The key the api signs tracking links with, which its workers get.
    let tracking_secret = api::auth::Keys::derive(
        settings.jwt_secret.expose(),
        Some(settings.tracking_secret.expose()),
    )
    .expect("test keys")
    .tracking()
    .to_owned();
    let app = Application::build(settings).await.expect("api builds");
    let address = format!("http://127.0.0.1:{}", app.port());
    let tenancy = app.state().tenancy.clone();
    tokio::spawn(app.run_until(std::future::pending()));
    TestApp {
        address: address.clone(),
        smtp_url,
        tracking_secret,
        send_journal: std::env::temp_dir().join(unique("compass-journal-")),
        tenancy,
        queue_name,
        http: reqwest::Client::new(),
        dns_resolver,
    }
}
