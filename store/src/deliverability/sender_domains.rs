//! The client's sender domains, as the send reads them.

use sqlx::PgConnection;

/// The bounce domain set for the From domain `domain`, if the client has one: its mailing copies then carry a
/// VERP envelope sender there.
pub async fn bounce_domain(
    conn: &mut PgConnection,
    domain: &str,
) -> Result<Option<String>, sqlx::Error> {
    let found: Option<Option<String>> = sqlx::query_scalar(
        "select bounce_domain from sender_domains where domain = lower(btrim($1))",
    )
    .bind(domain)
    .fetch_optional(conn)
    .await?;
    Ok(found.flatten())
}
