use crate::liveness::Liveness;
use crate::{claim, runner, schedule, Services, MAX_ATTEMPTS};
use apalis::layers::retry::RetryPolicy;
use apalis::prelude::{BackendExt, Data, Event, Monitor, WorkerBuilder, WorkerBuilderExt};
use jobs::{JobError, JobMessage, JobQueue};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tenancy::Tenancy;
use tokio::sync::Semaphore;
use tower::retry::backoff::{ExponentialBackoffMaker, MakeBackoff};
use tower::util::rng::HasherRng;

/// How a worker process runs.
#[derive(Debug, Clone)]
pub struct PoolConfig {
    /// Jobs run at the same time in this process (one apalis worker each; database claims share the slots).
    pub concurrency: usize,
    /// The process's name, beat and running jobs as it writes them to `public.workers` (see [`Liveness`]).
    pub liveness: Arc<Liveness>,
    /// How long a shutdown waits for running jobs before giving up on them (they are redelivered).
    pub shutdown_timeout: Duration,
    /// How often the mailing scheduler looks for due mailings; `None` runs no scheduler.
    pub schedule_every: Option<Duration>,
    /// Limits the scheduler's passes (due mailings, reports, journeys, experiments) to one client: for tests sharing
    /// a database with other tests' clients, whose mailings and journeys they must not move. `None` in production.
    pub schedule_only_client: Option<i64>,
    /// How often queued jobs whose queue message was lost are queued again (first at start); `None` never.
    pub reconcile_every: Option<Duration>,
    /// How often an idle process claims a job whose message did not come from the database; `None` never.
    pub claim_every: Option<Duration>,
    /// Limits reconcile and the database claim to one client: for tests sharing a database with others. `None`
    /// in production.
    pub reconcile_only_client: Option<i64>,
    /// How often the clients whose portfolio figures are due get their refresh queued (first at start); `None`
    /// never (tests, which share one database with other tests' clients, queue it for their own clients).
    pub portfolio_every: Option<Duration>,
    /// Spare client schemas kept ready, and how often they are counted (first at start); `None` keeps none.
    pub spare_schemas: Option<(usize, Duration)>,
    /// Whose journeys run as soon as their writers leave events (besides the scheduler's passes); `None`: only the
    /// passes.
    pub journeys_on_events: Option<crate::journeys::EventClients>,
    /// The queue poll counts as stalled when it has not run for this long while a slot is free: its workers are
    /// restarted, and when that does not bring the poll back the pool ends with [`JobError::Stalled`].
    pub stall_after: Duration,
}

/// [`PoolConfig::stall_after`] in production.
pub const STALL_AFTER: Duration = Duration::from_secs(15);

/// Runs `concurrency` workers on `queue` until `shutdown` resolves, then lets running jobs finish.
pub async fn run_pool(
    tenancy: Tenancy,
    queue: JobQueue,
    services: Arc<Services>,
    config: PoolConfig,
    shutdown: impl Future<Output = std::io::Result<()>> + Send + 'static,
) -> Result<(), JobError> {
    let liveness = Arc::clone(&config.liveness);
    tracing::info!(
        workers = config.concurrency,
        name = liveness.name(),
        "worker pool starting"
    );
    let slots = Arc::new(Semaphore::new(config.concurrency.max(1)));

    let scheduler = config.schedule_every.map(|every| {
        tokio::spawn(schedule::run(
            tenancy.clone(),
            queue.clone(),
            every,
            config.schedule_only_client,
        ))
    });

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

    let portfolio = config
        .portfolio_every
        .map(|every| tokio::spawn(crate::portfolio::run(tenancy.clone(), queue.clone(), every)));

    let journeys = config.journeys_on_events.map(|clients| {
        tokio::spawn(crate::journeys::on_events(
            tenancy.clone(),
            queue.clone(),
            clients,
        ))
    });

    let claims = Some(tokio::spawn(claim::run(claim::ClaimLoop {
        tenancy: tenancy.clone(),
        services: Arc::clone(&services),
        slots: Arc::clone(&slots),
        liveness: Arc::clone(&liveness),
        claim_every: config.claim_every,
        only_client: config.reconcile_only_client,
    })));

    let parts = Parts {
        tenancy: tenancy.clone(),
        queue,
        services,
        slots,
        liveness: Arc::clone(&liveness),
    };
    let tasks = Tasks(
        [scheduler, reconciler, spares, portfolio, journeys, claims]
            .into_iter()
            .flatten()
            .collect(),
    );
    let result = watched(&parts, &config, shutdown).await;
    drop(tasks);
    if result.is_ok() {
        if let Err(e) = liveness.gone(&tenancy).await {
            tracing::warn!(error = %telemetry::Chain(&e), "worker row not removed");
        }
    }
    result
}

/// The pool's side tasks, ended with it, also when the pool itself is dropped (a killed test worker must stop
/// beating as a killed process does).
struct Tasks(Vec<tokio::task::JoinHandle<()>>);

