//! What the api and worker processes tell their operators: logs (and an error's whole chain of causes in them),
//! Prometheus metrics, secrets kept out of both, and the logged second try of a Redis call.

mod chain;
pub mod metrics;
pub mod retry;
pub mod secret;

pub use chain::Chain;

/// Logs of the api and worker processes: JSON lines when `LOG_FORMAT=json`, plain text otherwise; `RUST_LOG`
/// filters them (default `info`).
pub fn init_tracing() {
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    // JSON for log collectors; plain lines for a person reading a terminal or `.data/*.log`.
    if std::env::var("LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json")) {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .json()
            .init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).init();
    }
}
