//! The send guard: once a mailing has delivered the client's `guard_after_delivered` copies, a complaint rate past
//! `complaint_pause_percent` or a hard-bounce rate past `hard_bounce_pause_percent` pauses it until a person
//! resumes it (the rates as [`super::rates`] defines them).

use sqlx::PgConnection;

/// Which rate passed its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tripped {
    Complaints,
    HardBounces,
}

/// Why the guard stops a send: the rate, its value and limit in percent, and the copies it was measured over.
#[derive(Debug, Clone, PartialEq)]
pub struct Trip {
    pub rate: Tripped,
    pub percent: f64,
    pub limit_percent: f64,
    pub delivered: i64,
    pub sent: i64,
}

/// Whether `mailing_id` must pause now. None while fewer than the threshold were delivered, when both rates are
/// within their limits, or when a person resumed the mailing after the guard had paused it.
pub async fn check(conn: &mut PgConnection, mailing_id: i64) -> Result<Option<Trip>, sqlx::Error> {
    let (after, complaint_limit, bounce_limit, overridden): (i32, f64, f64, bool) = sqlx::query_as(
        "select s.guard_after_delivered, s.complaint_pause_percent::float8, s.hard_bounce_pause_percent::float8,
                coalesce((select m.guard = 'overridden' from mailings m where m.id = $1), false)
         from app_settings s",
    )
    .bind(mailing_id)
    .fetch_one(&mut *conn)
    .await?;
    if overridden {
        return Ok(None);
    }
    // The rates' figures for one mailing, as `super::rates::rates` counts them (sent: recipients sent or bounced;
    // hard bounced: bounced; complained: those recipients with a complaint), but from the mailing's rollup rows
    // instead of all its recipient rows: the guard runs after every batch, and reading 100,000 recipients each
    // time made a 100,000-copy send wait 7 of its 18 seconds. Test: deliverability::rates.
    let (sent, hard_bounced, complained): (i64, i64, i64) = sqlx::query_as(
        "select coalesce(sum(r.delivered + r.bounces), 0)::bigint, coalesce(sum(r.bounces), 0)::bigint,
                (select count(distinct e.contact_id)
                 from delivery_events e
                 join mailing_recipients mr on mr.mailing_id = e.mailing_id and mr.contact_id = e.contact_id
                 where e.mailing_id = $1 and e.kind = 'complained' and mr.status in ('sent', 'bounced'))
         from mailing_rollups r where r.mailing_id = $1",
    )
    .bind(mailing_id)
    .fetch_one(&mut *conn)
    .await?;
    let delivered = sent - hard_bounced;
    if delivered < i64::from(after) {
        return Ok(None);
    }
    let percent = |n: i64, of: i64| {
        if of > 0 {
            n as f64 * 100.0 / of as f64
        } else {
            0.0
        }
    };
    let complaints = percent(complained, delivered);
    let hard = percent(hard_bounced, sent);
    let trip = |rate, percent, limit_percent| Trip {
        rate,
        percent,
        limit_percent,
        delivered,
        sent,
    };
    Ok(if complaints > complaint_limit {
        Some(trip(Tripped::Complaints, complaints, complaint_limit))
    } else if hard > bounce_limit {
        Some(trip(Tripped::HardBounces, hard, bounce_limit))
    } else {
        None
    })
}

/// Pauses the mailing for the guard, with `message` shown on it.
pub async fn pause(
    conn: &mut PgConnection,
    mailing_id: i64,
    message: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update mailings set delivery = 'paused', delivery_message = $2, guard = 'tripped' where id = $1",
    )
    .bind(mailing_id)
    .bind(message)
    .execute(conn)
    .await?;
    Ok(())
}
