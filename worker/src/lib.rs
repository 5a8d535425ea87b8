//! Background jobs: what a job is, how the api enqueues one, and the worker pool that runs them.
//!
//! A job is a row in the client's `jobs` table (what the UI polls) plus a [`JobMessage`] on the Redis queue that
//! names the client and the row. Delivery is at least once, so every [`JobKind`] is idempotent and the runner
//! ignores a message whose row is already done.

mod error;
pub mod import;
mod kinds;
pub mod mail;
mod pool;
mod queue;
mod row;
mod runner;

pub use error::JobError;
pub use kinds::JobKind;
pub use pool::{run_pool, PoolConfig};
pub use queue::{JobMessage, JobQueue, DEFAULT_QUEUE};
pub use row::{JobResult, JobRow};

/// After this many attempts a job that keeps failing is marked done and unsuccessful.
pub const MAX_ATTEMPTS: i32 = 4;

/// Structured JSON logs for the api and worker processes; `RUST_LOG` filters them (default `info`).
pub fn init_tracing() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .json()
        .init();
}
