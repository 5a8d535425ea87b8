//! The list figures of E-mail Analytics (subscribed, new subscribers, active) and their full recount.
//!
//! For a period ending on client day L (docs/email-analytics.md):
//! - **new subscribers** = contacts created on a client day of the period;
//! - **subscribed** = contacts created by the end of L − contacts not subscribed today whose leaving was by then,
//!   leaving being their first unsubscribe event, else the send time of their first bounce, else their creation;
//! - **active** = existing contacts with a human (not machine) open or click in the 90 client days L − 89 … L who
//!   had not left by the end of L. (The former query started the window at the end of L minus 90 days of the
//!   session's zone, UTC: an hour off whole client days when summer time changed within the window.)
//!
//! The page reads them as running sums over `email_list_days` (migration 20261126001000, kept by triggers on
//! contacts, mailing_events, mailing_recipients, mailings and app_settings); [`list_differences`] holds the full
//! recount over the facts that the rollup must equal.

use chrono::NaiveDate;
use sqlx::PgConnection;

/// The days from `from` to `to` (both included) whose figures — subscribed and active at the end of the day,
/// contacts created that day — differ between the rollup and a full recount (0 when the rollup is exact).
pub async fn list_differences(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "with days as (
             select g::date as day, client_day_start(g::date) as lo, client_day_start(g::date + 1) as hi
             from generate_series($1::date, $2::date, interval '1 day') g
         ),
         leavers as materialized (
             select coalesce(least((select min(e.created) from mailing_events e
                                    where e.kind = 'unsubscribe' and e.contact_id = c.id),
                                   (select min(coalesce(r.sent_at, m.send_attempt, m.send_time, m.created))
                                    from mailing_recipients r join mailings m on m.id = r.mailing_id
                                    where r.contact_id = c.id and r.status = 'bounced')),
                             c.created) as left_at
                    , c.id
             from contacts c where c.subscription <> 'subscribed'
         ),
         recount as (
             select d.day,
                    (select count(*) from contacts c where c.created < d.hi)
                      - (select count(*) from leavers l where l.left_at < d.hi) as subscribed,
                    (select count(*) from contacts c where c.created >= d.lo and c.created < d.hi) as joined,
                    (select count(distinct e.contact_id) from mailing_events e
                     where e.kind in ('open', 'click') and not e.machine
                       and e.created >= client_day_start(d.day - 89) and e.created < d.hi
                       and exists (select 1 from contacts c where c.id = e.contact_id)
                       and not exists (select 1 from leavers l where l.id = e.contact_id and l.left_at < d.hi))
                      as active
             from days d
         ),
         rollup as (
             select d.day,
                    (select coalesce(sum(x.joined - x.left_count), 0) from email_list_days x where x.day <= d.day)
                      ::bigint as subscribed,
                    (select coalesce(sum(x.joined), 0) from email_list_days x where x.day = d.day)::bigint
                      as joined,
                    (select coalesce(sum(x.active), 0) from email_list_days x where x.day <= d.day)::bigint
                      as active
             from days d
         )
         select count(*) from ((select * from recount except select * from rollup)
                               union all (select * from rollup except select * from recount)) z",
    )
    .bind(from)
    .bind(to)
    .fetch_one(conn)
    .await
}
