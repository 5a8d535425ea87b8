//! The worker pool that runs background jobs. What a job is, its queue and its row are the `jobs` crate's; this
//! crate runs each kind (`dispatch.rs`), claims and reconciles rows, and keeps its process's liveness.

pub mod claim;
mod dispatch;
mod experiments;
pub mod import;
mod journeys;
pub mod liveness;
pub mod metrics;
pub mod mx;
mod pool;
mod portfolio;
pub mod reconcile;
mod reports;
mod runner;
mod schedule;
mod segments;
mod send;
pub mod spares;

pub use experiments::experiments_due;
pub use journeys::{journeys_due, EventClients, JourneysPass};
pub use liveness::Liveness;
pub use pool::{run_pool, PoolConfig, STALL_AFTER};
pub use portfolio::{portfolio_due, PORTFOLIO_EVERY};
pub use schedule::{segments_due, start_due};

/// What jobs need besides the database: outgoing mail and its signed links.
pub struct Services {
    /// Where mailings go; a send holds `send_concurrency` connections to it.
    pub smtp: mail::SmtpServer,
    /// The folder of send journals (see `send::journal`): on a disk that outlives the worker process.
    pub send_journal: std::path::PathBuf,
    pub links: mail::links::LinkSigner,
    /// Signs the VERP envelope senders of mailing copies (`BOUNCE_SECRET`); without it copies go out with the From
    /// address as their envelope sender.
    pub verp: Option<mail::verp::VerpSigner>,
    /// Messages per second per mailing send; 0 for as fast as the server takes them.
    pub send_rate_per_second: u32,
    /// Messages in flight at once per send (the SMTP pool's size).
    pub send_concurrency: usize,
    /// The sender of the product's own mail (scheduled reports): the api's `MAIL_FROM_ADDRESS`.
    pub mail_from_address: String,
    /// Opens sender domains' DKIM keys (the api's `DKIM_KEY_SECRET`); without it a send from a domain with a key
    /// fails rather than going out unsigned.
    pub dkim: Option<mail::dkim::KeyBox>,
    /// Looks up the MX hosts of recipients' custom domains, so a Google Workspace or Microsoft 365 domain is paced
    /// with its provider; without it every custom domain is paced as other.
    pub mx: Option<mx::MxProviders>,
}

/// One job's view of the world: its client, its row, and the shared services.
pub struct JobContext<'a> {
    pub tenancy: &'a tenancy::Tenancy,
    pub client: &'a tenancy::Client,
    pub job_id: i64,
    pub services: &'a Services,
}

/// After this many attempts a job that keeps failing is marked done and unsuccessful.
pub const MAX_ATTEMPTS: i32 = 4;
