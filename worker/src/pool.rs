use crate::{runner, schedule, JobError, JobMessage, JobQueue, Services, MAX_ATTEMPTS};
use apalis::layers::retry::RetryPolicy;
use apalis::prelude::{BackendExt, Data, Monitor, WorkerBuilder, WorkerBuilderExt};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tenancy::Tenancy;
use tower::retry::backoff::{ExponentialBackoffMaker, MakeBackoff};
use tower::util::rng::HasherRng;

/// How a worker process runs.
#[derive(Debug, Clone)]
pub struct PoolConfig {
    /// Jobs run at the same time in this process (one apalis worker each).
    pub concurrency: usize,
    /// Prefix of the worker names; the process id and a random suffix make each name unique.
    pub name: String,
    /// How long a shutdown waits for running jobs before giving up on them (they are redelivered).
    pub shutdown_timeout: Duration,
    /// How often the mailing scheduler looks for due mailings; `None` runs no scheduler.
    pub schedule_every: Option<Duration>,
    /// How often queued jobs whose queue message was lost are queued again (first at start); `None` never.
    pub reconcile_every: Option<Duration>,
    /// Limits reconcile to one client: for tests sharing a database with others. `None` in production.
    pub reconcile_only_client: Option<i64>,
    /// Spare client schemas kept ready, and how often they are counted (first at start); `None` keeps none.
    pub spare_schemas: Option<(usize, Duration)>,
}

/// Runs `concurrency` workers on `queue` until `shutdown` resolves, then lets running jobs finish.
pub async fn run_pool(
    tenancy: Tenancy,
    queue: JobQueue,
    services: Arc<Services>,
    config: PoolConfig,
    shutdown: impl Future<Output = std::io::Result<()>> + Send + 'static,
) -> Result<(), JobError> {
    let suffix = uuid::Uuid::new_v4().simple().to_string();
    let prefix = format!("{}-{}-{}", config.name, std::process::id(), &suffix[..8]);
    tracing::info!(workers = config.concurrency, %prefix, "worker pool starting");

    // Retries wait 0.5 s, 1 s, 2 s … up to 30 s, with jitter so a crowd of failures does not retry in step.
    let backoff = ExponentialBackoffMaker::new(
        Duration::from_millis(500),
        Duration::from_secs(30),
        1.0,
        HasherRng::default(),
    )
    .map_err(|e| JobError::Queue(e.to_string()))?
    .make_backoff();
    let retries = usize::try_from(MAX_ATTEMPTS - 1).unwrap_or(0);

    let scheduler = config
        .schedule_every
        .map(|every| tokio::spawn(schedule::run(tenancy.clone(), queue.clone(), every)));

    let reconciler = config.reconcile_every.map(|every| {
        tokio::spawn(crate::reconcile::run(
            tenancy.clone(),
            queue.clone(),
            every,
            config.reconcile_only_client,
        ))
    });

    let spares = config
        .spare_schemas
        .map(|(target, every)| tokio::spawn(crate::spares::run(tenancy.clone(), target, every)));

    let monitor = Monitor::new()
        .shutdown_timeout(config.shutdown_timeout)
        // A worker whose Redis connection breaks (Redis restarted) ends with an error; without a restart the
        // process would live on with no one taking jobs. Restarted workers find Redis again once it answers.
        .should_restart(|worker, error| {
            tracing::warn!(worker = worker.name(), restarts = worker.restarts(), %error, "worker restarted");
            true
        })
        .register_n(config.concurrency.max(1), move |index, _| {
            WorkerBuilder::new(format!("{prefix}-{index}"))
                // Without an interval the backend asks Redis for work thousands of times a second while a
                // worker is busy, taking a core from the jobs themselves.
                .backend(queue.storage().poll_with_interval(POLL_INTERVAL))
                .data(tenancy.clone())
                .data(services.clone())
                .retry(RetryPolicy::retries(retries).with_backoff(backoff.clone()))
                .build(handle)
        });
    let result = monitor
        .run_with_signal(shutdown)
        .await
        .map_err(|e| JobError::Queue(e.to_string()));
    for task in [scheduler, reconciler, spares].into_iter().flatten() {
        task.abort();
    }
    result
}

/// How often an idle worker slot asks the queue for work: the most a queued job waits before it starts.
const POLL_INTERVAL: Duration = Duration::from_millis(200);

async fn handle(
    message: JobMessage,
    tenancy: Data<Tenancy>,
    services: Data<Arc<Services>>,
) -> Result<(), JobError> {
    // The job runs as a task of its own. Polled inside the worker's own task, each of its wakeups (thousands a
    // second during a send) would also wake the worker's queue stream, which then asks Redis for work again.
    let (tenancy, services) = (Tenancy::clone(&tenancy), Arc::clone(&services));
    let job = RunningJob(tokio::spawn(async move {
        runner::execute(&tenancy, &services, &message).await
    }));
    job.finished().await
}

/// A job's task, cancelled with it: apalis dropping the job at shutdown must not leave the work running.
struct RunningJob(tokio::task::JoinHandle<Result<(), JobError>>);

impl RunningJob {
    async fn finished(mut self) -> Result<(), JobError> {
        (&mut self.0).await?
    }
}

impl Drop for RunningJob {
    fn drop(&mut self) {
        self.0.abort();
    }
}
