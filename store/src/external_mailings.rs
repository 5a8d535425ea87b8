//! External mailings: the figures of sends made elsewhere (another e-mail platform, a lemlist campaign), imported
//! from column-mapped CSV files. They appear beside Compass's own sends and count in the programme analytics.

pub mod import;

use chrono::NaiveDate;
use import::ExternalSend;
use serde::Serialize;
use sqlx::PgConnection;
use std::collections::HashMap;

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
    pub gifts: i64,
    pub revenue: String,
    /// opens ÷ recipients (the Performance page's open rate), four decimals; null without recipients.
    pub open_rate: Option<f64>,
    /// clicks ÷ delivered, four decimals; null when nothing was delivered.
    pub click_rate: Option<f64>,
    /// revenue × 1000 ÷ delivered, to the cent; null when nothing was delivered.
    pub rpm: Option<String>,
}

/// The external sends of `from`–`to` (both included), newest first.
pub async fn list(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<ExternalMailing>, sqlx::Error> {
    sqlx::query_as(
        "select id, source, name, sent_on, recipients, delivered, bounces, opens, clicks, unsubscribes, gifts,
                revenue::text as revenue,
                round(opens::numeric / nullif(recipients, 0), 4)::float8 as open_rate,
                round(clicks::numeric / nullif(delivered, 0), 4)::float8 as click_rate,
                round(revenue * 1000 / nullif(delivered, 0), 2)::text as rpm
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

/// What an import wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpsertCounts {
    pub created: i64,
    pub updated: i64,
    /// Rows of the file whose send an earlier row of the same file already gave (the last one counts).
    pub repeated: i64,
}

/// Writes the sends: a send already stored under the same platform and id — or, without an id, the same platform,
/// name and send date — is replaced, so importing a file again (or a newer report of the same sends) never
/// double counts. One statement per 5,000 sends.
pub async fn upsert(
    conn: &mut PgConnection,
    sends: &[ExternalSend],
) -> Result<UpsertCounts, sqlx::Error> {
    let mut last: HashMap<(&'static str, String), &ExternalSend> = HashMap::new();
    let mut order = Vec::new();
    for send in sends {
        let key = (send.source.stored(), send.key());
        if last.insert(key.clone(), send).is_none() {
            order.push(key);
        }
    }
    let mut counts = UpsertCounts {
        repeated: (sends.len() - order.len()) as i64,
        ..UpsertCounts::default()
    };
    let (with_id, without_id): (Vec<&ExternalSend>, Vec<&ExternalSend>) = order
        .iter()
        .map(|k| last[k])
        .partition(|s| s.external_id.is_some());
    let targets = [
        (
            with_id,
            "(source, external_id) where external_id is not null",
        ),
        (
            without_id,
            "(source, name, sent_on) where external_id is null",
        ),
    ];
    for (sends, target) in targets {
        for rows in sends.chunks(5000) {
            let (created, updated) = write(conn, rows, target).await?;
            counts.created += created;
            counts.updated += updated;
        }
    }
    Ok(counts)
}

async fn write(
    conn: &mut PgConnection,
    rows: &[&ExternalSend],
    target: &'static str,
) -> Result<(i64, i64), sqlx::Error> {
    let column = |f: fn(&ExternalSend) -> i64| rows.iter().map(|s| f(s)).collect::<Vec<i64>>();
    let statement = format!(
        "insert into external_mailings (source, name, sent_on, external_id, recipients, delivered, bounces, opens,
                                        clicks, unsubscribes, gifts, revenue)
         select * from unnest($1::text[], $2::text[], $3::date[], $4::text[], $5::int8[], $6::int8[], $7::int8[],
                              $8::int8[], $9::int8[], $10::int8[], $11::int8[], $12::text[]::numeric[])
         on conflict {target} do update
             set name = excluded.name, sent_on = excluded.sent_on, recipients = excluded.recipients,
                 delivered = excluded.delivered, bounces = excluded.bounces, opens = excluded.opens,
                 clicks = excluded.clicks, unsubscribes = excluded.unsubscribes, gifts = excluded.gifts,
                 revenue = excluded.revenue
         returning xmax = 0"
    );
    let inserted: Vec<bool> = sqlx::query_scalar(sqlx::AssertSqlSafe(statement))
        .bind(rows.iter().map(|s| s.source.stored()).collect::<Vec<_>>())
        .bind(rows.iter().map(|s| s.name.clone()).collect::<Vec<_>>())
        .bind(rows.iter().map(|s| s.sent_on).collect::<Vec<_>>())
        .bind(
            rows.iter()
                .map(|s| s.external_id.clone())
                .collect::<Vec<_>>(),
        )
        .bind(column(|s| s.recipients))
        .bind(column(|s| s.delivered))
        .bind(column(|s| s.bounces))
        .bind(column(|s| s.opens))
        .bind(column(|s| s.clicks))
        .bind(column(|s| s.unsubscribes))
        .bind(column(|s| s.gifts))
        .bind(rows.iter().map(|s| s.revenue.clone()).collect::<Vec<_>>())
        .fetch_all(&mut *conn)
        .await?;
    let created = inserted.iter().filter(|&&new| new).count() as i64;
    Ok((created, inserted.len() as i64 - created))
}
