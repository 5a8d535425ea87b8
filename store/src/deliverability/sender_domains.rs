//! The client's sender domains: the From domains its mail is signed for (the DKIM key, sealed, never read back by
//! the api), the bounce domain of its envelope senders, and the warm-up plan that caps a new domain's daily volume.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::PgConnection;

/// A sender domain as the api shows it: no private key.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SenderDomain {
    pub id: i64,
    pub domain: String,
    pub bounce_domain: Option<String>,
    pub dkim_selector: String,
    /// `rsa` or `ed25519`.
    pub dkim_algorithm: String,
    /// The public key as the DNS record's `p=` carries it.
    pub dkim_public_key: Option<String>,
    pub warmup_start: Option<NaiveDate>,
    pub warmup_daily_cap: Option<i32>,
    pub warmup_growth_percent: i32,
    pub created: DateTime<Utc>,
}

impl SenderDomain {
    /// The most this domain may send on `today` under its warm-up plan; `None` when it has no plan.
    pub fn cap_on(&self, today: NaiveDate) -> Option<i64> {
        warmup_cap(
            self.warmup_start?,
            self.warmup_daily_cap?,
            self.warmup_growth_percent,
            today,
        )
    }
}

/// Above this a cap no longer limits anything; it also keeps the growth from overflowing.
const CAP_CEILING: f64 = 1e12;

/// The warm-up cap on `today`: the first day's cap grown by `growth_percent` for each day since `start` (the
/// first day's cap before the plan starts).
pub fn warmup_cap(
    start: NaiveDate,
    first_day_cap: i32,
    growth_percent: i32,
    today: NaiveDate,
) -> Option<i64> {
    let days = (today - start).num_days().clamp(0, 100_000);
    let factor = 1.0 + f64::from(growth_percent.max(0)) / 100.0;
    let cap = f64::from(first_day_cap.max(0)) * factor.powi(days as i32);
    Some(cap.min(CAP_CEILING).floor() as i64)
}

const COLUMNS: &str =
    "id, domain, bounce_domain, dkim_selector, dkim_algorithm, dkim_public_key, warmup_start,
    warmup_daily_cap, warmup_growth_percent, created";

/// Every sender domain, by name.
pub async fn list(conn: &mut PgConnection) -> Result<Vec<SenderDomain>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from sender_domains order by domain"
    )))
    .fetch_all(conn)
    .await
}

pub async fn get(conn: &mut PgConnection, id: i64) -> Result<Option<SenderDomain>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from sender_domains where id = $1"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// A new sender domain with its key.
pub struct NewSenderDomain<'a> {
    pub domain: &'a str,
    pub bounce_domain: Option<&'a str>,
    pub selector: &'a str,
    pub algorithm: &'a str,
    pub sealed_private_key: &'a [u8],
    pub public_key: &'a str,
}

/// Adds a domain; `None` when the client has it already.
pub async fn create(
    conn: &mut PgConnection,
    new: &NewSenderDomain<'_>,
) -> Result<Option<SenderDomain>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "insert into sender_domains (domain, bounce_domain, dkim_selector, dkim_algorithm, dkim_private_key,
             dkim_public_key)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (domain) do nothing
         returning {COLUMNS}"
    )))
    .bind(new.domain)
    .bind(new.bounce_domain)
    .bind(new.selector)
    .bind(new.algorithm)
    .bind(new.sealed_private_key)
    .bind(new.public_key)
    .fetch_optional(conn)
    .await
}

/// Removes a domain and its key; false when there was none.
pub async fn delete(conn: &mut PgConnection, id: i64) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query("delete from sender_domains where id = $1")
        .bind(id)
        .execute(conn)
        .await?
        .rows_affected()
        > 0)
}

/// Sets (or, with no start, clears) a domain's warm-up plan.
pub async fn set_warmup(
    conn: &mut PgConnection,
    id: i64,
    start: Option<NaiveDate>,
    first_day_cap: Option<i32>,
    growth_percent: i32,
) -> Result<Option<SenderDomain>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "update sender_domains set warmup_start = $2, warmup_daily_cap = $3, warmup_growth_percent = $4
         where id = $1 returning {COLUMNS}"
    )))
    .bind(id)
    .bind(start)
    .bind(first_day_cap)
    .bind(growth_percent)
    .fetch_optional(conn)
    .await
}

/// The warm-up cap of the domain `domain` today (the database's date); `None` when it has no plan or is not a
/// sender domain.
pub async fn cap_today(conn: &mut PgConnection, domain: &str) -> Result<Option<i64>, sqlx::Error> {
    let row: Option<(Option<NaiveDate>, Option<i32>, i32, NaiveDate)> = sqlx::query_as(
        "select warmup_start, warmup_daily_cap, warmup_growth_percent, current_date
         from sender_domains where domain = lower($1)",
    )
    .bind(domain)
    .fetch_optional(conn)
    .await?;
    Ok(row.and_then(|(start, cap, growth, today)| warmup_cap(start?, cap?, growth, today)))
}

/// A domain's sealed signing key, as the send opens it.
#[derive(Debug, sqlx::FromRow)]
pub struct SigningKey {
    pub domain: String,
    pub dkim_selector: String,
    pub dkim_algorithm: String,
    pub dkim_private_key: Vec<u8>,
}

/// The signing keys of `domains` (lower case) that have one.
pub async fn signing_keys(
    conn: &mut PgConnection,
    domains: &[String],
) -> Result<Vec<SigningKey>, sqlx::Error> {
    sqlx::query_as(
        "select domain, dkim_selector, dkim_algorithm, dkim_private_key from sender_domains
         where domain = any($1) and dkim_private_key is not null",
    )
    .bind(domains)
    .fetch_all(conn)
    .await
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn day(d: &str) -> NaiveDate {
        d.parse().unwrap()
    }

    #[test]
    fn the_cap_grows_by_the_percentage_each_day_from_the_start() {
        let start = day("2026-12-01");
        assert_eq!(warmup_cap(start, 1000, 50, day("2026-11-28")), Some(1000));
        assert_eq!(warmup_cap(start, 1000, 50, start), Some(1000));
        assert_eq!(warmup_cap(start, 1000, 50, day("2026-12-02")), Some(1500));
        assert_eq!(warmup_cap(start, 1000, 50, day("2026-12-03")), Some(2250));
        assert_eq!(warmup_cap(start, 1000, 0, day("2027-12-03")), Some(1000));
        assert_eq!(
            warmup_cap(start, 1000, 1000, day("2030-01-01")),
            Some(1_000_000_000_000)
        );
    }
}
