//! What the worker's process tests share: their settings and a real worker binary started against them.
//! Each test binary uses part of it.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod hostile;

use std::process::{Child, Command};

pub fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

pub fn unique(prefix: &str) -> String {
    format!(
        "{prefix}{}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    )
}

/// One test's Postgres, Redis queue, SMTP sink and send journal.
pub struct Setup {
    pub database_url: String,
    pub redis_url: String,
    pub queue: String,
    pub smtp_url: String,
    pub journal: std::path::PathBuf,
    pub tracking_secret: &'static str,
}

impl Setup {
    pub fn start_worker(&self) -> Child {
        Command::new(env!("CARGO_BIN_EXE_worker"))
            .env("DATABASE_URL", &self.database_url)
            .env("REDIS_URL", &self.redis_url)
            .env("JOB_QUEUE", &self.queue)
            .env("SMTP_URL", &self.smtp_url)
            .env("SEND_JOURNAL_DIR", &self.journal)
            .env("TRACKING_SECRET", self.tracking_secret)
            .env("WORKER_CONCURRENCY", "1")
            // Only the job the test queues: the scheduler's first pass must not pick up other tests' mailings.
            .env("SCHEDULE_SECONDS", "86400")
            .env("RUST_LOG", "warn")
            .spawn()
            .unwrap()
    }
}
