//! Reports e-mailed on a schedule. The worker's scheduler claims due schedules ([`claim_due`]: one statement
//! moves each to its next run, so two workers never both take one) and queues a job per run; the job mails the
//! file to each recipient not yet recorded in `report_deliveries` for that period.

use super::files::Format;
use super::{ReportError, ReportKind};
use chrono::{DateTime, NaiveDate, Utc};
use sqlx::PgConnection;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frequency {
    Weekly,
    Monthly,
}

impl Frequency {
    pub fn key(self) -> &'static str {
        match self {
            Self::Weekly => "weekly",
            Self::Monthly => "monthly",
        }
    }

    pub fn parse(key: &str) -> Result<Self, ReportError> {
        match key {
            "weekly" => Ok(Self::Weekly),
            "monthly" => Ok(Self::Monthly),
            other => Err(ReportError::Invalid(format!("Unknown frequency {other:?}"))),
        }
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Schedule {
    pub id: i64,
    pub kind: String,
    pub format: String,
    pub frequency: String,
    pub recipients: Vec<String>,
    pub next_run: DateTime<Utc>,
    pub last_run: Option<DateTime<Utc>>,
    pub created: DateTime<Utc>,
}

const COLUMNS: &str = "id, kind, format, frequency, recipients, next_run, last_run, created";

pub async fn list(conn: &mut PgConnection) -> Result<Vec<Schedule>, ReportError> {
    Ok(sqlx::query_as::<_, Schedule>(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from report_schedules order by id"
    )))
    .fetch_all(conn)
    .await?)
}

pub async fn get(conn: &mut PgConnection, id: i64) -> Result<Option<Schedule>, ReportError> {
    Ok(sqlx::query_as::<_, Schedule>(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from report_schedules where id = $1"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await?)
}

/// A new schedule; its first run is the next Monday (weekly) or first of the month (monthly), 07:00 client zone.
pub async fn create(
    conn: &mut PgConnection,
    kind: ReportKind,
    format: Format,
    frequency: Frequency,
    recipients: &[String],
    created_by: Option<i64>,
) -> Result<Schedule, ReportError> {
    Ok(sqlx::query_as::<_, Schedule>(sqlx::AssertSqlSafe(format!(
        "insert into report_schedules (kind, format, frequency, recipients, next_run, created_by)
         values ($1, $2, $3, $4, report_next_run($3, client_today()), $5)
         returning {COLUMNS}"
    )))
    .bind(kind.key())
    .bind(format.key())
    .bind(frequency.key())
    .bind(recipients)
    .bind(created_by)
    .fetch_one(conn)
    .await?)
}

pub async fn delete(conn: &mut PgConnection, id: i64) -> Result<bool, ReportError> {
    Ok(sqlx::query("delete from report_schedules where id = $1")
        .bind(id)
        .execute(conn)
        .await?
        .rows_affected()
        > 0)
}

/// A run to make: the schedule and the period it covers.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DueRun {
    pub schedule_id: i64,
    pub from: NaiveDate,
    pub to: NaiveDate,
}

/// Claims every schedule whose run has come: moves it to its next run and answers the period this run covers
/// (the last whole week or month before today, client zone).
pub async fn claim_due(conn: &mut PgConnection) -> Result<Vec<DueRun>, ReportError> {
    Ok(sqlx::query_as::<_, DueRun>(
        "with due as (
             select id from report_schedules where next_run <= now() for update skip locked
         ), moved as (
             update report_schedules s
             set last_run = now(), next_run = report_next_run(s.frequency, client_today())
             from due where s.id = due.id
             returning s.id, s.frequency
         )
         select m.id as schedule_id, p.period_from as \"from\", p.period_to as \"to\"
         from moved m cross join lateral report_period(m.frequency, client_today()) p",
    )
    .fetch_all(conn)
    .await?)
}

/// The recipients of a run who already have it.
pub async fn delivered(
    conn: &mut PgConnection,
    schedule_id: i64,
    from: NaiveDate,
) -> Result<Vec<String>, ReportError> {
    Ok(sqlx::query_scalar(
        "select recipient from report_deliveries where schedule_id = $1 and period_from = $2",
    )
    .bind(schedule_id)
    .bind(from)
    .fetch_all(conn)
    .await?)
}

pub async fn mark_delivered(
    conn: &mut PgConnection,
    schedule_id: i64,
    from: NaiveDate,
    recipient: &str,
) -> Result<(), ReportError> {
    sqlx::query(
        "insert into report_deliveries (schedule_id, period_from, recipient) values ($1, $2, $3)
         on conflict do nothing",
    )
    .bind(schedule_id)
    .bind(from)
    .bind(recipient)
    .execute(conn)
    .await?;
    Ok(())
}
