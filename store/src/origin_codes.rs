//! Contact origin codes: how a person first entered the file (one per contact, `contacts.origin_code_id`).

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// An origin code as pickers show it.
#[derive(Debug, sqlx::FromRow)]
pub struct Code {
    pub id: i64,
    pub name: String,
}

/// An origin code with the number of contacts that first arrived through it.
#[derive(Debug, sqlx::FromRow)]
pub struct CodeCount {
    pub id: i64,
    pub name: String,
    pub contact_count: i64,
    pub created: DateTime<Utc>,
}

/// Codes whose name matches the LIKE `pattern` (see [`crate::like`]) in any case, at most 50, by name.
pub async fn search(conn: &mut PgConnection, pattern: &str) -> Result<Vec<Code>, sqlx::Error> {
    sqlx::query_as(
        "select id, name from origin_codes where name ilike $1 escape '\\' order by name limit 50",
    )
    .bind(pattern)
    .fetch_all(conn)
    .await
}

/// Every code with its contact count, largest first.
pub async fn with_counts(conn: &mut PgConnection) -> Result<Vec<CodeCount>, sqlx::Error> {
    sqlx::query_as(
        // One count per code from the origin-code index (index only): the join grouped every contact.
        "select o.id, o.name, (select count(*) from contacts c where c.origin_code_id = o.id) as contact_count,
                o.created
         from origin_codes o order by contact_count desc, o.name",
    )
    .fetch_all(conn)
    .await
}

/// The code named `name`, created when missing.
pub async fn get_or_create(conn: &mut PgConnection, name: &str) -> Result<Code, sqlx::Error> {
    // The no-op update makes `returning` give the row whether it was inserted or already there.
    sqlx::query_as(
        "insert into origin_codes (name) values ($1)
         on conflict (name) do update set name = excluded.name
         returning id, name",
    )
    .bind(name)
    .fetch_one(conn)
    .await
}

/// How many of `ids` name a code (each counted once).
pub async fn known(conn: &mut PgConnection, ids: &[i64]) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(*) from origin_codes where id = any ($1)")
        .bind(ids)
        .fetch_one(conn)
        .await
}

pub async fn exists(conn: &mut PgConnection, id: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from origin_codes where id = $1)")
        .bind(id)
        .fetch_one(conn)
        .await
}
