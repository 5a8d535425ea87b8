//! A job row's status as the worker runs it (`queued` → `running` → `done`, or back to `queued` to retry), and
//! the rows the worker's claim, reconcile and metrics look for by status. Each function runs in the caller's
//! transaction on the client's schema; the worker holds the per-job locks and the order.

use crate::JobResult;
use chrono::{DateTime, Utc};
use sqlx::types::Json;
use sqlx::PgConnection;

/// Marks the job running and counts the attempt; the job's command, payload and attempts so far, or `None` when
/// the row is done already (a redelivered message) or missing.
pub async fn start(
    conn: &mut PgConnection,
    id: i64,
) -> Result<Option<(String, serde_json::Value, i32)>, sqlx::Error> {
    sqlx::query_as(
        "update jobs set status = 'running', attempts = attempts + 1, updated = now()
         where id = $1 and status <> 'done'
         returning command, payload, attempts",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Marks the job done with its result (a success, at 100 %) or its error.
pub async fn finish(
    conn: &mut PgConnection,
    id: i64,
    success: bool,
    result: Option<Json<JobResult>>,
    error: Option<String>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update jobs set status = 'done', progress = case when $2 then 100 else progress end,
                success = $2, result = $3, error = $4, updated = now()
         where id = $1",
    )
    .bind(id)
    .bind(success)
    .bind(result)
    .bind(error)
    .execute(conn)
    .await?;
    Ok(())
}

/// Puts the job back in the queue with the error of the attempt that failed.
pub async fn requeue(conn: &mut PgConnection, id: i64, error: String) -> Result<(), sqlx::Error> {
    sqlx::query("update jobs set status = 'queued', error = $2, updated = now() where id = $1")
        .bind(id)
        .bind(error)
        .execute(conn)
        .await?;
    Ok(())
}

/// Puts the job back in the queue without counting the attempt: it never started its work (another worker held
/// what it needs), so waiting for that worker, however long it takes, must not use up the job's attempts.
pub async fn requeue_uncounted(
    conn: &mut PgConnection,
    id: i64,
    error: String,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update jobs set status = 'queued', error = $2, attempts = greatest(attempts - 1, 0),
                updated = now()
         where id = $1",
    )
    .bind(id)
    .bind(error)
    .execute(conn)
    .await?;
    Ok(())
}

/// The oldest job queued for `after_secs` or more, doubled per failed attempt up to `max_secs`: its id and when
/// it was last updated.
pub async fn oldest_claimable(
    conn: &mut PgConnection,
    after_secs: f64,
    max_secs: f64,
) -> Result<Option<(i64, DateTime<Utc>)>, sqlx::Error> {
    sqlx::query_as(
        "select id, updated from jobs
             where status = 'queued'
               and updated < now() - make_interval(secs => least($1 * power(2, greatest(attempts - 1, 0)), $2))
             order by id limit 1",
    )
    .bind(after_secs)
    .bind(max_secs)
    .fetch_optional(conn)
    .await
}

/// Locks the job's row while it is still queued and no other claimer holds it; `None` otherwise.
pub async fn lock_queued(conn: &mut PgConnection, id: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "select id from jobs where id = $1 and status = 'queued' for update skip locked",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The jobs not updated for `grace_secs`: every queued one, and every running one whose per-job lock
/// (`job_lock | id`, in the namespace of client `client_id`) is free, that lock then held for the transaction.
pub async fn stale(
    conn: &mut PgConnection,
    grace_secs: f64,
    job_lock: i64,
    client_id: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "select id from jobs
             where updated < now() - make_interval(secs => $1)
               and case status
                     when 'queued' then true
                     when 'running' then pg_try_advisory_xact_lock(($2::bigint | id) # ($3::bigint << 32))
                     else false
                   end
             order by id",
    )
    .bind(grace_secs)
    .bind(job_lock)
    .bind(client_id)
    .fetch_all(conn)
    .await
}

/// Seconds the oldest queued job has waited; 0 when none waits.
pub async fn oldest_queued_age(conn: &mut PgConnection) -> Result<f64, sqlx::Error> {
    sqlx::query_scalar(
        "select coalesce(extract(epoch from now() - min(updated))::float8, 0) from jobs
             where status = 'queued'",
    )
    .fetch_one(conn)
    .await
}
