//! Sender identities: the From and Reply-To of mailings.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

#[derive(Debug, sqlx::FromRow)]
pub struct Sender {
    pub id: i64,
    pub name: String,
    pub from_address: String,
    pub reply_to: Option<String>,
    pub created: DateTime<Utc>,
}

/// Every sender by name.
pub async fn senders(conn: &mut PgConnection) -> Result<Vec<Sender>, sqlx::Error> {
    sqlx::query_as(
        "select id, name, from_address, reply_to, created from senders order by name, id",
    )
    .fetch_all(conn)
    .await
}

/// Every sender as (id, `Name <address>`), by name.
pub async fn labels(conn: &mut PgConnection) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(
        "select id, name || ' <' || from_address || '>' as label from senders order by name, id",
    )
    .fetch_all(conn)
    .await
}

pub async fn insert(
    conn: &mut PgConnection,
    name: &str,
    from_address: &str,
    reply_to: Option<&str>,
) -> Result<Sender, sqlx::Error> {
    sqlx::query_as(
        "insert into senders (name, from_address, reply_to) values ($1, $2, $3)
         returning id, name, from_address, reply_to, created",
    )
    .bind(name)
    .bind(from_address)
    .bind(reply_to)
    .fetch_one(conn)
    .await
}

pub async fn exists(conn: &mut PgConnection, id: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from senders where id = $1)")
        .bind(id)
        .fetch_one(conn)
        .await
}

/// The sender's (name, address, reply-to), or None when there is no such sender.
pub async fn address(
    conn: &mut PgConnection,
    id: i64,
) -> Result<Option<(String, String, Option<String>)>, sqlx::Error> {
    sqlx::query_as("select name, from_address, reply_to from senders where id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await
}
