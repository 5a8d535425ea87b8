//! The worker's process tests in one test binary (one link instead of one per file): each module starts the real
//! worker binary against real Postgres, Redis and an SMTP sink. `hostile_files` stays a binary of its own, since it
//! measures the whole process's peak memory.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../common/mod.rs"]
mod common;

mod killed_send;
mod killed_winner_send;
mod metrics;
