//! The mailing scheduler: every few seconds, and whenever a mailing that is due at once is confirmed, each worker
//! process looks for confirmed mailings whose send time has come, claims them (the `send_attempt` stamp is the
//! claim: one statement, so two workers never both take one) and queues a "Send Mailing" job for each.

use jobs::{JobKind, JobQueue};
use std::time::Duration;
use tenancy::Tenancy;

pub async fn run(tenancy: Tenancy, queue: JobQueue, every: Duration, only_client: Option<i64>) {
    // Mailings confirmed with a send time that has come announce themselves (a trigger notifies): those start
    // at once. Without the listener the passes alone still find everything.
    let mut listener = match tenancy.listen(DUE_CHANNEL).await {
        Ok(listener) => Some(listener),
        Err(e) => {
            tracing::warn!(error = %telemetry::Chain(&e), "not listening for due mailings; passes only");
            None
        }
    };
    let mut tick = tokio::time::interval(every);
    // Segments are looked at every few minutes, the first time a while after start (not on every mailing pass).
    let mut segments_checked = tokio::time::Instant::now();
    // Raw delivery evidence past its 90 days goes soon after start, then hourly.
    let mut evidence_swept: Option<tokio::time::Instant> = None;
    // Warming retention answers takes seconds on a large client: it runs beside the passes, one at a time.
    let mut warming: Option<tokio::task::JoinHandle<()>> = None;
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            notified = notification(&mut listener) => {
                if let Err(e) = notified {
                    tracing::warn!(error = %telemetry::Chain(&e), "listening for due mailings failed; passes only");
                    listener = None;
                }
            }
        }
        if let Err(e) = once(&tenancy, &queue, only_client).await {
            tracing::warn!(error = %telemetry::Chain(&e), "mailing scheduler pass failed");
        }
        if segments_checked.elapsed() >= SEGMENTS_EVERY {
            segments_checked = tokio::time::Instant::now();
            segments_pass(&tenancy, &queue).await;
            if warming.as_ref().is_none_or(|w| w.is_finished()) {
                warming = Some(tokio::spawn(retention_warm_pass(tenancy.clone())));
            }
        }
        if evidence_swept.is_none_or(|at| at.elapsed() >= EVIDENCE_EVERY) {
            evidence_swept = Some(tokio::time::Instant::now());
            evidence_pass(&tenancy).await;
        }
    }
}

/// How often raw delivery evidence older than its retention is deleted.
const EVIDENCE_EVERY: Duration = Duration::from_secs(3600);

/// Deletes every client's delivery evidence older than 90 days (the events keep their code and diagnostic).
pub async fn evidence_pass(tenancy: &Tenancy) {
    let clients = match tenancy.list_clients().await {
        Ok(clients) => clients,
        Err(e) => {
            tracing::warn!(error = %telemetry::Chain(&e), "evidence sweep could not list clients");
            return;
        }
    };
    for client in &clients {
        let swept = async {
            let mut tx = tenancy.begin(client).await?;
            let n = store::deliverability::suppressions::sweep_evidence(&mut tx).await?;
            tx.commit().await?;
            Ok::<_, tenancy::TenancyError>(n)
        }
        .await;
        match swept {
            Ok(0) => {}
            Ok(n) => {
                tracing::info!(client = %client.short_name, deleted = n, "old delivery evidence deleted")
            }
            Err(e) => {
                tracing::warn!(client = %client.short_name, error = %telemetry::Chain(&e), "evidence sweep skipped a client")
            }
        }
    }
}

/// How often the scheduler looks for segments due a recompute.
const SEGMENTS_EVERY: Duration = Duration::from_secs(300);

/// One pass over every enabled client for segments due a recompute (see [`segments_due`]).
pub async fn segments_pass(tenancy: &Tenancy, queue: &JobQueue) {
    let clients = match tenancy.list_clients().await {
        Ok(clients) => clients,
        Err(e) => {
            tracing::warn!(error = %telemetry::Chain(&e), "segment schedule could not list clients");
            return;
        }
    };
    for client in clients.into_iter().filter(|c| c.enabled) {
        if let Err(e) = segments_due(tenancy, queue, &client).await {
            tracing::warn!(client = %client.short_name, error = %telemetry::Chain(&e), "segment schedule skipped a client")
        }
        if let Err(e) = retention_due(tenancy, queue, &client).await {
            tracing::warn!(client = %client.short_name, error = %telemetry::Chain(&e), "retention refresh skipped a client")
        }
    }
}

/// The channel the `mailings_due` trigger notifies.
const DUE_CHANNEL: &str = "compass_mailings_due";

/// The next notification; never, without a listener.
async fn notification(
    listener: &mut Option<sqlx::postgres::PgListener>,
) -> Result<(), sqlx::Error> {
    match listener {
        Some(listener) => listener.recv().await.map(|_| ()),
        None => std::future::pending().await,
    }
}