impl Drop for Tasks {
    fn drop(&mut self) {
        for task in &self.0 {
            task.abort();
        }
    }
}

/// What each generation of the queue's workers is built from.
struct Parts {
    tenancy: Tenancy,
    queue: JobQueue,
    services: Arc<Services>,
    slots: Arc<Semaphore>,
    liveness: Arc<Liveness>,
}

/// Runs the queue's workers until `shutdown`, restarting them once when their poll stalls; a restart that brings
/// no poll back, or a stalled pool that does not stop, ends the pool with [`JobError::Stalled`] so the process
/// exits and its supervisor starts a new one.
async fn watched(
    parts: &Parts,
    config: &PoolConfig,
    shutdown: impl Future<Output = std::io::Result<()>> + Send + 'static,
) -> Result<(), JobError> {
    let mut shutdown = std::pin::pin!(shutdown);
    let mut polls_at_restart: Option<u64> = None;
    loop {
        // A new generation gets the whole threshold to register before it counts as stalled.
        parts.liveness.polled();
        let stop = Arc::new(tokio::sync::Notify::new());
        let signal = {
            let stop = Arc::clone(&stop);
            async move {
                stop.notified().await;
                Ok(())
            }
        };
        let mut run = std::pin::pin!(monitor(parts, config)?.run_with_signal(signal));
        let stalled = tokio::select! {
            ended = &mut run => return ended.map_err(JobError::queue),
            _ = &mut shutdown => false,
            () = stall(&parts.liveness, &parts.slots, config.stall_after) => true,
        };
        stop.notify_one();
        let limit = config.shutdown_timeout + Duration::from_secs(5);
        let stopped = tokio::time::timeout(limit, &mut run).await;
        if !stalled {
            return match stopped {
                Ok(ended) => ended.map_err(JobError::queue),
                Err(_) => Err(JobError::queue("workers did not stop in time")),
            };
        }
        let since = parts.liveness.since_poll();
        let came_back = polls_at_restart.is_none_or(|at| parts.liveness.polls() > at + 1);
        if stopped.is_err() || !came_back {
            tracing::error!(
                ?since,
                "queue poll stalled and a restart did not bring it back; exiting"
            );
            return Err(JobError::Stalled(since));
        }
        tracing::error!(?since, "queue poll stalled; restarting the queue's workers");
        polls_at_restart = Some(parts.liveness.polls());
        parts.liveness.restarted();
    }
}

/// Resolves once the poll has not run for `after` while a slot is free (a worker busy with jobs in every slot
/// may poll less).
async fn stall(liveness: &Liveness, slots: &Semaphore, after: Duration) {
    let mut tick = tokio::time::interval((after / 4).max(Duration::from_millis(50)));
    loop {
        tick.tick().await;
        if liveness.since_poll() > after && slots.available_permits() > 0 {
            return;
        }
    }
}

/// One generation of the queue's workers.
fn monitor(parts: &Parts, config: &PoolConfig) -> Result<Monitor, JobError> {
    // Retries wait 0.5 s, 1 s, 2 s … up to 30 s, with jitter so a crowd of failures does not retry in step.
    let backoff = ExponentialBackoffMaker::new(
        Duration::from_millis(500),
        Duration::from_secs(30),
        1.0,
        HasherRng::default(),
    )
    .map_err(JobError::queue)?
    .make_backoff();
    let retries = usize::try_from(MAX_ATTEMPTS - 1).unwrap_or(0);
    let prefix = parts.liveness.name().to_owned();
    let (tenancy, queue, services) = (
        parts.tenancy.clone(),
        parts.queue.clone(),
        Arc::clone(&parts.services),
    );
    let (slots, liveness) = (Arc::clone(&parts.slots), Arc::clone(&parts.liveness));
    let polled = Arc::clone(&parts.liveness);
    Ok(Monitor::new()
        .shutdown_timeout(config.shutdown_timeout)
        // apalis reports each completed heartbeat of a worker's poll: the watchdog's sign of life.
        .on_event(move |_, event| {
            if matches!(event, Event::HeartBeat) {
                polled.polled();
            }
        })
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
                .data(Arc::clone(&slots))
                .data(Arc::clone(&liveness))
                .retry(RetryPolicy::retries(retries).with_backoff(backoff.clone()))
                .build(handle)
        }))
}

/// How often an idle worker slot asks the queue for work: the most a queued job waits before it starts.
const POLL_INTERVAL: Duration = Duration::from_millis(200);

async fn handle(
    message: JobMessage,
    tenancy: Data<Tenancy>,
    services: Data<Arc<Services>>,
    slots: Data<Arc<Semaphore>>,
    liveness: Data<Arc<Liveness>>,
) -> Result<(), JobError> {
    // A slot of the process: the database claim takes them too, so the two never run more than `concurrency`.
    let _slot = slots.acquire().await.map_err(JobError::queue)?;
    let _running = liveness.start_job(&message);
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
