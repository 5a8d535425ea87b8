//! Worker pools on a test app's queue.

use super::{redis_url, TestApp};
use std::time::Duration;
use tokio::sync::oneshot;
use worker::{run_pool, JobQueue, PoolConfig};

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
        self.start_worker_with(None).await
    }

    /// A worker whose mailing scheduler also runs. Only one test may use it: a scheduler claims due mailings of
    /// every client in the database, which in tests means other tests' clients too. Its passes are an hour apart
    /// (the first one at start), so a mailing confirmed later starts only through the database's notification.
    pub async fn start_worker_with_scheduler(&self) -> WorkerHandle {
        self.start_worker_with(Some(Duration::from_secs(3600)))
            .await
    }

    /// A worker that reconciles (queues again jobs whose queue message was lost) for this one client only, at
    /// start and then every `every`.
    pub async fn start_worker_reconciling(&self, client_id: i64, every: Duration) -> WorkerHandle {
        self.start_pool(None, Some((client_id, every))).await
    }

    async fn start_worker_with(&self, schedule_every: Option<Duration>) -> WorkerHandle {
        self.start_pool(schedule_every, None).await
    }

    async fn start_pool(
        &self,
        schedule_every: Option<Duration>,
        reconcile: Option<(i64, Duration)>,
    ) -> WorkerHandle {
        let queue = JobQueue::connect(&redis_url(), &self.queue_name)
            .await
            .unwrap();
        let config = PoolConfig {
            concurrency: 2,
            name: "test-worker".into(),
            shutdown_timeout: Duration::from_secs(5),
            schedule_every,
            reconcile_every: reconcile.map(|r| r.1),
            reconcile_only_client: reconcile.map(|r| r.0),
            // Tests make their clients' spares themselves (`create_client`).
            spare_schemas: None,
        };
        let services = std::sync::Arc::new(worker::Services {
            smtp: worker::mail::SmtpServer::from_url(&self.smtp_url).unwrap(),
            send_journal: self.send_journal.clone(),
            links: worker::mail::links::LinkSigner::new(&self.tracking_secret, &self.address),
            send_rate_per_second: 0,
            send_concurrency: 4,
            mail_from_address: worker::DEFAULT_MAIL_FROM_ADDRESS.to_owned(),
        });
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
