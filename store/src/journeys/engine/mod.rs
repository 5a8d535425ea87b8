//! The journeys engine: enrolment (from the events the writers leave, or a manual push) and the advance of due
//! places, both set-based and in batches. A pass is one transaction per batch: the claim of the due rows, the
//! step records (unique per enrolment and step number), the recipients queued for the send path and the rows'
//! new places commit together, so a killed worker neither skips nor doubles a step.

mod advance;
mod plan;
mod triggers;
mod write;

pub use advance::{advance_due, Advanced};
pub use triggers::{calendar_events, consume_events};

use super::clock::sql_now;
use domain::journey::Refs;
use sqlx::PgConnection;

/// What a manual enrolment pushes in.
#[derive(Debug, Clone, Copy)]
pub enum Source {
    List(i64),
    Segment(i64),
}

impl Source {
    pub fn refs(&self) -> Refs {
        let mut refs = Refs::default();
        match self {
            Source::List(id) => refs.lists.insert(*id),
            Source::Segment(id) => refs.segments.insert(*id),
        };
        refs
    }
}

/// The enrolment statement around a candidate set `{source}` of `contact_id`s (bound as `$2`). Contacts who are
/// not subscribed, are inside already, or left too recently for the re-entry rule stay out.
fn enrol_sql(source: &str) -> String {
    let now = sql_now();
    format!(
        "with j as (
             select j.id, j.version, v.definition->>'start' as start, v.definition->'reentry' as reentry
             from journeys j join journey_versions v on v.journey_id = j.id and v.version = j.version
             where j.id = $1 and j.status = 'active'
         ), t as (select {now} as now)
         insert into journey_contacts (journey_id, version, contact_id, step_id, due_at, entered_at)
         select j.id, j.version, c.id, j.start, t.now, t.now
         from j cross join t join contacts c on c.id in ({source})
         where c.subscription = 'subscribed'
           and not exists (
               select 1 from journey_contacts p
               where p.journey_id = j.id and p.contact_id = c.id
                 and (p.state = 'waiting' or j.reentry->>'kind' is distinct from 'after_days'
                      or p.left_at > t.now - make_interval(days => (j.reentry->>'days')::integer)))
         on conflict do nothing"
    )
}

/// Enrols `contact_ids` in the journey (when it is active); answers how many entered.
pub async fn enrol_ids(
    conn: &mut PgConnection,
    journey_id: i64,
    contact_ids: &[i64],
) -> Result<u64, sqlx::Error> {
    if contact_ids.is_empty() {
        return Ok(0);
    }
    let done = sqlx::query(sqlx::AssertSqlSafe(enrol_sql(
        "select unnest($2::bigint[])",
    )))
    .bind(journey_id)
    .bind(contact_ids)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// A one-time push of a list's or a segment's contacts.
pub async fn enrol_source(
    conn: &mut PgConnection,
    journey_id: i64,
    source: &Source,
) -> Result<i64, sqlx::Error> {
    let (sql, id) = match source {
        Source::List(id) => (
            enrol_sql("select contact_id from crm_list_contacts where list_id = $2"),
            *id,
        ),
        Source::Segment(id) => (
            enrol_sql("select contact_id from segment_members where segment_id = $2"),
            *id,
        ),
    };
    let done = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(journey_id)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(i64::try_from(done.rows_affected()).unwrap_or(i64::MAX))
}

/// Everyone inside the journey leaves it, for `reason`.
pub async fn exit_all(
    conn: &mut PgConnection,
    journey_id: i64,
    reason: &str,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(sqlx::AssertSqlSafe(format!(
        "update journey_contacts set state = 'exited', exit_reason = $2, left_at = {}, due_at = null
         where journey_id = $1 and state = 'waiting'",
        sql_now()
    )))
    .bind(journey_id)
    .bind(reason)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// What one engine pass did in a client.
#[derive(Debug, Default)]
pub struct Pass {
    pub enrolled: u64,
    pub advanced: Advanced,
}

/// Of `mailings`, those without a send job waiting to start (one waiting job sends every queued recipient).
pub async fn without_waiting_send(
    conn: &mut PgConnection,
    mailings: &[i64],
) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "select m from unnest($1::bigint[]) m
         where not exists (select 1 from jobs j
                           where j.command = 'send-mailing' and j.status = 'queued'
                             and j.payload->>'mailingId' = m::text)",
    )
    .bind(mailings)
    .fetch_all(conn)
    .await
}
