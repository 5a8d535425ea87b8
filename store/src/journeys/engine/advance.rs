//! One batch of due places: claimed (`for update skip locked`), walked in memory (see [`super::plan`]) and
//! written back set-based, with the e-mails queued as recipients of the step's mailing of the day, all in the
//! caller's transaction.

use super::super::clock::now;
use super::plan::{walk, Plan, Row, Sent, Times};
use chrono::{DateTime, NaiveDate, Utc};
use domain::journey::{Action, Condition, Definition};
use sqlx::PgConnection;
use std::collections::{HashMap, HashSet};

/// What one batch did: places advanced, e-mails queued, and the mailings that got new recipients (their sends
/// must be queued by the caller, in the same transaction).
#[derive(Debug, Default)]
pub struct Advanced {
    pub places: usize,
    pub steps: usize,
    pub mailed: usize,
    pub mailings: Vec<i64>,
}

/// The claim: due places of active journeys, with what the branches and exits need to know.
fn claim_sql() -> &'static str {
    "with due as (
         select jc.id from journey_contacts jc join journeys j on j.id = jc.journey_id
         where jc.state = 'waiting' and jc.due_at <= $1 and j.status = 'active'
         order by jc.due_at limit $2
         for update of jc skip locked
     )
     select jc.id, jc.journey_id, jc.version, jc.contact_id, jc.step_id, jc.seq, jc.in_wait,
            case when c.subscription = 'unsubscribed' then 'unsubscribed'
                 when c.subscription = 'bounced' then 'bounced'
                 when x.reason = 'complaint' then 'complained'
                 when x.reason in ('hard_bounce', 'soft_bounces') then 'bounced'
                 when x.reason is not null then 'suppressed'
                 when coalesce((v.definition->>'exit_on_gift')::boolean, false) and g.cents > 0 then 'gave'
            end as exit,
            coalesce(o.opened, false) as opened, coalesce(o.clicked, false) as clicked,
            coalesce(g.cents, 0) as gave_cents
     from due join journey_contacts jc on jc.id = due.id
     join contacts c on c.id = jc.contact_id
     join journey_versions v on v.journey_id = jc.journey_id and v.version = jc.version
     left join suppressions x on x.email = c.email and x.lifted_at is null
     left join lateral (
         select sum(case when k.amount > 0 and (k.refund_id is not null or k.refunded_at is not null)
                         then 0 else k.amount end * 100)::bigint as cents
         from contributions k
         where k.contact_id = jc.contact_id and k.paid_at >= jc.entered_at and k.amount > 0
     ) g on true
     left join lateral (
         select bool_or(r.human_open) as opened, bool_or(r.human_click) as clicked
         from journey_step_mailings m
         join mailing_recipients r on r.mailing_id = m.mailing_id and r.contact_id = jc.contact_id
         where m.journey_id = jc.journey_id
           and m.day >= (jc.entered_at at time zone (select time_zone from app_settings limit 1))::date
     ) o on true"
}

/// Advances up to `limit` due places.
pub async fn advance_due(conn: &mut PgConnection, limit: i64) -> Result<Advanced, sqlx::Error> {
    let at = now(&mut *conn).await?;
    let rows: Vec<Row> = sqlx::query_as(claim_sql())
        .bind(at)
        .bind(limit)
        .fetch_all(&mut *conn)
        .await?;
    if rows.is_empty() {
        return Ok(Advanced::default());
    }
    let defs = definitions(conn, &rows).await?;
    let times = times(conn, at, defs.values()).await?;
    let contacts: Vec<i64> = rows.iter().map(|r| r.contact_id).collect();
    let mut sent = sent_counts(conn, &times, &contacts).await?;
    let segments = segment_pairs(conn, defs.values(), &contacts).await?;
    let mut plans: Vec<(&Row, Plan)> = Vec::with_capacity(rows.len());
    for row in &rows {
        let Some(def) = defs.get(&(row.journey_id, row.version)) else {
            continue;
        };
        let counts = sent.entry(row.contact_id).or_default();
        plans.push((row, walk(row, def, &times, counts, &segments)));
    }
    super::write::write(conn, &times, &defs, &plans).await
}

async fn definitions(
    conn: &mut PgConnection,
    rows: &[Row],
) -> Result<HashMap<(i64, i32), Definition>, sqlx::Error> {
    let mut keys: Vec<(i64, i32)> = rows.iter().map(|r| (r.journey_id, r.version)).collect();
    keys.sort_unstable();
    keys.dedup();
    let (ids, versions): (Vec<i64>, Vec<i32>) = keys.into_iter().unzip();
    let found: Vec<(i64, i32, serde_json::Value)> = sqlx::query_as(
        "select v.journey_id, v.version, v.definition
         from journey_versions v join unnest($1::bigint[], $2::integer[]) k (j, n)
           on v.journey_id = k.j and v.version = k.n",
    )
    .bind(&ids)
    .bind(&versions)
    .fetch_all(conn)
    .await?;
    Ok(found
        .into_iter()
        .filter_map(|(j, n, d)| serde_json::from_value(d).ok().map(|d| ((j, n), d)))
        .collect())
}

#[derive(sqlx::FromRow)]
struct Zone {
    day_start: DateTime<Utc>,
    week_start: DateTime<Utc>,
    next_day: DateTime<Utc>,
    next_week: DateTime<Utc>,
    hour: i32,
    quiet_today: DateTime<Utc>,
    quiet_tomorrow: DateTime<Utc>,
}

