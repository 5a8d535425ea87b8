//! Contact Search's SQL, made for a million contacts: trigram indexes for the substring filter
//! (migration 20261123700001), keyset pagination on (created, id), and a count that stops at 10,000 matches and
//! gives the planner's estimate past that.

use super::Contact;
use chrono::{DateTime, Utc};
use sqlx::PgConnection;

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
}

/// `$1` is the pattern. The name expression is the indexed one (contacts_name_trgm_idx).
const MATCHES: &str =
    "(c.email ilike $1 escape '\\' or (c.first_name || ' ' || c.last_name) ilike $1 escape '\\')";

impl Search {
    pub fn new(term: &str, after: Option<Cursor>) -> Self {
        let pattern = (!term.is_empty()).then(|| {
            format!(
                "%{}%",
                term.replace('\\', "\\\\")
                    .replace('%', "\\%")
                    .replace('_', "\\_")
            )
        });
        Self { pattern, after }
    }

    fn filter(&self) -> String {
        let mut parts = vec!["true"];
        if self.pattern.is_some() {
            parts.push(MATCHES);
        }
        if self.after.is_some() {
            parts.push("(c.created, c.id) < ($2, $3)");
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
            .fetch_all(conn)
            .await
    }

    /// All matches (the cursor aside): exact up to [`EXACT_UP_TO`], else an estimate; the flag says which.
    pub async fn total(&self, conn: &mut PgConnection) -> Result<(i64, bool), sqlx::Error> {
        let filter = if self.pattern.is_some() {
            MATCHES
        } else {
            "true"
        };
        if self.pattern.is_none() {
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
        .fetch_one(&mut *conn)
        .await?;
        if counted <= EXACT_UP_TO {
            return Ok((counted, false));
        }
        let plan: sqlx::types::Json<serde_json::Value> = sqlx::query_scalar(sqlx::AssertSqlSafe(
            format!("explain (format json) select 1 from contacts c where {filter}"),
        ))
        .bind(self.pattern.as_deref().unwrap_or(""))
        .fetch_one(&mut *conn)
        .await?;
        let planned = plan.0[0]["Plan"]["Plan Rows"].as_f64().unwrap_or(0.0) as i64;
        Ok((planned.max(counted), true))
    }
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
