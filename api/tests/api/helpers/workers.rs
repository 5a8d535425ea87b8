//! Worker pools on a test app's queue.

use super::{redis_url, TestApp, TEST_BOUNCE_SECRET};
use jobs::JobQueue;
use std::time::Duration;
use tokio::sync::oneshot;
use worker::{run_pool, PoolConfig};

/// A worker pool on this app's queue; dropping the handle (or `stop`) shuts it down.
pub struct WorkerHandle {
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl WorkerHandle {
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = tokio::time::timeout(Duration::from_secs(20), &mut self.task).await;
    }

    /// Ends the pool at once, like a killed process: no graceful shutdown.
    pub fn kill(self) {
        self.task.abort();
    }
}

impl TestApp {
    pub async fn start_worker(&self) -> WorkerHandle {
        self.start_pool(None, None).await
    }

    /// A worker whose scheduler also runs, for this client only (a pass moves every client's due mailings and
    /// journeys, which in tests means other tests' clients too). Its passes are an hour apart (the first one at
    /// start), so a mailing confirmed later starts only through the database's notification.
    pub async fn start_worker_with_scheduler(&self, client_id: i64) -> WorkerHandle {
        let queue = JobQueue::connect(&redis_url(), &self.queue_name)
            .await
            .unwrap();
        let mut config = self.pool_config(Some(Duration::from_secs(3600)), None);
        config.schedule_only_client = Some(client_id);
        self.start_pool_on(queue, config).await
    }

    /// A worker that reconciles (queues again jobs whose queue message was lost) for this one client only, at
    /// start and then every `every`.
    pub async fn start_worker_reconciling(&self, client_id: i64, every: Duration) -> WorkerHandle {
        self.start_pool(None, Some((client_id, every))).await
    }

    /// A worker that claims this client's jobs from the database (as production workers do, every 2 s) and
    /// never reconciles: a job runs through its queue message or the database path.
    pub async fn start_worker_claiming(&self, client_id: i64) -> WorkerHandle {
        let queue = JobQueue::connect(&redis_url(), &self.queue_name)
            .await
            .unwrap();
        let mut config = self.pool_config(None, None);
        config.claim_every = Some(Duration::from_secs(2));
        config.reconcile_only_client = Some(client_id);
        self.start_pool_on(queue, config).await
    }

    /// A worker that runs this client's journeys as soon as its writers leave events (as production workers do),
    /// and has no scheduler: nothing else moves its journeys.
    pub async fn start_worker_on_journey_events(&self, client_id: i64) -> WorkerHandle {
        let queue = JobQueue::connect(&redis_url(), &self.queue_name)
            .await
            .unwrap();
        let mut config = self.pool_config(None, None);
        config.journeys_on_events = Some(worker::EventClients::Only(client_id));
        self.start_pool_on(queue, config).await
    }

    /// A worker with one slot: it handles queue messages one at a time, in the order they were queued, so a job
    /// that finishes tells the test that every message queued before it was handled.
    pub async fn start_worker_one_at_a_time(&self) -> WorkerHandle {
        let queue = JobQueue::connect(&redis_url(), &self.queue_name)
            .await
            .unwrap();
        let mut config = self.pool_config(None, None);
        config.concurrency = 1;
        self.start_pool_on(queue, config).await
    }

    /// The pool configuration of the test workers: two slots, no database claim, production's stall threshold.
    pub fn pool_config(
        &self,
        schedule_every: Option<Duration>,
        reconcile: Option<(i64, Duration)>,
    ) -> PoolConfig {
        PoolConfig {
            concurrency: 2,
            liveness: worker::Liveness::new("test-worker", &self.queue_name),
            shutdown_timeout: Duration::from_secs(5),
            schedule_every,
            schedule_only_client: None,
            reconcile_every: reconcile.map(|r| r.1),
            claim_every: None,
            reconcile_only_client: reconcile.map(|r| r.0),
            // A pass would queue refreshes for every client in the database; tests call `portfolio_due` for theirs.
            portfolio_every: None,
            // A journeys test runs its client's passes itself (`Fixture::pass`) or starts a worker woken by its events.
            journeys_on_events: None,
            // Tests make their clients' spares themselves (`create_client`).
            spare_schemas: None,
            stall_after: worker::STALL_AFTER,
        }
    }

    async fn start_pool(
        &self,
        schedule_every: Option<Duration>,
        reconcile: Option<(i64, Duration)>,
    ) -> WorkerHandle {
        let queue = JobQueue::connect(&redis_url(), &self.queue_name)
            .await
            .unwrap();
        let config = self.pool_config(schedule_every, reconcile);
        self.start_pool_on(queue, config).await
    }

    /// The services of the test workers: the app's mail sink and link key.
    pub fn worker_services(&self) -> std::sync::Arc<worker::Services> {
        std::sync::Arc::new(worker::Services {
            smtp: mail::SmtpServer::from_url(&self.smtp_url).unwrap(),
            send_journal: self.send_journal.clone(),
            links: mail::links::LinkSigner::new(&self.tracking_secret, &self.address),
            verp: Some(mail::verp::VerpSigner::new(TEST_BOUNCE_SECRET)),
            send_rate_per_second: 0,
            send_concurrency: 4,
            mail_from_address: mail::DEFAULT_MAIL_FROM_ADDRESS.to_owned(),
            dkim: Some(mail::dkim::KeyBox::from_hex(super::DKIM_KEY_SECRET).unwrap()),
            // Only a test that serves DNS itself looks MX hosts up: no lookup leaves the machine.
            mx: self
                .dns_resolver
                .as_deref()
                .map(|ns| worker::mx::MxProviders::new(Some(ns)).unwrap()),
        })
    }

    async fn start_pool_on(&self, queue: JobQueue, config: PoolConfig) -> WorkerHandle {
        let services = self.worker_services();
        let (tx, rx) = oneshot::channel::<()>();
        let tenancy = self.tenancy.clone();
        let task = tokio::spawn(async move {
            let shutdown = async move {
                let _ = rx.await;
                Ok(())
            };
            run_pool(tenancy, queue, services, config, shutdown)
                .await
                .unwrap();
        });
        WorkerHandle {
            stop: Some(tx),
            task,
        }
    }
}
