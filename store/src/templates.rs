//! Mailing templates: reusable bodies for the mailing editor.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

#[derive(Debug, sqlx::FromRow)]
pub struct Template {
    pub id: i64,
    pub name: String,
    pub body_html: String,
    pub created: DateTime<Utc>,
    pub updated: DateTime<Utc>,
}

/// Every template, newest first.
pub async fn templates(conn: &mut PgConnection) -> Result<Vec<Template>, sqlx::Error> {
    sqlx::query_as(
        "select id, name, body_html, created, updated from mailing_templates order by created desc, id desc",
    )
    .fetch_all(conn)
    .await
}

pub async fn template(conn: &mut PgConnection, id: i64) -> Result<Option<Template>, sqlx::Error> {
    sqlx::query_as(
        "select id, name, body_html, created, updated from mailing_templates where id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

pub async fn insert(
    conn: &mut PgConnection,
    name: &str,
    body_html: &str,
) -> Result<Template, sqlx::Error> {
    sqlx::query_as(
        "insert into mailing_templates (name, body_html) values ($1, $2)
         returning id, name, body_html, created, updated",
    )
    .bind(name)
    .bind(body_html)
    .fetch_one(conn)
    .await
}

/// Renames a template or sets its body (None keeps either); None when there is no such template.
pub async fn update(
    conn: &mut PgConnection,
    id: i64,
    name: Option<&str>,
    body_html: Option<&str>,
) -> Result<Option<Template>, sqlx::Error> {
    sqlx::query_as(
        "update mailing_templates set name = coalesce($2, name), body_html = coalesce($3, body_html),
                updated = now()
         where id = $1 returning id, name, body_html, created, updated",
    )
    .bind(id)
    .bind(name)
    .bind(body_html)
    .fetch_optional(conn)
    .await
}
