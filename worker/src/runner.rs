use crate::{JobContext, Services, MAX_ATTEMPTS};
use jobs::{JobError, JobKind, JobMessage, JobResult};
use sqlx::types::Json;
use tenancy::{Client, ExclusiveLock, Tenancy};
use tracing::Instrument;

/// The namespace of the per-job advisory locks (mailing sends lock on the bare mailing id).
pub(crate) const JOB_LOCK: i64 = 1 << 56;

/// Runs one queue message to the end. `Err` means "try again later" (apalis retries with backoff);
/// every other outcome, success or final failure, is written to the job row and returns `Ok`.
pub(crate) async fn execute(
    tenancy: &Tenancy,
    services: &Services,
    message: &JobMessage,
) -> Result<(), JobError> {
    let Some(client) = tenancy.enabled_client(message.client_id).await? else {
        tracing::warn!(
            client_id = message.client_id,
            job = message.job_id,
            "job for an unknown or disabled client dropped"
        );
        return Ok(());
    };

    // While a job runs, its worker holds this lock: a second message for the same row (a redelivery, the
    // reconcile pass, the database claim) is dropped instead of running the job twice at once. The lock lives on a
    // connection of its own, so a worker that dies releases it and apalis's hand-over can run the job again.
    let Some(running) = tenancy
        .try_exclusive(&client, JOB_LOCK | message.job_id)
        .await?
    else {
        tracing::info!(client = %client.short_name, job = message.job_id, "job already running elsewhere; message dropped");
        return Ok(());
    };
    execute_locked(tenancy, services, &client, message.job_id, running).await
}

/// Runs a job whose per-job lock the caller holds (`_running`, released when this returns). Skips a row that is
/// already done, so a job claimed from the database and from a queue message runs once.
pub(crate) async fn execute_locked(
    tenancy: &Tenancy,
    services: &Services,
    client: &Client,
    job_id: i64,
    _running: ExclusiveLock,
) -> Result<(), JobError> {
    let message = JobMessage {
        client_id: client.id,
        job_id,
    };
    let mut tx = tenancy.begin(client).await?;
    let claimed = jobs::status::start(&mut tx, message.job_id).await?;
    tx.commit().await?;
    let Some((command, payload, attempts)) = claimed else {
        // Already done (a redelivered message) or never committed: nothing to do either way.
        tracing::info!(client = %client.short_name, job = message.job_id, "job already finished or missing");
        return Ok(());
    };

    // The span goes with the job's future, not with the thread: a guard held across an await would stay entered on
    // the thread while this job waits, and the lines of whatever job that thread polls next would carry this job's
    // name (an import's progress was logged as a portfolio refresh).
    let span = tracing::info_span!("job", client = %client.short_name, job = message.job_id, %command, attempts);
    run_job(
        tenancy,
        services,
        client,
        message.job_id,
        command,
        payload,
        attempts,
    )
    .instrument(span)
    .await
}

async fn run_job(
    tenancy: &Tenancy,
    services: &Services,
    client: &Client,
    job_id: i64,
    command: String,
    payload: serde_json::Value,
    attempts: i32,
) -> Result<(), JobError> {
    let message = JobMessage {
        client_id: client.id,
        job_id,
    };
    let started = std::time::Instant::now();
    let outcome = match JobKind::from_row(&command, payload) {
        Ok(kind) => {
            let ctx = JobContext {
                tenancy,
                client,
                job_id: message.job_id,
                services,
            };
            crate::dispatch::run(&kind, &ctx).await
        }
        Err(e) => Err(e),
    };
    let finished = |outcome| telemetry::metrics::job_finished(&command, outcome, started.elapsed());
    match outcome {
        Ok(result) => {
            finished("succeeded");
            tracing::info!(result = %result.message, "job succeeded");
            finish(tenancy, client, message.job_id, Ok(result)).await
        }
        // A refusal (another worker holds the mailing's send lock) waits as long as that worker sends: a journey
        // can queue a send for late recipients while the previous send of the same mailing still runs for hours.
        Err(e @ JobError::Busy(_)) => {
            finished("retried");
            tracing::info!(error = %e, "job waits for another worker; it will be retried");
            requeue(tenancy, client, message.job_id, &e, Attempt::Uncounted).await?;
            Err(e)
        }
        Err(e) if e.is_transient() && attempts < MAX_ATTEMPTS => {
            finished("retried");
            tracing::warn!(error = %telemetry::Chain(&e), "job failed; it will be retried");
            requeue(tenancy, client, message.job_id, &e, Attempt::Counted).await?;
            Err(e)
        }
        Err(e) => {
            finished("failed");
            tracing::error!(error = %telemetry::Chain(&e), "job failed for good");
            finish(tenancy, client, message.job_id, Err(e.to_string())).await
        }
    }
}

async fn finish(
    tenancy: &Tenancy,
    client: &Client,
    job_id: i64,
    outcome: Result<JobResult, String>,
) -> Result<(), JobError> {
    let (success, result, error) = match outcome {
        Ok(result) => (true, Some(Json(result)), None),
        Err(error) => (false, None, Some(error)),
    };
    let mut tx = tenancy.begin(client).await?;
    jobs::status::finish(&mut tx, job_id, success, result, error).await?;
    tx.commit().await?;
    Ok(())
}

/// Whether the attempt that is put back counts against the job's attempts.
enum Attempt {
    Counted,
    /// It never started its work (another worker held what it needs).
    Uncounted,
}

async fn requeue(
    tenancy: &Tenancy,
    client: &Client,
    job_id: i64,
    error: &JobError,
    attempt: Attempt,
) -> Result<(), JobError> {
    let mut tx = tenancy.begin(client).await?;
    match attempt {
        Attempt::Counted => jobs::status::requeue(&mut tx, job_id, error.to_string()).await?,
        Attempt::Uncounted => {
            jobs::status::requeue_uncounted(&mut tx, job_id, error.to_string()).await?
        }
    }
    tx.commit().await?;
    Ok(())
}
