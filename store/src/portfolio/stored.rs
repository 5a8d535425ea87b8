//! (public) The figures the worker keeps per client (`client_portfolio_figures`) and the scheduler's claims on
//! refreshing them. Read and written in `public` transactions only: a client's figures are computed in its own
//! schema first ([`super::client_figures`]), then stored here under its id.

use super::ClientFigures;
use chrono::{DateTime, Utc};
use sqlx::types::Json;
use sqlx::PgConnection;
use std::collections::HashMap;

/// How old a client's stored figures may grow before the scheduler queues their refresh; also how long a claim
/// holds (a refresh lost or failed is queued again after it).
pub const REFRESH_EVERY: std::time::Duration = std::time::Duration::from_secs(300);

/// One client's stored figures and when their reads began.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    pub figures: ClientFigures,
    pub computed_at: DateTime<Utc>,
}

/// The stored figures of these clients (one query), by client id. A client without a row is absent, and so is a
/// row an older build wrote in a shape this one no longer reads (it is computed again like a missing one).
pub async fn stored(
    conn: &mut PgConnection,
    client_ids: &[i64],
) -> Result<HashMap<i64, Stored>, sqlx::Error> {
    let rows: Vec<(i64, Json<serde_json::Value>, DateTime<Utc>)> = sqlx::query_as(
        "select client_id, figures, computed_at from client_portfolio_figures where client_id = any($1)",
    )
    .bind(client_ids)
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, figures, computed_at)| {
            let figures = serde_json::from_value::<ClientFigures>(figures.0).ok()?;
            Some((
                id,
                Stored {
                    figures,
                    computed_at,
                },
            ))
        })
        .collect())
}

/// Stores one client's figures read at `computed_at`, unless the row already holds figures read later (a slow
/// refresh finishing after a quicker one). True when the row was written.
pub async fn store(
    conn: &mut PgConnection,
    client_id: i64,
    figures: &ClientFigures,
    computed_at: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let written = sqlx::query(
        "insert into client_portfolio_figures (client_id, figures, computed_at) values ($1, $2, $3)
         on conflict (client_id) do update set figures = excluded.figures, computed_at = excluded.computed_at
         where client_portfolio_figures.computed_at < excluded.computed_at",
    )
    .bind(client_id)
    .bind(Json(figures))
    .bind(computed_at)
    .execute(conn)
    .await?;
    Ok(written.rows_affected() > 0)
}

/// Claims the refresh of every enabled client (of `only`, when given) whose figures are missing or older than
/// [`REFRESH_EVERY`] and whose last claim is older than that too; answers the ids claimed. One statement, so two
/// workers' passes never both claim a client.
pub async fn claim_due(
    conn: &mut PgConnection,
    only: Option<&[i64]>,
) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "insert into client_portfolio_claims as k (client_id, claimed_at)
         select c.id, now() from clients c
         left join client_portfolio_figures f on f.client_id = c.id
         where c.enabled and ($1::bigint[] is null or c.id = any($1))
           and (f.computed_at is null or f.computed_at < now() - make_interval(secs => $2))
         order by c.id
         on conflict (client_id) do update set claimed_at = excluded.claimed_at
         where k.claimed_at < now() - make_interval(secs => $2)
         returning k.client_id",
    )
    .bind(only)
    .bind(REFRESH_EVERY.as_secs_f64())
    .fetch_all(conn)
    .await
}
