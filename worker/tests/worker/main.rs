//! The worker's process tests in one test binary (one link instead of one per file): each module starts the real
//! worker binary against real Postgres, Redis and an SMTP sink. `hostile_files` stays a binary of its own, since it
//! measures the whole process's peak memory.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../common/mod.rs"]
mod common;

mod killed_send;
mod killed_winner_send;
mod metrics;

/// One test's worker processes at a time. A live worker takes over the job of a worker that died, whatever its
/// client (that is the product working: work never strands), so another test's worker running beside a kill test
/// would send the rest of that test's mailing to its own sink.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
