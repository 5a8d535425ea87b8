//! Enrolment from the events table: one batch of events is taken (deleted, skipping rows another worker holds),
//! matched against every active journey's triggers and turned into enrolments, all in the caller's transaction.

use super::super::clock::sql_now;
use super::enrol_ids;
use domain::journey::{Definition, Trigger};
use sqlx::PgConnection;
use std::collections::HashSet;

#[derive(Debug, sqlx::FromRow)]
struct Event {
    kind: String,
    contact_id: i64,
    ref_id: Option<i64>,
    amount_cents: Option<i64>,
    field: Option<String>,
}

#[derive(Debug, sqlx::FromRow)]
struct Active {
    id: i64,
    definition: serde_json::Value,
}

/// Takes up to `limit` events and enrols the contacts they name in the journeys they trigger; gifts first make
/// contacts leave the journeys that end on a gift. Answers (events taken, contacts enrolled).
pub async fn consume_events(
    conn: &mut PgConnection,
    limit: i64,
) -> Result<(usize, u64), sqlx::Error> {
    // The events table is empty most of the time and then fills in a burst (a list import, a form campaign).
    // After five runs on an empty table Postgres keeps one generic plan for this prepared statement, and that
    // plan (made for an empty table) re-ran the locking subquery for every row: 100,000 events took minutes
    // per batch and the enrolment stalled. Planning each run for the table as it is keeps it an index scan.
    sqlx::query("set local plan_cache_mode = force_custom_plan")
        .execute(&mut *conn)
        .await?;
    let events: Vec<Event> = sqlx::query_as(
        "delete from journey_events where id in (
             select id from journey_events order by id limit $1 for update skip locked)
         returning kind, contact_id, ref_id, amount_cents, field",
    )
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    if events.is_empty() {
        return Ok((0, 0));
    }
    let journeys: Vec<Active> = sqlx::query_as(
        "select j.id, v.definition from journeys j
         join journey_versions v on v.journey_id = j.id and v.version = j.version
         where j.status = 'active'",
    )
    .fetch_all(&mut *conn)
    .await?;
    let gifts: Vec<&Event> = events.iter().filter(|e| e.kind == "gift").collect();
    let givers: Vec<i64> = gifts.iter().map(|e| e.contact_id).collect();
    let first_gifts = first_gifts(conn, &gifts).await?;
    let mut enrolled = 0;
    for journey in &journeys {
        let Ok(definition) = serde_json::from_value::<Definition>(journey.definition.clone())
        else {
            continue;
        };
        if definition.exit_on_gift && !givers.is_empty() {
            exit_givers(conn, journey.id, &givers).await?;
        }
        let mut ids: Vec<i64> = Vec::new();
        for trigger in &definition.triggers {
            let origin = match trigger {
                Trigger::OriginCodeSignup { origin_code } => {
                    origin_code_id(conn, origin_code).await?
                }
                _ => None,
            };
            ids.extend(
                events
                    .iter()
                    .filter(|e| matches(trigger, e, origin, &first_gifts))
                    .map(|e| e.contact_id),
            );
        }
        ids.sort_unstable();
        ids.dedup();
        enrolled += enrol_ids(conn, journey.id, &ids).await?;
    }
    Ok((events.len(), enrolled))
}

fn matches(trigger: &Trigger, e: &Event, origin: Option<i64>, first_gifts: &HashSet<i64>) -> bool {
    match trigger {
        Trigger::FormSignup { form_id } => e.kind == "form_signup" && e.ref_id == Some(*form_id),
        Trigger::OriginCodeSignup { .. } => {
            e.kind == "origin_code_signup" && origin.is_some() && e.ref_id == origin
        }
        Trigger::ListAdded { list_id } => e.kind == "list_added" && e.ref_id == Some(*list_id),
        Trigger::SegmentEntered { segment_id } => {
            e.kind == "segment_entered" && e.ref_id == Some(*segment_id)
        }
        Trigger::FirstGift {} => {
            e.kind == "gift" && e.ref_id.is_some_and(|id| first_gifts.contains(&id))
        }
        Trigger::GiftOver { amount_cents } => {
            e.kind == "gift" && e.amount_cents.is_some_and(|a| a >= *amount_cents)
        }
        Trigger::RecurringStarted {} => e.kind == "recurring_started",
        Trigger::RecurringFailed {} => e.kind == "recurring_failed",
        Trigger::RecurringEnded {} => e.kind == "recurring_ended",
        Trigger::FirstGiftAnniversary {} => e.kind == "first_gift_anniversary",
        Trigger::DateField { field } => {
            e.kind == "date_field" && e.field.as_deref() == Some(field.as_str())
        }
    }
}

/// Emits the events of the calendar (first-gift and date-field anniversaries, recurring series that failed) for
/// the client days since the last scan, once per day on the journeys' clock; answers how many.
pub async fn calendar_events(conn: &mut PgConnection) -> Result<i32, sqlx::Error> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "select journey_calendar_events({})",
        sql_now()
    )))
    .fetch_one(conn)
    .await
}

/// Of the gift events' contributions, those that are their contact's first gift ever.
async fn first_gifts(
    conn: &mut PgConnection,
    gifts: &[&Event],
) -> Result<HashSet<i64>, sqlx::Error> {
    let ids: Vec<i64> = gifts.iter().filter_map(|e| e.ref_id).collect();
    if ids.is_empty() {
        return Ok(HashSet::new());
    }
    let firsts: Vec<i64> = sqlx::query_scalar(
        "select c.id from contributions c
         where c.id = any($1) and c.amount > 0 and not exists (
             select 1 from contributions e
             where e.contact_id = c.contact_id and e.amount > 0 and (e.paid_at, e.id) < (c.paid_at, c.id))",
    )
    .bind(&ids)
    .fetch_all(conn)
    .await?;
    Ok(firsts.into_iter().collect())
}

async fn origin_code_id(conn: &mut PgConnection, name: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("select id from origin_codes where lower(name) = lower($1)")
        .bind(name.trim())
        .fetch_optional(conn)
        .await
}

/// Contacts who gave leave a journey that ends on a gift ("gave").
async fn exit_givers(
    conn: &mut PgConnection,
    journey_id: i64,
    givers: &[i64],
) -> Result<(), sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "update journey_contacts set state = 'exited', exit_reason = 'gave', left_at = {}, due_at = null
         where journey_id = $1 and contact_id = any($2) and state = 'waiting'",
        sql_now()
    )))
    .bind(journey_id)
    .bind(givers)
    .execute(conn)
    .await?;
    Ok(())
}