/// The batch's times in the client's zone: wait targets, the next day and week, quiet hours and the caps.
async fn times<'a>(
    conn: &mut PgConnection,
    at: DateTime<Utc>,
    defs: impl Iterator<Item = &'a Definition> + Clone,
) -> Result<Times, sqlx::Error> {
    let limits = super::super::get_limits(&mut *conn).await?;
    let zone: Zone = sqlx::query_as(
        "select (l.t)::date::timestamp at time zone s.tz as day_start,
                date_trunc('week', l.t) at time zone s.tz as week_start,
                ((l.t)::date + 1)::timestamp at time zone s.tz as next_day,
                (date_trunc('week', l.t) + interval '7 days') at time zone s.tz as next_week,
                extract(hour from l.t)::integer as hour,
                ((l.t)::date + make_time($2, 0, 0)) at time zone s.tz as quiet_today,
                ((l.t)::date + 1 + make_time($2, 0, 0)) at time zone s.tz as quiet_tomorrow
         from (select time_zone as tz from app_settings limit 1) s
         cross join lateral (select $1 at time zone s.tz as t) l",
    )
    .bind(at)
    .bind(limits.quiet_end_hour.unwrap_or(0))
    .fetch_one(&mut *conn)
    .await?;
    let Zone {
        day_start,
        week_start,
        next_day,
        next_week,
        hour,
        quiet_today,
        quiet_tomorrow,
    } = zone;
    let quiet_until = match (limits.quiet_start_hour, limits.quiet_end_hour) {
        (Some(start), Some(end)) => {
            let quiet = if start < end {
                hour >= start && hour < end
            } else {
                hour >= start || hour < end
            };
            match quiet {
                true if hour < end => Some(quiet_today),
                true => Some(quiet_tomorrow),
                false => None,
            }
        }
        _ => None,
    };
    let mut times = Times {
        now: at,
        quiet_until,
        day_start,
        week_start,
        next_day,
        next_week,
        per_day: limits.per_day.map(i64::from),
        per_week: limits.per_week.map(i64::from),
        ..Times::default()
    };
    let mut pairs = HashSet::new();
    let mut dates = HashSet::new();
    for def in defs {
        for step in &def.steps {
            match step.action {
                Action::WaitUntil { weekday, hour, .. } => {
                    pairs.insert((weekday, hour));
                }
                Action::WaitDate { date, .. } => {
                    dates.insert(date);
                }
                _ => {}
            }
        }
    }
    for (weekday, hour) in pairs {
        let due: DateTime<Utc> = sqlx::query_scalar(
            "select journey_next_weekday_hour($1, (select time_zone from app_settings limit 1), $2, $3)",
        )
        .bind(at)
        .bind(i32::from(weekday))
        .bind(i32::from(hour))
        .fetch_one(&mut *conn)
        .await?;
        times.weekday_hour.insert((weekday, hour), due);
    }
    for date in dates {
        let due: DateTime<Utc> = sqlx::query_scalar(
            "select $1::date::timestamp at time zone (select time_zone from app_settings limit 1)",
        )
        .bind(date)
        .fetch_one(&mut *conn)
        .await?;
        times.dates.insert(date, due);
    }
    Ok(times)
}

/// Each contact's e-mails of today and this week (client's zone), journeys and regular sends alike: read through
/// the week's mailings and their recipients' primary key, so no index on the hot recipients table is needed.
async fn sent_counts(
    conn: &mut PgConnection,
    times: &Times,
    contacts: &[i64],
) -> Result<HashMap<i64, Sent>, sqlx::Error> {
    if times.per_day.is_none() && times.per_week.is_none() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(i64, i64, i64)> = sqlx::query_as(
        "select r.contact_id,
                count(*) filter (where coalesce(r.sent_at, m.send_attempt) >= $2),
                count(*)
         from mailings m join mailing_recipients r on r.mailing_id = m.id and r.contact_id = any($1)
         where m.send_attempt >= $3 - interval '1 day' and r.status in ('queued', 'sending', 'sent')
           and coalesce(r.sent_at, m.send_attempt) >= $3
         group by r.contact_id",
    )
    .bind(contacts)
    .bind(times.day_start)
    .bind(times.week_start)
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(c, day, week)| (c, Sent { day, week }))
        .collect())
}

/// The (segment, contact) pairs the batch's in-segment branches ask about.
async fn segment_pairs<'a>(
    conn: &mut PgConnection,
    defs: impl Iterator<Item = &'a Definition>,
    contacts: &[i64],
) -> Result<HashSet<(i64, i64)>, sqlx::Error> {
    let segments: Vec<i64> = defs
        .flat_map(|d| d.steps.iter())
        .filter_map(|s| match s.action {
            Action::Branch {
                condition: Condition::InSegment { segment_id },
                ..
            } => Some(segment_id),
            _ => None,
        })
        .collect();
    if segments.is_empty() {
        return Ok(HashSet::new());
    }
    let pairs: Vec<(i64, i64)> = sqlx::query_as(
        "select segment_id, contact_id from segment_members
         where segment_id = any($1) and contact_id = any($2)",
    )
    .bind(&segments)
    .bind(contacts)
    .fetch_all(conn)
    .await?;
    Ok(pairs.into_iter().collect())
}

/// The client's date of `at`.
pub(crate) async fn local_day(
    conn: &mut PgConnection,
    at: DateTime<Utc>,
) -> Result<NaiveDate, sqlx::Error> {
    sqlx::query_scalar(
        "select ($1 at time zone (select time_zone from app_settings limit 1))::date",
    )
    .bind(at)
    .fetch_one(conn)
    .await
}
