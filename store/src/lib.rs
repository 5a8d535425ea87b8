//! The client data: one module per area, each holding that area's types and its SQL.
//!
//! The api's handlers parse, check permissions, call a function here and shape the answer; the worker's jobs call
//! the same functions. A rule about the data (which contacts a list holds, what a figure means) is written once —
//! here, or as a view or function in `migrations/tenant` that these functions read.
//!
//! Every function takes the caller's `&mut PgConnection`: a `tenancy::TenantTx` derefs to one whose search path
//! is already the client's schema, so nothing here can name or reach another client.

pub mod access;
pub mod accounts;
pub mod audit;
pub mod cells;
pub mod challenges;
pub mod contacts;
pub mod dashboard;
pub mod deliverability;
pub mod demo;
pub mod email_analytics;
pub mod experiments;
pub mod external_mailings;
pub mod flights;
pub mod form_views;
pub mod forms;
pub mod imports;
pub mod journeys;
pub mod like;
pub mod lists;
pub mod mailings;
pub mod media;
pub mod origin_codes;
pub mod planning;
pub mod portfolio;
pub mod projections;
pub mod reports;
pub mod retention;
pub mod revenue;
pub mod segment_refresh;
pub mod segments;
pub mod send;
pub mod senders;
pub mod sessions;
pub mod settings;
pub mod signups;
pub mod tabular;
pub mod templates;
pub mod tracking;
pub mod universal_users;
pub mod uploads;
pub mod users;

/// Deletes the row `id` of the client's table `table`; false when there was none. `table` is always a literal
/// from the code, never input.
pub async fn delete_by_id(
    conn: &mut sqlx::PgConnection,
    table: &'static str,
    id: i64,
) -> Result<bool, sqlx::Error> {
    let gone = sqlx::query(sqlx::AssertSqlSafe(format!(
        "delete from {table} where id = $1"
    )))
    .bind(id)
    .execute(conn)
    .await?;
    Ok(gone.rows_affected() > 0)
}
