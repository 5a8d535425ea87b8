//! The worker process: migrates, then runs the job pool until SIGINT/SIGTERM.

use clap::Parser;
use jobs::{JobQueue, DEFAULT_QUEUE};
use std::time::Duration;
use tenancy::Tenancy;
use worker::{run_pool, PoolConfig};

/// No `Debug`: the connection URLs may hold passwords.
#[derive(Parser)]
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
    /// Outgoing mail server: smtp://host:port, smtp://host:port?tls=required or smtps://host:port.
    #[arg(long, env = "SMTP_URL", default_value = "smtp://127.0.0.1:2525")]
    smtp_url: String,
    /// SMTP connections per process (messages in flight per send).
    #[arg(long, env = "SMTP_POOL_SIZE", default_value_t = 8)]
    smtp_pool_size: u32,
    /// Messages per second per send; 0 for as fast as the server takes them.
    #[arg(long, env = "MAIL_RATE_PER_SECOND", default_value_t = 0)]
    mail_rate_per_second: u32,
    /// Key that signs tracking and unsubscribe links: the api's TRACKING_SECRET.
    #[arg(long, env = "TRACKING_SECRET", hide_env_values = true)]
    tracking_secret: telemetry::secret::Secret,
    /// Key that signs VERP bounce addresses, shared with the bounce listener only. Unset, mailing copies go out
    /// with their From address as the envelope sender and bounce messages are not heard.
    #[arg(long, env = "BOUNCE_SECRET", hide_env_values = true)]
    bounce_secret: Option<telemetry::secret::Secret>,
    /// The api's public address, used in tracking and unsubscribe links.
    #[arg(long, env = "PUBLIC_URL", default_value = "http://127.0.0.1:8080")]
    public_url: String,
    /// Folder of the send journals, which let a send resumed after a crash skip the messages already handed over.
    /// Defaults to compass-send-journal in the system's temporary folder.
    #[arg(long, env = "SEND_JOURNAL_DIR")]
    send_journal_dir: Option<std::path::PathBuf>,
    /// Sender of the product's own mail (scheduled reports), as the api's.
    #[arg(long, env = "MAIL_FROM_ADDRESS", default_value = mail::DEFAULT_MAIL_FROM_ADDRESS)]
    mail_from_address: String,
    /// Key that opens sender domains' DKIM keys: the api's DKIM_KEY_SECRET (64 hex digits).
    #[arg(long, env = "DKIM_KEY_SECRET", hide_env_values = true)]
    dkim_key_secret: Option<telemetry::secret::Secret>,
    /// Nameserver (ip:port) asked for the MX hosts of recipients' domains, which tell the mailbox provider of a
    /// custom domain; the system's resolver when unset.
    #[arg(long, env = "DNS_RESOLVER")]
    dns_resolver: Option<String>,
    /// Seconds between scheduler passes over due mailings.
    #[arg(long, env = "SCHEDULE_SECONDS", default_value_t = 5)]
    schedule_seconds: u64,
    /// Address of the `/metrics` listener (Prometheus text: jobs by kind and outcome, queue depth, messages sent),
    /// e.g. 127.0.0.1:9187; none when unset. It has no authentication: bind it to a private address.
    #[arg(long, env = "WORKER_METRICS_ADDR")]
    metrics_addr: Option<String>,
    /// Seconds a shutdown waits for running jobs.
    #[arg(long, env = "WORKER_SHUTDOWN_SECS", default_value_t = 30)]
    shutdown_secs: u64,
    /// Re-queue lost jobs of this client only; every client when unset. For tests that share one database with
    /// other tests' clients, whose queued jobs belong to other queues.
    #[arg(long, env = "RECONCILE_ONLY_CLIENT")]
    reconcile_only_client: Option<i64>,
    /// Spare client schemas kept ready (checked every minute), so creating a client is a rename; 0 keeps none.
    #[arg(long, env = "SPARE_SCHEMAS", default_value_t = tenancy::DEFAULT_SPARE_SCHEMAS)]
    spare_schemas: usize,
    /// Longest cell an imported file may hold, in bytes (a longer one fails the import naming its row and column).
    #[arg(long, env = "IMPORT_MAX_CELL_BYTES", default_value_t = 64 * 1024)]
    import_max_cell_bytes: usize,
    /// Longest row an imported file may hold, in bytes.
    #[arg(long, env = "IMPORT_MAX_ROW_BYTES", default_value_t = 1024 * 1024)]
    import_max_row_bytes: usize,
    /// Largest old-format .xls accepted (calamine reads it whole); .xlsx and CSV are streamed.
    #[arg(long, env = "IMPORT_MAX_XLS_BYTES", default_value_t = 32 * 1024 * 1024)]
    import_max_xls_bytes: u64,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    telemetry::init_tracing();
    let args = Args::parse();
    worker::import::set_file_limits(worker::import::FileLimits {
        max_cell_bytes: args.import_max_cell_bytes.max(1),
        max_row_bytes: args.import_max_row_bytes.max(1),
        max_xls_bytes: args.import_max_xls_bytes,
    });
    let pool_size = u32::try_from(args.concurrency.max(1) * 2).unwrap_or(8);
    let tenancy = Tenancy::connect(&args.database_url, pool_size).await?;
    tenancy.migrate_all().await?;
    let queue = JobQueue::connect(&args.redis_url, &args.queue).await?;
    let liveness = worker::Liveness::new(&args.name, &args.queue);
    if let Some(addr) = &args.metrics_addr {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        tracing::info!(%addr, "worker metrics listening");
        tokio::spawn(worker::metrics::serve(
            listener,
            worker::metrics::Sources {
                queue: queue.clone(),
                tenancy: tenancy.clone(),
                liveness: std::sync::Arc::clone(&liveness),
                stall_after: worker::STALL_AFTER,
            },
        ));
    }
    let services = std::sync::Arc::new(worker::Services {
        smtp: mail::SmtpServer::from_url(&args.smtp_url)?,
        send_journal: args
            .send_journal_dir
            .unwrap_or_else(|| std::env::temp_dir().join("compass-send-journal")),
        links: mail::links::LinkSigner::new(args.tracking_secret.expose(), &args.public_url),
        verp: args
            .bounce_secret
            .filter(|s| !s.is_empty())
            .map(|s| mail::verp::VerpSigner::new(s.expose())),
        send_rate_per_second: args.mail_rate_per_second,
        send_concurrency: args.smtp_pool_size as usize,
        mail_from_address: args.mail_from_address,
        dkim: match args
            .dkim_key_secret
            .as_ref()
            .map(|s| s.expose().trim().to_owned())
        {
            Some(hex) if !hex.is_empty() => Some(mail::dkim::KeyBox::from_hex(&hex)?),
            _ => None,
        },
        mx: match worker::mx::MxProviders::new(args.dns_resolver.as_deref()) {
            Ok(mx) => Some(mx),
            // A wrong DNS_RESOLVER is the operator's mistake to see at once; a machine without a resolver of its
            // own still sends, pacing custom domains as other.
            Err(e @ mail::dns::DnsConfigError::Address(_)) => return Err(e.into()),
            Err(e) => {
                tracing::warn!(error = %e, "no DNS resolver: custom domains are paced as other");
                None
            }
        },
    });
    let config = PoolConfig {
        concurrency: args.concurrency,
        liveness,
        shutdown_timeout: Duration::from_secs(args.shutdown_secs),
        schedule_every: Some(Duration::from_secs(args.schedule_seconds.max(1))),
        schedule_only_client: None,
        reconcile_every: Some(Duration::from_secs(60)),
        claim_every: Some(Duration::from_secs(2)),
        reconcile_only_client: args.reconcile_only_client,
        portfolio_every: Some(worker::PORTFOLIO_EVERY),
        journeys_on_events: Some(match args.reconcile_only_client {
            Some(id) => worker::EventClients::Only(id),
            None => worker::EventClients::All,
        }),
        spare_schemas: (args.spare_schemas > 0)
            .then_some((args.spare_schemas, Duration::from_secs(60))),
        stall_after: worker::STALL_AFTER,
    };
    if let Err(e) = run_pool(tenancy, queue, services, config, shutdown_signal()).await {
        // Non-zero, at once: the supervisor (systemd, compose, the run command) starts a new process. Returning
        // would wait for the runtime's tasks, and a stalled one may never end.
        tracing::error!(error = %telemetry::Chain(&e), "worker pool failed; exiting");
        std::process::exit(1);
    }
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
