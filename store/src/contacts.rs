//! Contacts: one contact with its lists, and Contact Search's SQL, made for a million contacts: trigram indexes for the substring filter
//! (migration 20261123700001), keyset pagination on (created, id), and a count that stops at 10,000 matches and
//! gives the planner's estimate past that.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

#[derive(Debug, sqlx::FromRow)]
pub struct Contact {
    pub id: i64,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub phone: Option<String>,
    pub vanid: Option<i64>,
    /// subscribed, unsubscribed or bounced
    pub subscription: String,
    pub origin_code_id: Option<i64>,
    pub origin_code_name: Option<String>,
    pub created: DateTime<Utc>,
}

pub async fn contact(conn: &mut PgConnection, id: i64) -> Result<Option<Contact>, sqlx::Error> {
    sqlx::query_as(
        "select c.id, c.email, c.first_name, c.last_name, c.phone, c.vanid, c.subscription, c.origin_code_id,
                o.name as origin_code_name, c.created
         from contacts c left join origin_codes o on o.id = c.origin_code_id
         where c.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The lists (id, name) the contact `id` is in, by name: query lists by its origin code, upload lists by
/// membership.
pub async fn lists_of(
    conn: &mut PgConnection,
    id: i64,
    origin_code_id: Option<i64>,
) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(
        "select l.id, l.name from crm_lists l
         where (l.kind = 'query' and $2::bigint = any (l.origin_code_ids))
            or (l.kind = 'upload' and exists (
                select 1 from crm_list_members m where m.list_id = l.id and m.contact_id = $1))
         order by l.name",
    )
    .bind(id)
    .bind(origin_code_id)
    .fetch_all(conn)
    .await
}

/// Up to this many matches the total is counted; past it, estimated.
pub const EXACT_UP_TO: i64 = 10_000;

/// Where a page ends: the last contact's (created, id), written `<microseconds>_<id>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    created: DateTime<Utc>,
    id: i64,
}

impl Cursor {
    pub fn of(contact: &Contact) -> Self {
        Self {
            created: contact.created,
            id: contact.id,
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        let (micros, id) = text.split_once('_')?;
        let created = DateTime::from_timestamp_micros(micros.parse().ok()?)?;
        Some(Self {
            created,
            id: id.parse().ok()?,
        })
    }
}

impl std::fmt::Display for Cursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}_{}", self.created.timestamp_micros(), self.id)
    }
}

pub struct Search {
    /// The ILIKE pattern, or None for every contact.
    pattern: Option<String>,
    after: Option<Cursor>,
    narrow: Narrow,
}

/// Filters a page links with (an origin code's row, the dashboard's subscribed tile): `$6` origin code, `$7`
/// subscription, `$8`/`$9` the first and last day created (client zone).
#[derive(Debug, Default, Clone)]
pub struct Narrow {
    pub origin_code_id: Option<i64>,
    pub subscription: Option<String>,
    pub created_from: Option<chrono::NaiveDate>,
    pub created_to: Option<chrono::NaiveDate>,
}

impl Narrow {
    fn is_empty(&self) -> bool {
        self.origin_code_id.is_none()
            && self.subscription.is_none()
            && self.created_from.is_none()
            && self.created_to.is_none()
    }
}

const NARROW: &str = "($6::bigint is null or c.origin_code_id = $6)
     and ($7::text is null or c.subscription = $7)
     and ($8::date is null or c.created >= $8::timestamp at time zone (select time_zone from app_settings))
     and ($9::date is null or c.created < ($9 + 1)::timestamp at time zone (select time_zone from app_settings))";

/// `$1` is the pattern. The name expression is the indexed one (contacts_name_trgm_idx).
const MATCHES: &str =
    "(c.email ilike $1 escape '\\' or (c.first_name || ' ' || c.last_name) ilike $1 escape '\\')";

impl Search {
    pub fn new(term: &str, after: Option<Cursor>, narrow: Narrow) -> Self {
        let pattern = (!term.is_empty()).then(|| crate::like::containing(term));
        Self {
            pattern,
            after,
            narrow,
        }
    }

    fn filter(&self) -> String {
        let mut parts = vec!["true"];
        if self.pattern.is_some() {
            parts.push(MATCHES);
        }
        if self.after.is_some() {
            parts.push("(c.created, c.id) < ($2, $3)");
        }
        if !self.narrow.is_empty() {
            parts.push(NARROW);
        }
        parts.join(" and ")
    }

