//! Opens and clicks the tracking links report, written in batches: one statement per batch, each event a row of
//! the column arrays given.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// A test copy's opens and clicks: kept apart, never a mailing's figures.
pub async fn insert_test_events(
    conn: &mut PgConnection,
    mailing_ids: &[i64],
    kinds: &[&str],
    urls: &[Option<&str>],
    at: &[DateTime<Utc>],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into mailing_test_events (mailing_id, kind, url, created)
                 select * from unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[])",
    )
    .bind(mailing_ids)
    .bind(kinds)
    .bind(urls)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// A batch of recipients' events, one per index of the arrays.
pub struct Events<'a> {
    pub mailing_ids: &'a [i64],
    pub contact_ids: &'a [i64],
    pub kinds: &'a [&'a str],
    pub machine: &'a [bool],
    pub urls: &'a [Option<&'a str>],
    pub at: &'a [DateTime<Utc>],
}

/// Writes recipients' events. An open within two seconds of delivery is a scanner's, whatever its user agent
/// says.
pub async fn insert_events(
    conn: &mut PgConnection,
    events: &Events<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into mailing_events (mailing_id, contact_id, kind, machine, url, created)
             select e.mailing_id, e.contact_id, e.kind,
                    e.machine or exists (select 1 from mailing_recipients r
                                         where r.mailing_id = e.mailing_id and r.contact_id = e.contact_id
                                           and r.sent_at > e.at - interval '2 seconds'),
                    e.url, e.at
             from unnest($1::bigint[], $2::bigint[], $3::text[], $4::bool[], $5::text[], $6::timestamptz[])
                  as e (mailing_id, contact_id, kind, machine, url, at)",
    )
    .bind(events.mailing_ids)
    .bind(events.contact_ids)
    .bind(events.kinds)
    .bind(events.machine)
    .bind(events.urls)
    .bind(events.at)
    .execute(conn)
    .await?;
    Ok(())
}
