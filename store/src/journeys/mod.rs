//! Journeys (issue 31): definitions and their versions, the programme-wide limits, the movable clock, the
//! figures, and (in `engine`) the engine that enrols contacts and advances them step by step.

pub mod clock;
pub mod engine;
pub mod events;
pub mod figures;
mod limits;

pub use limits::{get_limits, put_limits, Limits};

use chrono::{DateTime, Utc};
use domain::journey::Refs;
use sqlx::PgConnection;
use std::collections::HashSet;

/// A journey as its list shows it; the counts are of enrolments in every version.
#[derive(Debug, sqlx::FromRow)]
pub struct Summary {
    pub id: i64,
    pub name: String,
    pub status: String,
    pub version: i32,
    pub entered: i64,
    pub active: i64,
    pub finished: i64,
    pub converted: i64,
    pub revenue_cents: i64,
}

#[derive(Debug, sqlx::FromRow)]
pub struct Journey {
    pub id: i64,
    pub name: String,
    pub status: String,
    pub version: i32,
    pub ever_active: bool,
    pub definition: serde_json::Value,
}

#[derive(Debug, sqlx::FromRow)]
pub struct Version {
    pub version: i32,
    pub created_at: DateTime<Utc>,
    /// Contacts still inside this version.
    pub active: i64,
}

pub async fn list(conn: &mut PgConnection) -> Result<Vec<Summary>, sqlx::Error> {
    sqlx::query_as(
        "select j.id, j.name, j.status, j.version,
                coalesce(e.entered, 0) as entered, coalesce(e.active, 0) as active,
                coalesce(e.finished, 0) as finished, coalesce(e.converted, 0) as converted,
                coalesce(r.revenue_cents, 0) as revenue_cents
         from journeys j
         left join lateral (
             select count(*) as entered,
                    count(*) filter (where jc.state = 'waiting') as active,
                    count(*) filter (where jc.state <> 'waiting') as finished,
                    count(*) filter (where exists (
                        select 1 from contributions c
                        where c.contact_id = jc.contact_id and c.amount > 0
                          and c.paid_at >= jc.entered_at and c.paid_at <= coalesce(jc.left_at, 'infinity')
                    )) as converted
             from journey_contacts jc where jc.journey_id = j.id
         ) e on true
         -- Its mailings' revenue by the one definition every mailing page reads (docs/metrics.md).
         left join lateral (
             select (sum(f.revenue) * 100)::bigint as revenue_cents
             from mailings m cross join lateral mailing_email_figures(m.id) f
             where m.journey_id = j.id
         ) r on true
         order by j.status = 'archived', j.id desc",
    )
    .fetch_all(conn)
    .await
}

pub async fn create(
    conn: &mut PgConnection,
    name: &str,
    definition: &serde_json::Value,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "with j as (insert into journeys (name) values ($1) returning id),
              v as (insert into journey_versions (journey_id, version, definition)
                    select id, 1, $2 from j)
         select id from j",
    )
    .bind(name)
    .bind(definition)
    .fetch_one(conn)
    .await
}

/// The journey with its current version's definition, locked for the rest of the transaction.
pub async fn get(conn: &mut PgConnection, id: i64) -> Result<Option<Journey>, sqlx::Error> {
    sqlx::query_as(
        "select j.id, j.name, j.status, j.version, j.ever_active, v.definition
         from journeys j join journey_versions v on v.journey_id = j.id and v.version = j.version
         where j.id = $1 for update of j",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

pub async fn versions(conn: &mut PgConnection, id: i64) -> Result<Vec<Version>, sqlx::Error> {
    sqlx::query_as(
        "select v.version, v.created_at,
                (select count(*) from journey_contacts jc
                 where jc.journey_id = v.journey_id and jc.version = v.version and jc.state = 'waiting') as active
         from journey_versions v where v.journey_id = $1 order by v.version",
    )
    .bind(id)
    .fetch_all(conn)
    .await
}

/// Saves the name and definition: in place while the journey has never been active, else as a new version
/// (contacts inside finish the version they entered). Answers the version now current.
pub async fn update(
    conn: &mut PgConnection,
    journey: &Journey,
    name: &str,
    definition: &serde_json::Value,
) -> Result<i32, sqlx::Error> {
    if !journey.ever_active {
        sqlx::query(
            "update journey_versions set definition = $3 where journey_id = $1 and version = $2",
        )
        .bind(journey.id)
        .bind(journey.version)
        .bind(definition)
        .execute(&mut *conn)
        .await?;
        sqlx::query("update journeys set name = $2, updated = now() where id = $1")
            .bind(journey.id)
            .bind(name)
            .execute(&mut *conn)
            .await?;
        return Ok(journey.version);
    }
    if journey.definition == *definition {
        sqlx::query("update journeys set name = $2, updated = now() where id = $1")
            .bind(journey.id)
            .bind(name)
            .execute(&mut *conn)
            .await?;
        return Ok(journey.version);
    }
    sqlx::query_scalar(
        "with v as (insert into journey_versions (journey_id, version, definition)
                    select $1, max(version) + 1, $3 from journey_versions where journey_id = $1
                    returning version)
         update journeys set name = $2, version = (select version from v), updated = now()
         where id = $1 returning version",
    )
    .bind(journey.id)
    .bind(name)
    .bind(definition)
    .fetch_one(conn)
    .await
}

pub async fn set_status(conn: &mut PgConnection, id: i64, status: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update journeys set status = $2, ever_active = ever_active or $2 = 'active', updated = now()
         where id = $1",
    )
    .bind(id)
    .bind(status)
    .execute(conn)
    .await?;
    Ok(())
}

/// Which of the ids a definition names exist in this client.
pub async fn known_refs(conn: &mut PgConnection, wanted: &Refs) -> Result<Refs, sqlx::Error> {
    async fn present(
        conn: &mut PgConnection,
        table: &'static str,
        ids: &HashSet<i64>,
    ) -> Result<HashSet<i64>, sqlx::Error> {
        if ids.is_empty() {
            return Ok(HashSet::new());
        }
        let ids: Vec<i64> = ids.iter().copied().collect();
        let found: Vec<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "select id from {table} where id = any($1)"
        )))
        .bind(&ids)
        .fetch_all(conn)
        .await?;
        Ok(found.into_iter().collect())
    }
    Ok(Refs {
        templates: present(conn, "mailing_templates", &wanted.templates).await?,
        lists: present(conn, "crm_lists", &wanted.lists).await?,
        segments: present(conn, "segments", &wanted.segments).await?,
        forms: present(conn, "forms", &wanted.forms).await?,
    })
}

/// A contact's enrolments, newest first.
#[derive(Debug, sqlx::FromRow)]
pub struct Place {
    pub journey_id: i64,
    pub name: String,
    pub version: i32,
    pub step_id: String,
    pub state: String,
    pub entered_at: DateTime<Utc>,
    pub due_at: Option<DateTime<Utc>>,
    pub exit_reason: Option<String>,
}

pub async fn of_contact(
    conn: &mut PgConnection,
    contact_id: i64,
) -> Result<Vec<Place>, sqlx::Error> {
    sqlx::query_as(
        "select jc.journey_id, j.name, jc.version, jc.step_id, jc.state, jc.entered_at,
                case when jc.state = 'waiting' then jc.due_at end as due_at, jc.exit_reason
         from journey_contacts jc join journeys j on j.id = jc.journey_id
         where jc.contact_id = $1 order by jc.entered_at desc, jc.id desc limit 200",
    )
    .bind(contact_id)
    .fetch_all(conn)
    .await
}
