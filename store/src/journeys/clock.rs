//! The one clock journeys read. In production it is the database's `now()`; a process started with
//! `COMPASS_TEST_CLOCK=1` adds the client's offset (kept in the database, so the api and the worker agree), which
//! the test-clock operation moves: a 30-day series is then tested in seconds.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// Whether this process honours the offset. Read on every call: tests set it once at start-up.
pub fn enabled() -> bool {
    std::env::var("COMPASS_TEST_CLOCK").is_ok_and(|v| v == "1")
}

/// The SQL expression of "now" on the journeys' clock, for statements that compare with it.
pub fn sql_now() -> &'static str {
    if enabled() {
        "(now() + make_interval(secs => coalesce((select offset_seconds from test_clock), 0)))"
    } else {
        "now()"
    }
}

pub async fn now(conn: &mut PgConnection) -> Result<DateTime<Utc>, sqlx::Error> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!("select {}", sql_now())))
        .fetch_one(conn)
        .await
}

/// Moves the clock forward by `hours` (only called when [`enabled`]); answers the new now.
pub async fn advance(conn: &mut PgConnection, hours: f64) -> Result<DateTime<Utc>, sqlx::Error> {
    sqlx::query(
        "insert into test_clock (offset_seconds) values ($1::float8::bigint)
         on conflict (only_row) do update set offset_seconds = test_clock.offset_seconds + excluded.offset_seconds",
    )
    .bind(hours * 3600.0)
    .execute(&mut *conn)
    .await?;
    now(conn).await
}
