//! The planning calendar: sent, scheduled and draft mailings and planned sends by client day, the month figures
//! (goal, planned, actual revenue) and the marked days. Days are the client's (app_settings.time_zone).

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::PgConnection;

/// One entry of the calendar. `kind` is `sent`, `scheduled`, `draft` (a mailing) or `planned` (a planned send
/// not yet made into a draft).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Entry {
    pub kind: String,
    /// The mailing's id, or the planned send's for `planned`.
    pub id: i64,
    pub name: String,
    pub day: NaiveDate,
    pub send_time: Option<DateTime<Utc>>,
    pub segment_id: Option<i64>,
    pub segment_name: Option<String>,
    /// The planned send behind the entry, if any (a draft made from a plan keeps it).
    pub planned_send_id: Option<i64>,
    pub revenue_goal: Option<String>,
}

/// A month's figures: money as decimal strings.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Month {
    /// The first day of the month.
    pub month: NaiveDate,
    pub goal: Option<String>,
    pub planned: String,
    pub actual: String,
}

/// A marked day: `month_end`, `quarter_end` or `election_day`.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Mark {
    pub day: NaiveDate,
    pub kind: String,
}

/// The entries whose client day lies in `from`–`to` (both included).
pub async fn entries(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<Entry>, sqlx::Error> {
    sqlx::query_as(
        "select case when m.send_attempt is not null or m.delivery <> 'idle' then 'sent'
                     when m.is_draft then 'draft' else 'scheduled' end as kind,
                m.id, m.name, (m.send_time at time zone s.time_zone)::date as day, m.send_time,
                m.segment_id, g.name as segment_name, p.id as planned_send_id,
                p.revenue_goal::text as revenue_goal
         from mailings m cross join app_settings s
         left join segments g on g.id = m.segment_id
         left join planned_sends p on p.mailing_id = m.id
         where m.send_time >= ($1::date)::timestamp at time zone s.time_zone
           and m.send_time < ($2::date + 1)::timestamp at time zone s.time_zone
         union all
         select 'planned', p.id, p.name, p.send_date, null, p.segment_id, g.name, p.id, p.revenue_goal::text
         from planned_sends p left join segments g on g.id = p.segment_id
         where p.mailing_id is null and p.send_date between $1 and $2
         order by day, name, id",
    )
    .bind(from)
    .bind(to)
    .fetch_all(conn)
    .await
}

/// The figures of every month touching `from`–`to`. Planned = the revenue goals of the month's planned sends
/// (made into drafts or not); actual = the month's e-mail revenue, `email_revenue` (docs/metrics.md ›
/// "E-mail revenue and RPM in a period").
pub async fn months(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<Month>, sqlx::Error> {
    sqlx::query_as(
        "select mo.month::date as month, g.revenue_goal::text as goal,
                (select coalesce(sum(p.revenue_goal), 0) from planned_sends p
                 where p.send_date >= mo.month and p.send_date < mo.month + interval '1 month')::text as planned,
                e.revenue::text as actual
         from generate_series(date_trunc('month', $1::timestamp), date_trunc('month', $2::timestamp), interval '1 month')
              as mo (month)
         cross join lateral email_revenue(mo.month::date, (mo.month + interval '1 month' - interval '1 day')::date) e
         left join planning_months g on g.month = mo.month::date
         order by 1",
    )
    .bind(from)
    .bind(to)
    .fetch_all(conn)
    .await
}

/// Month ends, quarter ends and the election day (when set) in `from`–`to`.
pub async fn marks(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<Mark>, sqlx::Error> {
    sqlx::query_as(
        "select d.day, k.kind from (
             select (mo + interval '1 month' - interval '1 day')::date as day
             from generate_series(date_trunc('month', $1::timestamp), date_trunc('month', $2::timestamp), interval '1 month') mo
         ) d cross join lateral (values ('month_end'), ('quarter_end')) k (kind)
         where d.day between $1 and $2
           and (k.kind = 'month_end' or extract(month from d.day) in (3, 6, 9, 12))
         union all
         select election_day, 'election_day' from app_settings where election_day between $1 and $2
         order by 1, 2",
    )
    .bind(from)
    .bind(to)
    .fetch_all(conn)
    .await
}

/// The segments a planned send may name: (id, name), by name.
pub async fn segments(conn: &mut PgConnection) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as("select id, name from segments order by lower(name), id limit 10000")
        .fetch_all(conn)
        .await
}

/// A planned send as entered.
#[derive(Debug, Clone)]
pub struct NewPlanned {
    pub send_date: NaiveDate,
    pub name: String,
    pub segment_id: Option<i64>,
    /// A decimal string, checked by the caller.
    pub revenue_goal: String,
}

#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error("Planned send not found")]
    NotFound,
    #[error("Mailing not found")]
    MailingNotFound,
    #[error("Segment not found")]
    UnknownSegment,
    #[error("A sent mailing cannot be moved")]
    Sent,
    #[error("This planned send is already a draft mailing")]
    AlreadyDraft,
    #[error("A send cannot be moved to a day in the past")]
    Past,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

async fn segment_exists(conn: &mut PgConnection, id: Option<i64>) -> Result<(), PlanError> {
    if let Some(id) = id {
        let found: bool =
            sqlx::query_scalar("select exists (select 1 from segments where id = $1)")
                .bind(id)
                .fetch_one(conn)
                .await?;
        if !found {
            return Err(PlanError::UnknownSegment);
        }
    }
    Ok(())
}

pub async fn create_planned(conn: &mut PgConnection, new: &NewPlanned) -> Result<i64, PlanError> {
    segment_exists(conn, new.segment_id).await?;
    Ok(sqlx::query_scalar(
        "insert into planned_sends (send_date, name, segment_id, revenue_goal)
         values ($1, $2, $3, $4::numeric) returning id",
    )
    .bind(new.send_date)
    .bind(new.name.trim())
    .bind(new.segment_id)
    .bind(&new.revenue_goal)
    .fetch_one(conn)
    .await?)
}

/// Replaces a planned send's fields. Moving it to a past day is refused.
pub async fn update_planned(
    conn: &mut PgConnection,
    id: i64,
    new: &NewPlanned,
) -> Result<(), PlanError> {
    segment_exists(&mut *conn, new.segment_id).await?;
    let updated: Option<bool> = sqlx::query_scalar(
        "update planned_sends p set send_date = $2, name = $3, segment_id = $4, revenue_goal = $5::numeric
         where p.id = $1 and ($2 >= client_today() or $2 = p.send_date)
         returning true",
    )
    .bind(id)
    .bind(new.send_date)
    .bind(new.name.trim())
    .bind(new.segment_id)
    .bind(&new.revenue_goal)
    .fetch_optional(&mut *conn)
    .await?;
    if updated.is_some() {
        return Ok(());
    }
    let exists: bool =
        sqlx::query_scalar("select exists (select 1 from planned_sends where id = $1)")
            .bind(id)
            .fetch_one(conn)
            .await?;
    Err(if exists {
        PlanError::Past
    } else {
        PlanError::NotFound
    })
}

pub async fn delete_planned(conn: &mut PgConnection, id: i64) -> Result<(), PlanError> {
    let gone = sqlx::query("delete from planned_sends where id = $1")
        .bind(id)
        .execute(conn)
        .await?;
    if gone.rows_affected() == 0 {
        return Err(PlanError::NotFound);
    }
    Ok(())
}

/// Makes a planned send a draft mailing: its name (also the subject line), its segment, sent at 10:00 of its day
/// in the client's zone. Returns the mailing's id.
pub async fn make_draft(conn: &mut PgConnection, id: i64) -> Result<i64, PlanError> {
    let row: Option<(Option<i64>,)> =
        sqlx::query_as("select mailing_id from planned_sends where id = $1 for update")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    match row {
        None => return Err(PlanError::NotFound),
        Some((Some(_),)) => return Err(PlanError::AlreadyDraft),
        Some((None,)) => {}
    }
    let mailing: i64 = sqlx::query_scalar(
        "with m as (
             insert into mailings (name, subject_line, segment_id, send_time, is_draft)
             select p.name, p.name, p.segment_id, (p.send_date + time '10:00') at time zone s.time_zone, true
             from planned_sends p cross join app_settings s where p.id = $1
             returning id)
         update planned_sends set mailing_id = (select id from m) where id = $1 returning mailing_id",
    )
    .bind(id)
    .fetch_one(conn)
    .await?;
    Ok(mailing)
}

