//! What the api reads of the workers' liveness: how many beat lately, and their rows in `public.workers`. The
//! worker writes those rows (its `liveness.rs`); a worker is live while it beat in the last [`LIVE_WITHIN`].

use crate::JobError;
use std::time::Duration;
use tenancy::Tenancy;

/// A worker that beat within this long is live.
pub const LIVE_WITHIN: Duration = Duration::from_secs(15);

/// How many workers on `queue` beat within [`LIVE_WITHIN`].
pub async fn live_workers(tenancy: &Tenancy, queue: &str) -> Result<i64, JobError> {
    let mut tx = tenancy.public().await?;
    let live = sqlx::query_scalar(
        "select count(*) from workers where queue = $1 and beat > now() - make_interval(secs => $2)",
    )
    .bind(queue)
    .bind(LIVE_WITHIN.as_secs_f64())
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(live)
}

/// A worker process as its row in `public.workers` says.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WorkerRow {
    pub name: String,
    pub host: String,
    pub started: chrono::DateTime<chrono::Utc>,
    pub beat: chrono::DateTime<chrono::Utc>,
    pub polled: chrono::DateTime<chrono::Utc>,
    /// Beat within [`LIVE_WITHIN`].
    pub live: bool,
    /// `[{"clientId": …, "jobId": …}]`.
    pub running: sqlx::types::Json<Vec<RunningEntry>>,
}

/// One job a worker runs.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunningEntry {
    pub client_id: i64,
    pub job_id: i64,
}

/// The workers on `queue`, live ones first, then by last beat.
pub async fn workers(tenancy: &Tenancy, queue: &str) -> Result<Vec<WorkerRow>, JobError> {
    let mut tx = tenancy.public().await?;
    let rows = sqlx::query_as(
        "select name, host, started, beat, polled, beat > now() - make_interval(secs => $2) as live, running
         from workers where queue = $1 order by live desc, beat desc, name limit 100",
    )
    .bind(queue)
    .bind(LIVE_WITHIN.as_secs_f64())
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(rows)
}
