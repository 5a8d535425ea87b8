//! The workers' rows in `public.workers`: each worker process writes its own ([`beat`], [`forget`], called by its
//! `liveness.rs`); the api reads how many beat lately and the rows. A worker is live while it beat in the last
//! [`LIVE_WITHIN`].

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

/// (public) Writes the worker `name`'s row: beat now, its last poll `since_poll_secs` ago, the jobs it runs
/// (`running`, as [`RunningEntry`]s); rows of processes gone for a day go.
pub async fn beat(
    conn: &mut sqlx::PgConnection,
    name: &str,
    queue: &str,
    host: String,
    pid: i32,
    since_poll_secs: f64,
    running: serde_json::Value,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into workers (name, queue, host, pid, polled, running)
             values ($1, $2, $3, $4, now() - make_interval(secs => $5), $6)
             on conflict (name) do update set beat = now(), polled = excluded.polled, running = excluded.running",
    )
    .bind(name)
    .bind(queue)
    .bind(host)
    .bind(pid)
    .bind(since_poll_secs)
    .bind(running)
    .execute(&mut *conn)
    .await?;
    // Rows of processes gone for a day are of no more use to anyone.
    sqlx::query("delete from workers where beat < now() - interval '1 day'")
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// (public) Removes the worker `name`'s row: it stopped on purpose.
pub async fn forget(conn: &mut sqlx::PgConnection, name: &str) -> Result<(), sqlx::Error> {
    sqlx::query("delete from workers where name = $1")
        .bind(name)
        .execute(conn)
        .await?;
    Ok(())
}
