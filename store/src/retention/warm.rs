//! Keeping the answers people read warm. The retention summary and the sustainers are kept 15 minutes and take
//! seconds to compute on a large client: the scheduler computes again, every few minutes, each answer someone
//! read in the last hour before it expires, so no reader waits for one. The daily refresh recomputes the answers
//! read in the last day once it has rebuilt the acquisition table, so the cohorts stay warm too.

use super::cohorts::{self, Grain, SourceBy};
use super::figures::{claim_warming, put, read_keys};
use super::{donor_retention, sustainers, PeriodKind};
use chrono::{Duration, Utc};
use sqlx::PgConnection;

/// How often a client's answers are warmed at most (the scheduler looks every five minutes).
const WARM_EVERY_MINUTES: i32 = 4;
/// An answer this old is computed again: the next look, five minutes on, still finds it inside its 15 minutes.
const STALE_MINUTES: i32 = 9;

/// The scheduler's pass for one client: when no worker warmed its answers in the last few minutes and one is
/// due, computes again every answer read in the last hour that is nine minutes old or more. Answers how many.
pub async fn warm(conn: &mut PgConnection) -> Result<usize, sqlx::Error> {
    if !claim_warming(&mut *conn, WARM_EVERY_MINUTES, STALE_MINUTES).await? {
        return Ok(0);
    }
    let now = Utc::now();
    let keys = read_keys(
        &mut *conn,
        now - Duration::hours(1),
        now - Duration::minutes(i64::from(STALE_MINUTES)),
    )
    .await?;
    recompute_all(conn, &keys).await
}

/// The keys of the answers read in the last day, taken before a refresh drops them, to give to [`recompute_all`]
/// after it.
pub async fn read_today(conn: &mut PgConnection) -> Result<Vec<String>, sqlx::Error> {
    let now = Utc::now();
    read_keys(conn, now - Duration::days(1), now + Duration::minutes(1)).await
}

/// Computes and stores the answer of each key (keys of answers this build no longer knows are skipped).
pub async fn recompute_all(conn: &mut PgConnection, keys: &[String]) -> Result<usize, sqlx::Error> {
    let mut done = 0;
    for key in keys {
        if recompute(&mut *conn, key).await? {
            done += 1;
        }
    }
    Ok(done)
}

/// Which answer a stored key holds. The key is written and read here only, so the answers the pages store and
/// the ones warming computes again cannot drift apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Answer {
    Summary(PeriodKind, chrono::NaiveDate),
    Sustainers,
    Cohorts(Grain, SourceBy),
}

impl Answer {
    pub(crate) fn key(self) -> String {
        match self {
            Self::Summary(kind, as_of) => format!("retention:{}:{as_of}", kind.id()),
            Self::Sustainers => "sustainers".to_owned(),
            Self::Cohorts(grain, by) => format!("cohorts:{}:{}", grain.id(), by.id()),
        }
    }

    /// `None` for a key this build does not write (an older build's answer, left to expire).
    fn parse(key: &str) -> Option<Self> {
        let parts: Vec<&str> = key.split(':').collect();
        match parts.as_slice() {
            ["retention", kind, day] => {
                Some(Self::Summary(PeriodKind::parse(kind)?, day.parse().ok()?))
            }
            ["sustainers"] => Some(Self::Sustainers),
            ["cohorts", grain, by] => {
                Some(Self::Cohorts(Grain::parse(grain)?, SourceBy::parse(by)?))
            }
            _ => None,
        }
    }
}

/// Computes the answer stored under `key` and stores it; false for a key this build does not write.
async fn recompute(conn: &mut PgConnection, key: &str) -> Result<bool, sqlx::Error> {
    match Answer::parse(key) {
        Some(Answer::Summary(kind, day)) => {
            let value = donor_retention(&mut *conn, kind, day).await?;
            put(conn, key, &value).await?;
        }
        Some(Answer::Sustainers) => {
            let value = sustainers::compute(&mut *conn).await?;
            put(conn, key, &value).await?;
        }
        Some(Answer::Cohorts(grain, by)) => {
            let value = cohorts::compute(&mut *conn, grain, by).await?;
            put(conn, key, &value).await?;
        }
        None => return Ok(false),
    }
    Ok(true)
}
