//! External mailings: the figures of sends made elsewhere (another e-mail platform, a lemlist campaign), imported
//! from column-mapped CSV files. They appear beside Compass's own sends and count in the programme analytics.

use chrono::NaiveDate;
use sqlx::PgConnection;

/// One external send as stored. Money is a decimal string.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExternalMailing {
    pub id: i64,
    /// `esp` (another e-mail platform) or `lemlist`.
    pub source: String,
    pub name: String,
    pub sent_on: NaiveDate,
    pub recipients: i64,
    pub delivered: i64,
    pub bounces: i64,
    pub opens: i64,
    pub clicks: i64,
    pub unsubscribes: i64,
    pub revenue: String,
}

/// The external sends of `from`–`to` (both included), newest first.
pub async fn list(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<ExternalMailing>, sqlx::Error> {
    sqlx::query_as(
        "select id, source, name, sent_on, recipients, delivered, bounces, opens, clicks, unsubscribes,
                revenue::text as revenue
         from external_mailings where sent_on between $1 and $2
         order by sent_on desc, name, id limit 5000",
    )
    .bind(from)
    .bind(to)
    .fetch_all(conn)
    .await
}

/// The distinct names of one source's sends, for selection lists: (first id, name).
pub async fn names(
    conn: &mut PgConnection,
    source: &str,
) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(
        "select min(id), name from external_mailings where source = $1 group by name order by name limit 10000",
    )
    .bind(source)
    .fetch_all(conn)
    .await
}