/// One pass over every client (or only `only_client`); returns how many mailings it started. One client's trouble
/// (say, a schema still being created) does not hold up the others.
pub async fn once(
    tenancy: &Tenancy,
    queue: &JobQueue,
    only_client: Option<i64>,
) -> Result<usize, jobs::JobError> {
    let mut started = 0;
    for client in tenancy
        .list_clients()
        .await?
        .into_iter()
        .filter(|c| c.enabled && only_client.is_none_or(|id| id == c.id))
    {
        match start_due(tenancy, queue, &client).await {
            Ok(n) => started += n,
            Err(e) => {
                tracing::warn!(client = %client.short_name, error = %telemetry::Chain(&e), "scheduler skipped a client")
            }
        }
        if let Err(e) = start_due_reports(tenancy, queue, &client).await {
            tracing::warn!(client = %client.short_name, error = %telemetry::Chain(&e), "report scheduler skipped a client")
        }
        if let Err(e) = crate::journeys_due(tenancy, queue, &client).await {
            tracing::warn!(client = %client.short_name, error = %telemetry::Chain(&e), "journeys pass skipped a client")
        }
        if let Err(e) = crate::experiments_due(tenancy, queue, &client).await {
            tracing::warn!(client = %client.short_name, error = %telemetry::Chain(&e), "experiments pass skipped a client")
        }
    }
    Ok(started)
}

/// One client's scheduler pass over mailings: those due, and those a warm-up plan held until now, get their sends
/// queued. The number queued.
pub async fn start_due(
    tenancy: &Tenancy,
    queue: &JobQueue,
    client: &tenancy::Client,
) -> Result<usize, jobs::JobError> {
    let mut tx = tenancy.begin(client).await?;
    let due = store::send::claim_due(&mut tx).await?;
    if due.is_empty() {
        tx.commit().await?;
        return Ok(0);
    }
    // The claim and the job rows commit together; the queue messages follow.
    let kinds: Vec<JobKind> = due
        .into_iter()
        .map(|mailing_id| JobKind::SendMailing { mailing_id })
        .collect();
    queue.enqueue_many(tx, None, &kinds).await?;
    tracing::info!(client = %client.short_name, mailings = kinds.len(), "mailings due; sends queued");
    Ok(kinds.len())
}

/// Queues one "Update Segment" job over every segment when a segment was last computed before the client's
/// today began (the nightly run) or before the last finished contributions import, and no such job is queued,
/// running or was started in the last 15 minutes. Returns whether it queued one.
pub async fn segments_due(
    tenancy: &Tenancy,
    queue: &JobQueue,
    client: &tenancy::Client,
) -> Result<bool, jobs::JobError> {
    let mut tx = tenancy.begin(client).await?;
    let due = store::segment_refresh::due(&mut tx).await?;
    if !due {
        tx.commit().await?;
        return Ok(false);
    }
    queue
        .enqueue(tx, None, &JobKind::UpdateSegment { segment_id: None })
        .await?;
    tracing::info!(client = %client.short_name, "segments due; update queued");
    Ok(true)
}

/// Every client's retention answers that someone read in the last hour are computed again before they expire
/// (`store::retention::warm`); a client another worker warmed a moment ago is left alone.
pub async fn retention_warm_pass(tenancy: Tenancy) {
    let clients = match tenancy.list_clients().await {
        Ok(clients) => clients,
        Err(e) => {
            tracing::warn!(error = %telemetry::Chain(&e), "retention warming could not list clients");
            return;
        }
    };
    for client in clients.into_iter().filter(|c| c.enabled) {
        let warmed = async {
            let mut tx = tenancy.begin(&client).await?;
            let n = store::retention::warm::warm(&mut tx).await?;
            tx.commit().await?;
            Ok::<_, tenancy::TenancyError>(n)
        }
        .await;
        match warmed {
            Ok(0) => {}
            Ok(n) => {
                tracing::info!(client = %client.short_name, answers = n, "retention answers warmed")
            }
            Err(e) => {
                tracing::warn!(client = %client.short_name, error = %telemetry::Chain(&e), "retention warming skipped a client")
            }
        }
    }
}

/// Queues the daily "Refresh Retention" (docs/retention.md) when the last refresh is a day old.
async fn retention_due(
    tenancy: &Tenancy,
    queue: &JobQueue,
    client: &tenancy::Client,
) -> Result<bool, jobs::JobError> {
    let mut tx = tenancy.begin(client).await?;
    if !store::retention::claim_daily_refresh(&mut tx).await? {
        tx.commit().await?;
        return Ok(false);
    }
    queue
        .enqueue(tx, None, &JobKind::RefreshRetention {})
        .await?;
    Ok(true)
}

/// Claims the client's scheduled reports whose run has come (each moves to its next run in the same statement)
/// and queues a "Send Report" job per run, in the claim's transaction.
async fn start_due_reports(
    tenancy: &Tenancy,
    queue: &JobQueue,
    client: &tenancy::Client,
) -> Result<usize, jobs::JobError> {
    let mut tx = tenancy.begin(client).await?;
    let due = store::reports::schedules::claim_due(&mut tx).await?;
    if due.is_empty() {
        tx.commit().await?;
        return Ok(0);
    }
    let kinds: Vec<JobKind> = due
        .into_iter()
        .map(|run| JobKind::SendReport {
            schedule_id: run.schedule_id,
            from: run.from,
            to: run.to,
        })
        .collect();
    queue.enqueue_many(tx, None, &kinds).await?;
    tracing::info!(client = %client.short_name, reports = kinds.len(), "scheduled reports due; sends queued");
    Ok(kinds.len())
}
