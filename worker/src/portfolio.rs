//! The portfolio's stored figures (docs/portfolio.md): the "Refresh Portfolio" job computes its own client's row
//! in that client's schema and stores it in `public.client_portfolio_figures`; the scheduler queues it for every
//! enabled client whose row is missing or 5 minutes old.

use crate::JobContext;
use jobs::{JobError, JobKind, JobQueue, JobResult};
use serde_json::json;
use std::time::Duration;
use tenancy::Tenancy;

/// How often a worker process looks for clients whose figures are due: often enough that none grows much older
/// than [`store::portfolio::REFRESH_EVERY`]. The look is one statement, whatever the number of clients.
pub const PORTFOLIO_EVERY: Duration = Duration::from_secs(30);

/// Queues the due refreshes at once (a first start, new clients) and then every `every`, until dropped.
pub async fn run(tenancy: Tenancy, queue: JobQueue, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        match portfolio_due(&tenancy, &queue, None).await {
            Ok(queued) if queued.is_empty() => {}
            Ok(queued) => tracing::info!(clients = queued.len(), "portfolio refreshes queued"),
            Err(e) => {
                tracing::warn!(error = %telemetry::Chain(&e), "portfolio refresh pass failed")
            }
        }
    }
}

/// Runs one refresh. The figures are read in the job's own client's schema and stored under that client's id
/// only; the write is a `public` transaction of its own (a tenant transaction never names `public`).
pub(crate) async fn refresh(ctx: &JobContext<'_>) -> Result<JobResult, JobError> {
    // The reads begin now: this is the time the page shows the figures as of.
    let computed_at = chrono::Utc::now();
    let mut tx = ctx.tenancy.begin(ctx.client).await?;
    let figures =
        store::portfolio::client_figures(&mut tx, store::portfolio::JOB_STATEMENT_TIMEOUT).await?;
    // Earlier refreshes that succeeded tell nothing this one does not: without this the client's Jobs page
    // would gain a row every 5 minutes. Failed ones stay, as every failed job does.
    let pruned = sqlx::query(
        "delete from jobs
         where command = 'refresh-portfolio' and status = 'done' and success and id <> $1",
    )
    .bind(ctx.job_id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    // Committed, not rolled back: the retention figures the row read are kept in the client's cache.
    tx.commit().await?;
    let mut public = ctx.tenancy.public().await?;
    let written =
        store::portfolio::store(&mut public, ctx.client.id, &figures, computed_at).await?;
    public.commit().await?;
    Ok(JobResult {
        message: "Refreshed the portfolio figures.".to_owned(),
        link: Some("/portfolio".to_owned()),
        segment_id: None,
        details: json!({ "computedAt": computed_at, "stored": written, "pruned": pruned }),
    })
}

/// Claims the refresh of every enabled client (of `only`, when given) whose stored figures are missing or older
/// than [`store::portfolio::REFRESH_EVERY`], and queues a "Refresh Portfolio" job for each. One statement finds
/// them all; a client whose job cannot be queued is tried again once its claim lapses. The clients queued.
pub async fn portfolio_due(
    tenancy: &Tenancy,
    queue: &JobQueue,
    only: Option<&[i64]>,
) -> Result<Vec<i64>, JobError> {
    let mut public = tenancy.public().await?;
    let due = store::portfolio::claim_due(&mut public, only).await?;
    public.commit().await?;
    if due.is_empty() {
        return Ok(due);
    }
    let clients = tenancy.list_clients().await?;
    let mut queued = Vec::with_capacity(due.len());
    for client in clients.iter().filter(|c| due.contains(&c.id)) {
        let enqueued: Result<_, JobError> = async {
            let tx = tenancy.begin(client).await?;
            queue.enqueue(tx, None, &JobKind::RefreshPortfolio {}).await
        }
        .await;
        match enqueued {
            Ok(_) => queued.push(client.id),
            Err(e) => {
                tracing::warn!(client = %client.short_name, error = %telemetry::Chain(&e), "portfolio refresh not queued")
            }
        }
    }
    Ok(queued)
}