/// Moves an unsent mailing (draft or scheduled) to `day`, keeping its time of day (10:00 when it had none).
/// A mailing whose send has started is refused, as is a day before today.
pub async fn move_mailing(
    conn: &mut PgConnection,
    id: i64,
    day: NaiveDate,
) -> Result<DateTime<Utc>, PlanError> {
    let moved: Option<(DateTime<Utc>, bool)> = sqlx::query_as(
        "update mailings m
         set send_time = ($2 + coalesce((m.send_time at time zone s.time_zone)::time, time '10:00'))
                         at time zone s.time_zone,
             updated = now()
         from app_settings s
         where m.id = $1 and m.send_attempt is null and m.delivery = 'idle' and $2 >= client_today()
         returning m.send_time, true",
    )
    .bind(id)
    .bind(day)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some((at, _)) = moved {
        return Ok(at);
    }
    let state: Option<bool> = sqlx::query_scalar(
        "select send_attempt is not null or delivery <> 'idle' from mailings where id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?;
    Err(match state {
        None => PlanError::MailingNotFound,
        Some(true) => PlanError::Sent,
        Some(false) => PlanError::Past,
    })
}

/// Sets (or with `None` clears) the revenue goal of the month starting `month`.
pub async fn set_month_goal(
    conn: &mut PgConnection,
    month: NaiveDate,
    goal: Option<&str>,
) -> Result<(), sqlx::Error> {
    match goal {
        Some(goal) => {
            sqlx::query(
                "insert into planning_months (month, revenue_goal) values (date_trunc('month', $1::timestamp)::date, $2::numeric)
                 on conflict (month) do update set revenue_goal = excluded.revenue_goal",
            )
            .bind(month)
            .bind(goal)
            .execute(conn)
            .await?;
        }
        None => {
            sqlx::query("delete from planning_months where month = date_trunc('month', $1::timestamp)::date")
                .bind(month)
                .execute(conn)
                .await?;
        }
    }
    Ok(())
}