    /// The page: `limit` contacts after the cursor (or after `offset` of them when there is no cursor).
    pub async fn page(
        &self,
        conn: &mut PgConnection,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<Contact>, sqlx::Error> {
        let offset = if self.after.is_some() { 0 } else { offset };
        let sql = format!(
            "select c.id, c.email, c.first_name, c.last_name, c.phone, c.vanid, c.subscription, c.origin_code_id,
                    o.name as origin_code_name, c.created
             from contacts c left join origin_codes o on o.id = c.origin_code_id
             where {} order by c.created desc, c.id desc limit $4 offset $5",
            self.filter()
        );
        sqlx::query_as::<_, Contact>(sqlx::AssertSqlSafe(sql))
            .bind(self.pattern.as_deref().unwrap_or(""))
            .bind(self.after.map(|a| a.created).unwrap_or_default())
            .bind(self.after.map(|a| a.id).unwrap_or_default())
            .bind(limit)
            .bind(offset)
            .bind(self.narrow.origin_code_id)
            .bind(self.narrow.subscription.as_deref())
            .bind(self.narrow.created_from)
            .bind(self.narrow.created_to)
            .fetch_all(conn)
            .await
    }

    /// All matches (the cursor aside): exact up to [`EXACT_UP_TO`], else an estimate; the flag says which.
    pub async fn total(&self, conn: &mut PgConnection) -> Result<(i64, bool), sqlx::Error> {
        let mut filter = if self.pattern.is_some() {
            MATCHES
        } else {
            "true"
        }
        .to_owned();
        if !self.narrow.is_empty() {
            // Keeps the narrowing parameters' numbers: the count binds placeholders for $2–$5.
            filter = format!("{filter} and {NARROW}");
        }
        if self.pattern.is_none() && self.narrow.is_empty() {
            // The table's size as the last ANALYZE (or autovacuum) saw it; -1 before the first.
            let estimate: f32 = sqlx::query_scalar(
                "select reltuples from pg_class where oid = 'contacts'::regclass",
            )
            .fetch_one(&mut *conn)
            .await?;
            if estimate as i64 > EXACT_UP_TO {
                return Ok((estimate as i64, true));
            }
        }
        let counted: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "select count(*) from (select 1 from contacts c where {filter} limit {}) s",
            EXACT_UP_TO + 1
        )))
        .bind(self.pattern.as_deref().unwrap_or(""))
        .bind(None::<DateTime<Utc>>)
        .bind(None::<i64>)
        .bind(None::<i64>)
        .bind(None::<i64>)
        .bind(self.narrow.origin_code_id)
        .bind(self.narrow.subscription.as_deref())
        .bind(self.narrow.created_from)
        .bind(self.narrow.created_to)
        .fetch_one(&mut *conn)
        .await?;
        if counted <= EXACT_UP_TO {
            return Ok((counted, false));
        }
        let plan: sqlx::types::Json<serde_json::Value> = sqlx::query_scalar(sqlx::AssertSqlSafe(
            format!("explain (format json) select 1 from contacts c where {filter}"),
        ))
        .bind(self.pattern.as_deref().unwrap_or(""))
        .bind(None::<DateTime<Utc>>)
        .bind(None::<i64>)
        .bind(None::<i64>)
        .bind(None::<i64>)
        .bind(self.narrow.origin_code_id)
        .bind(self.narrow.subscription.as_deref())
        .bind(self.narrow.created_from)
        .bind(self.narrow.created_to)
        .fetch_one(&mut *conn)
        .await?;
        let planned = plan.0[0]["Plan"]["Plan Rows"].as_f64().unwrap_or(0.0) as i64;
        Ok((planned.max(counted), true))
    }
}

/// Unsubscribes a subscribed contact through a mailing's link and records the event; false (and nothing
/// recorded) when the contact was not subscribed, so a second click changes nothing.
pub async fn unsubscribe_through_mailing(
    conn: &mut PgConnection,
    contact_id: i64,
    mailing_id: i64,
) -> Result<bool, sqlx::Error> {
    let changed = sqlx::query(
        "update contacts set subscription = 'unsubscribed' where id = $1 and subscription = 'subscribed'",
    )
    .bind(contact_id)
    .execute(&mut *conn)
    .await?;
    if changed.rows_affected() == 0 {
        return Ok(false);
    }
    sqlx::query(
        "insert into mailing_events (mailing_id, contact_id, kind) values ($1, $2, 'unsubscribe')",
    )
    .bind(mailing_id)
    .bind(contact_id)
    .execute(conn)
    .await?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::Cursor;

    #[test]
    fn a_cursor_reads_back_what_it_wrote_and_refuses_anything_else() {
        let c = Cursor::parse("1700000000123456_42").unwrap();
        assert_eq!(c.to_string(), "1700000000123456_42");
        for bad in [
            "",
            "_",
            "1_",
            "_1",
            "x_1",
            "1_x",
            "1",
            "1_2_3",
            "99999999999999999999_1",
        ] {
            assert!(Cursor::parse(bad).is_none(), "{bad}");
        }
    }
}
