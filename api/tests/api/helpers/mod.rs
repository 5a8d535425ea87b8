//! What the api tests share: settings, waiting, names, and (in the modules) the test app and its stand-ins.

mod app;
mod calls;
mod dns_server;
mod http_stub;
mod mail_sink;
mod tokens;
mod workers;

pub use app::*;
pub use dns_server::*;
pub use http_stub::*;
pub use mail_sink::*;
pub use tokens::*;
pub use workers::WorkerHandle;

use reqwest::{Response, StatusCode};
use serde_json::Value;
use std::time::Duration;
use tenancy::Client;

pub const PASSWORD: &str = "Sturdy-passw0rd";
/// The master secret of test apps (their keys are derived from it).
pub const JWT_SECRET: &str = "test-secret-test-secret-test-secret!";
/// The test workers' `BOUNCE_SECRET`: the bounce listener the tests start uses it too.
pub const TEST_BOUNCE_SECRET: &str = "test-bounce-secret";
/// The tests' DKIM_KEY_SECRET (api and workers alike).
pub const DKIM_KEY_SECRET: &str =
    "5f2b8c1d9e0a4b3c7d6e5f40312a1b2c3d4e5f60718293a4b5c6d7e8f9012345";

pub fn database_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/compass_test".into())
}

pub fn redis_url() -> String {
    std::env::var("TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

/// Asks `probe` every 50 ms until it answers `Some`, and answers that; panics naming `what` once `deadline` has
/// passed. Tests wait for what they expect to see, never for a fixed time.
pub async fn wait_until<T, F, Fut>(what: &str, deadline: Duration, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let until = tokio::time::Instant::now() + deadline;
    loop {
        if let Some(found) = probe().await {
            return found;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "{what}: not seen within {deadline:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub fn unique(prefix: &str) -> String {
    let id = uuid::Uuid::new_v4().simple().to_string();
    format!("{prefix}{}", &id[..12])
}
/// A signed-in user acting for one client.
#[derive(Clone)]
pub struct Session {
    pub token: String,
    pub client: Client,
}

pub async fn json_message(response: Response) -> (StatusCode, String) {
    let status = response.status();
    let body: Value = response.json().await.expect("error bodies are JSON");
    (
        status,
        body["message"]
            .as_str()
            .expect("error bodies have a message")
            .to_owned(),
    )
}
