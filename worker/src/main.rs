//! The worker process: migrates, then runs the job pool until SIGINT/SIGTERM.

use clap::Parser;
use std::time::Duration;
use tenancy::Tenancy;
use worker::{run_pool, JobQueue, PoolConfig, DEFAULT_QUEUE};

#[derive(Debug, Parser)]
#[command(name = "worker", about = "Compass background job worker")]
struct Args {
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "postgres://postgres@127.0.0.1:5432/compass"
    )]
    database_url: String,
    #[arg(long, env = "REDIS_URL", default_value = "redis://127.0.0.1:6379")]
    redis_url: String,
    #[arg(long, env = "JOB_QUEUE", default_value = DEFAULT_QUEUE)]
    queue: String,
    /// Jobs run at the same time by this process.
    #[arg(long, env = "WORKER_CONCURRENCY", default_value_t = 4)]
    concurrency: usize,
    #[arg(long, env = "WORKER_NAME", default_value = "compass-worker")]
    name: String,
    /// Seconds a shutdown waits for running jobs.
    #[arg(long, env = "WORKER_SHUTDOWN_SECS", default_value_t = 30)]
    shutdown_secs: u64,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    worker::init_tracing();
    let args = Args::parse();
    let pool_size = u32::try_from(args.concurrency.max(1) * 2).unwrap_or(8);
    let tenancy = Tenancy::connect(&args.database_url, pool_size).await?;
    tenancy.migrate_all().await?;
    let queue = JobQueue::connect(&args.redis_url, &args.queue).await?;
    let config = PoolConfig {
        concurrency: args.concurrency,
        name: args.name,
        shutdown_timeout: Duration::from_secs(args.shutdown_secs),
    };
    run_pool(tenancy, queue, config, shutdown_signal()).await?;
    tracing::info!("worker stopped");
    Ok(())
}

/// Resolves on Ctrl-C or SIGTERM, whichever comes first.
async fn shutdown_signal() -> std::io::Result<()> {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    tokio::select! {
        r = tokio::signal::ctrl_c() => r,
        _ = term.recv() => Ok(()),
    }
}
