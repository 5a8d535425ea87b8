//! The computed figures' cache (`retention_figures`) and the refresh that rebuilds the acquisition table.

use chrono::{DateTime, Utc};
use serde::{de::DeserializeOwned, Serialize};
use sqlx::PgConnection;

/// The figures stored under `key` when they are there (and younger than `max_age`, if given), else computed
/// now and stored. Answers them with the time they were computed.
pub(crate) async fn cached<T, F>(
    conn: &mut PgConnection,
    key: &str,
    max_age: Option<chrono::Duration>,
    compute: F,
) -> Result<(T, DateTime<Utc>), sqlx::Error>
where
    T: Serialize + DeserializeOwned,
    F: AsyncFnOnce(&mut PgConnection) -> Result<T, sqlx::Error>,
{
    // A read is noted (at most once a minute) so the scheduler keeps the answers people look at warm.
    let hit: Option<(sqlx::types::Json<serde_json::Value>, DateTime<Utc>)> = sqlx::query_as(
        "with read as (update retention_figures set read_at = now()
                       where key = $1 and (read_at is null or read_at < now() - interval '1 minute'))
         select body, computed from retention_figures where key = $1",
    )
    .bind(key)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some((body, computed)) = hit {
        let fresh = max_age.is_none_or(|age| Utc::now() - computed <= age);
        // A body written by an older build that no longer reads is computed again.
        if let (true, Ok(value)) = (fresh, serde_json::from_value::<T>(body.0)) {
            return Ok((value, computed));
        }
    }
    let value = compute(&mut *conn).await?;
    let computed = put(conn, key, &value).await?;
    Ok((value, computed))
}

/// Stores `value` as the answer under `key`, computed now; answers that time.
pub(crate) async fn put<T: Serialize>(
    conn: &mut PgConnection,
    key: &str,
    value: &T,
) -> Result<DateTime<Utc>, sqlx::Error> {
    let body = serde_json::to_value(value).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    sqlx::query_scalar(
        "insert into retention_figures (key, body, computed, read_at) values ($1, $2, now(), now())
         on conflict (key) do update set body = excluded.body, computed = excluded.computed
         returning computed",
    )
    .bind(key)
    .bind(sqlx::types::Json(body))
    .fetch_one(conn)
    .await
}

/// The keys of the answers read since `read_since` that were computed before `computed_before`: those worth
/// computing again before anyone waits for them.
pub(crate) async fn read_keys(
    conn: &mut PgConnection,
    read_since: DateTime<Utc>,
    computed_before: DateTime<Utc>,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "select key from retention_figures where read_at >= $1 and computed < $2 order by key",
    )
    .bind(read_since)
    .bind(computed_before)
    .fetch_all(conn)
    .await
}

/// Claims this client's warming pass when no worker ran one in the last `minutes` and some answer is due
/// (read in the last hour, computed `stale_minutes` ago or more): true when this caller should run it.
pub(crate) async fn claim_warming(
    conn: &mut PgConnection,
    minutes: i32,
    stale_minutes: i32,
) -> Result<bool, sqlx::Error> {
    let claimed = sqlx::query(
        "update retention_refreshes set warmed = now()
         where (warmed is null or warmed < now() - make_interval(mins => $1))
           and exists (select 1 from retention_figures
                       where read_at >= now() - interval '1 hour'
                         and computed < now() - make_interval(mins => $2))",
    )
    .bind(minutes)
    .bind(stale_minutes)
    .execute(conn)
    .await?;
    Ok(claimed.rows_affected() > 0)
}

/// Rebuilds every donor's acquisition from the facts and drops the cached figures; answers the time.
pub async fn refresh(conn: &mut PgConnection) -> Result<DateTime<Utc>, sqlx::Error> {
    sqlx::query_scalar("select refresh_retention()")
        .fetch_one(conn)
        .await
}

/// When the acquisition table was last rebuilt.
pub async fn refreshed(conn: &mut PgConnection) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
    sqlx::query_scalar("select refreshed from retention_refreshes")
        .fetch_optional(conn)
        .await
}

/// Claims the daily refresh when the last one is a day old and nobody claimed it in the last day; true when
/// this caller should queue it.
pub async fn claim_daily_refresh(conn: &mut PgConnection) -> Result<bool, sqlx::Error> {
    let claimed = sqlx::query(
        "update retention_refreshes set claimed = now()
         where refreshed < now() - interval '1 day' and (claimed is null or claimed < now() - interval '1 day')",
    )
    .execute(conn)
    .await?;
    Ok(claimed.rows_affected() > 0)
}
