//! The client's pacing per mailbox provider: a rate and a connection limit for each group of a send.

use sqlx::PgConnection;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Pacing {
    /// `gmail`, `yahoo`, `microsoft` or `other` (see `domain::MailboxProvider`).
    pub provider: String,
    /// Messages a second; 0 for no limit of the group's own.
    pub per_second: i32,
    /// SMTP connections the group may use at once.
    pub connections: i32,
}

/// Every provider's pacing, in a fixed order.
pub async fn all(conn: &mut PgConnection) -> Result<Vec<Pacing>, sqlx::Error> {
    sqlx::query_as(
        "select provider, per_second, connections from mailbox_provider_pacing
         order by array_position(array['gmail', 'yahoo', 'microsoft', 'other'], provider)",
    )
    .fetch_all(conn)
    .await
}

/// Sets the providers' pacing (providers not named keep theirs).
pub async fn update(conn: &mut PgConnection, pacing: &[Pacing]) -> Result<(), sqlx::Error> {
    let providers: Vec<&str> = pacing.iter().map(|p| p.provider.as_str()).collect();
    let rates: Vec<i32> = pacing.iter().map(|p| p.per_second).collect();
    let connections: Vec<i32> = pacing.iter().map(|p| p.connections).collect();
    sqlx::query(
        "update mailbox_provider_pacing p set per_second = u.per_second, connections = u.connections
         from unnest($1::text[], $2::int[], $3::int[]) u (provider, per_second, connections)
         where p.provider = u.provider",
    )
    .bind(&providers)
    .bind(&rates)
    .bind(&connections)
    .execute(conn)
    .await?;
    Ok(())
}
