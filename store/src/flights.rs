//! Flights: a flight is one dated send of a mailing (its send attempt's day in the client's time zone), with its
//! variants, to its audience segment (or list). Figures come from `mailing_rollups`, which the send recorder and
//! the event writer keep up to date by trigger in their own transactions; gifts and revenue from
//! `mailing_gift_rollups`, which the contributions attributed to the mailing (`contributions.mailing_id`) keep, each
//! gift credited to the giver's variant and segment (a giver who was not a recipient: variant A, the mailing's
//! segment).
//!
//! Definitions (docs/metrics.md):
//! - recipients: rows frozen for the send; delivered: accepted by the receiving server and not bounced;
//! - human opens: people who opened at least once (machine opens, by proxies and scanners, apart);
//! - open rate = human opens ÷ recipients; click rate = clickers ÷ delivered;
//! - gifts: attributed lines with a positive amount; revenue: their net (a refunded gift counts 0, a refund line
//!   takes its amount away); average gift = revenue ÷ gifts; response rate = gifts ÷ delivered;
//!   RPM = revenue ÷ delivered × 1000. A rate with a zero denominator is 0.
//!
//! The range's flights are `email_revenue_mailings` (docs/metrics.md › "E-mail revenue and RPM in a
//! period"), so the range's total revenue and RPM are that period's e-mail revenue and RPM.

use chrono::NaiveDate;
use sqlx::PgConnection;

use crate::revenue::NET;

/// One variant × segment row of a flight; a flight's total has `variant` None, the range's total also
/// `mailing_id` None.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FlightRow {
    pub mailing_id: Option<i64>,
    pub name: Option<String>,
    pub day: Option<NaiveDate>,
    pub variant: Option<String>,
    pub segment_id: Option<i64>,
    pub segment_name: Option<String>,
    pub recipients: i64,
    pub delivered: i64,
    pub bounces: i64,
    pub human_opens: i64,
    pub machine_opens: i64,
    pub open_rate: f64,
    pub clickers: i64,
    pub clicks: i64,
    pub click_rate: f64,
    pub unsubscribes: i64,
    pub gifts: i64,
    pub revenue: String,
    pub average_gift: String,
    pub response_rate: f64,
    pub rpm: String,
}

/// The figures of one mailing × variant × segment, as sums (rollups or recount).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Counts {
    pub mailing_id: i64,
    pub variant: String,
    pub segment_id: i64,
    pub recipients: i64,
    pub delivered: i64,
    pub bounces: i64,
    pub human_opens: i64,
    pub machine_opens: i64,
    pub clickers: i64,
    pub clicks: i64,
    pub unsubscribes: i64,
    pub gifts: i64,
    pub revenue: String,
}

/// Flights sent from `from` to `to` (client days, inclusive): their variant × segment rows, each flight's total
/// and the range's total, newest flight first.
pub async fn flights(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
    mailing_id: Option<i64>,
) -> Result<Vec<FlightRow>, sqlx::Error> {
    sqlx::query_as(
        "with f as (
             select m.id, m.name, e.day, m.segment_id, m.list_id
             from email_revenue_mailings($1, $2) e join mailings m on m.id = e.mailing_id
             where $3::bigint is null or m.id = $3),
         ro as (
             select r.mailing_id, r.variant, r.segment_id, sum(r.recipients) as recipients,
                    sum(r.delivered) as delivered, sum(r.bounces) as bounces, sum(r.human_opens) as human_opens,
                    sum(r.machine_opens) as machine_opens, sum(r.clickers) as clickers, sum(r.clicks) as clicks,
                    sum(r.unsubscribes) as unsubscribes
             from mailing_rollups r join f on f.id = r.mailing_id
             group by 1, 2, 3),
         g as (
             select g.mailing_id, g.variant, g.segment_id, g.gifts, g.revenue
             from mailing_gift_rollups g join f on f.id = g.mailing_id
             where g.gifts <> 0 or g.revenue <> 0),
         k as (
             select coalesce(ro.mailing_id, g.mailing_id) as mailing_id, coalesce(ro.variant, g.variant) as variant,
                    coalesce(ro.segment_id, g.segment_id) as segment_id,
                    coalesce(ro.recipients, 0) as recipients, coalesce(ro.delivered, 0) as delivered,
                    coalesce(ro.bounces, 0) as bounces, coalesce(ro.human_opens, 0) as human_opens,
                    coalesce(ro.machine_opens, 0) as machine_opens, coalesce(ro.clickers, 0) as clickers,
                    coalesce(ro.clicks, 0) as clicks, coalesce(ro.unsubscribes, 0) as unsubscribes,
                    coalesce(g.gifts, 0) as gifts, coalesce(g.revenue, 0) as revenue
             from ro full join g on g.mailing_id = ro.mailing_id and g.variant = ro.variant
                                and g.segment_id = ro.segment_id),
         -- The grand total (the empty grouping set) exists even when no flight does: sums of nothing are 0.
         s as (
             select k.mailing_id, k.variant, k.segment_id,
                    coalesce(sum(k.recipients), 0)::bigint as recipients, coalesce(sum(k.delivered), 0)::bigint as delivered,
                    coalesce(sum(k.bounces), 0)::bigint as bounces, coalesce(sum(k.human_opens), 0)::bigint as human_opens,
                    coalesce(sum(k.machine_opens), 0)::bigint as machine_opens, coalesce(sum(k.clickers), 0)::bigint as clickers,
                    coalesce(sum(k.clicks), 0)::bigint as clicks, coalesce(sum(k.unsubscribes), 0)::bigint as unsubscribes,
                    coalesce(sum(k.gifts), 0)::bigint as gifts, coalesce(sum(k.revenue), 0) as revenue
             from k
             group by grouping sets ((k.mailing_id, k.variant, k.segment_id), (k.mailing_id), ()))
         select s.mailing_id, f.name, f.day, upper(s.variant) as variant, s.segment_id,
                case when s.variant is null then null
                     when s.segment_id = 0 then 'List: ' || coalesce(l.name, '(deleted)')
                     else coalesce(sg.name, '(deleted segment)') end as segment_name,
                s.recipients, s.delivered, s.bounces, s.human_opens, s.machine_opens,
                case when s.recipients > 0 then s.human_opens::float8 / s.recipients else 0 end as open_rate,
                s.clickers, s.clicks,
                case when s.delivered > 0 then s.clickers::float8 / s.delivered else 0 end as click_rate,
                s.unsubscribes, s.gifts, s.revenue::numeric(20, 2)::text as revenue,
                (case when s.gifts > 0 then round(s.revenue / s.gifts, 2) else 0 end)::numeric(20, 2)::text
                    as average_gift,
                case when s.delivered > 0 then s.gifts::float8 / s.delivered else 0 end as response_rate,
                (case when s.delivered > 0 then round(s.revenue * 1000 / s.delivered, 2) else 0 end)
                    ::numeric(20, 2)::text as rpm
         from s left join f on f.id = s.mailing_id
         left join crm_lists l on l.id = f.list_id
         left join segments sg on sg.id = s.segment_id
         order by f.day desc nulls last, f.id desc nulls last, s.variant nulls last, s.segment_id nulls last",
    )
    .bind(from)
    .bind(to)
    .bind(mailing_id)
    .fetch_all(conn)
    .await
}

/// The rollups of `mailing_id`, summed over days, with its gift rollup.
pub async fn rollup_counts(
    conn: &mut PgConnection,
    mailing_id: i64,
) -> Result<Vec<Counts>, sqlx::Error> {
    sqlx::query_as(
        "with r as (
             select mailing_id, variant, segment_id, sum(recipients)::bigint as recipients,
                    sum(delivered)::bigint as delivered, sum(bounces)::bigint as bounces,
                    sum(human_opens)::bigint as human_opens, sum(machine_opens)::bigint as machine_opens,
                    sum(clickers)::bigint as clickers, sum(clicks)::bigint as clicks,
                    sum(unsubscribes)::bigint as unsubscribes
             from mailing_rollups where mailing_id = $1
             group by 1, 2, 3
             having sum(recipients) <> 0 or sum(human_opens) <> 0 or sum(machine_opens) <> 0 or sum(clicks) <> 0
                 or sum(unsubscribes) <> 0),
         g as (
             select mailing_id, variant, segment_id, gifts, revenue from mailing_gift_rollups
             where mailing_id = $1 and (gifts <> 0 or revenue <> 0))
         select mailing_id, variant, segment_id, coalesce(r.recipients, 0) as recipients,
                coalesce(r.delivered, 0) as delivered, coalesce(r.bounces, 0) as bounces,
                coalesce(r.human_opens, 0) as human_opens, coalesce(r.machine_opens, 0) as machine_opens,
                coalesce(r.clickers, 0) as clickers, coalesce(r.clicks, 0) as clicks,
                coalesce(r.unsubscribes, 0) as unsubscribes, coalesce(g.gifts, 0) as gifts,
                coalesce(g.revenue, 0)::numeric(20, 2)::text as revenue
         from r full join g using (mailing_id, variant, segment_id)
         order by 2, 3",
    )
    .bind(mailing_id)
    .fetch_all(conn)
    .await
}

/// The same figures counted from the recipients, events and gifts themselves.
pub async fn recount(conn: &mut PgConnection, mailing_id: i64) -> Result<Vec<Counts>, sqlx::Error> {
    let sql = format!(
        "with e as (
             select e.mailing_id, coalesce(r.variant, 'a') as variant, coalesce(r.segment_id, 0) as segment_id,
                    count(distinct e.contact_id) filter (where e.kind = 'open' and not e.machine) as human_opens,
                    count(*) filter (where e.kind = 'open' and e.machine) as machine_opens,
                    count(distinct e.contact_id) filter (where e.kind = 'click' and not e.machine) as clickers,
                    count(*) filter (where e.kind = 'click' and not e.machine) as clicks,
                    count(*) filter (where e.kind = 'unsubscribe') as unsubscribes
             from mailing_events e
             left join mailing_recipients r on r.mailing_id = e.mailing_id and r.contact_id = e.contact_id
             where e.mailing_id = $1 group by 1, 2, 3),
         r as (
             select mailing_id, variant, segment_id, count(*) as recipients,
                    count(*) filter (where status = 'sent') as delivered,
                    count(*) filter (where status = 'bounced') as bounces
             from mailing_recipients where mailing_id = $1 group by 1, 2, 3),
         g as (
             select c.mailing_id, coalesce(r.variant, 'a') as variant,
                    coalesce(r.segment_id, m.segment_id, 0) as segment_id,
                    count(*) filter (where c.amount > 0) as gifts, sum({NET}) as revenue
             from contributions c join mailings m on m.id = c.mailing_id
             left join mailing_recipients r on r.mailing_id = c.mailing_id and r.contact_id = c.contact_id
             where c.mailing_id = $1 group by 1, 2, 3
             having count(*) filter (where c.amount > 0) <> 0 or sum({NET}) <> 0),
         k as (
             select coalesce(r.mailing_id, e.mailing_id) as mailing_id, coalesce(r.variant, e.variant) as variant,
                    coalesce(r.segment_id, e.segment_id) as segment_id,
                    coalesce(r.recipients, 0) as recipients, coalesce(r.delivered, 0) as delivered,
                    coalesce(r.bounces, 0) as bounces, coalesce(e.human_opens, 0) as human_opens,
                    coalesce(e.machine_opens, 0) as machine_opens, coalesce(e.clickers, 0) as clickers,
                    coalesce(e.clicks, 0) as clicks, coalesce(e.unsubscribes, 0) as unsubscribes
             from r full join e using (mailing_id, variant, segment_id))
         select mailing_id, variant, segment_id, coalesce(k.recipients, 0) as recipients,
                coalesce(k.delivered, 0) as delivered, coalesce(k.bounces, 0) as bounces,
                coalesce(k.human_opens, 0) as human_opens, coalesce(k.machine_opens, 0) as machine_opens,
                coalesce(k.clickers, 0) as clickers, coalesce(k.clicks, 0) as clicks,
                coalesce(k.unsubscribes, 0) as unsubscribes, coalesce(g.gifts, 0) as gifts,
                coalesce(g.revenue, 0)::numeric(20, 2)::text as revenue
         from k full join g using (mailing_id, variant, segment_id)
         order by 2, 3"
    );
    sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(mailing_id)
        .fetch_all(conn)
        .await
}

/// Human clicks per link of a mailing: the link, clicks and people who clicked it, most clicked first.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LinkClicks {
    pub url: String,
    pub clicks: i64,
    pub clickers: i64,
}

pub async fn link_clicks(
    conn: &mut PgConnection,
    mailing_id: i64,
) -> Result<Vec<LinkClicks>, sqlx::Error> {
    sqlx::query_as(
        "select coalesce(url, '') as url, count(*) as clicks, count(distinct contact_id) as clickers
         from mailing_events where mailing_id = $1 and kind = 'click' and not machine
         group by 1 order by 2 desc, 1 limit 500",
    )
    .bind(mailing_id)
    .fetch_all(conn)
    .await
}

/// Human opens and clicks per hour over the first 48 hours after the send started (hour 0 to 47).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct HourCounts {
    pub hour: i32,
    pub opens: i64,
    pub clicks: i64,
}

pub async fn first_48_hours(
    conn: &mut PgConnection,
    mailing_id: i64,
) -> Result<Vec<HourCounts>, sqlx::Error> {
    sqlx::query_as(
        "select h.hour, coalesce(x.opens, 0) as opens, coalesce(x.clicks, 0) as clicks
         from generate_series(0, 47) as h (hour)
         left join (
             select floor(extract(epoch from e.created - m.send_attempt) / 3600)::int as hour,
                    count(*) filter (where e.kind = 'open') as opens,
                    count(*) filter (where e.kind = 'click') as clicks
             from mailings m join mailing_events e on e.mailing_id = m.id
             where m.id = $1 and not e.machine and e.created >= m.send_attempt
               and e.created < m.send_attempt + interval '48 hours'
             group by 1) x on x.hour = h.hour
         where exists (select 1 from mailings m where m.id = $1 and m.send_attempt is not null)
         order by 1",
    )
    .bind(mailing_id)
    .fetch_all(conn)
    .await
}

/// Names of sent mailings (flights), newest first, for selection lists.
pub async fn flight_names(conn: &mut PgConnection) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(
        "select id, name from mailings where send_attempt is not null order by send_attempt desc, id desc limit 1000",
    )
    .fetch_all(conn)
    .await
}

/// The client's today.
pub async fn today(conn: &mut PgConnection) -> Result<NaiveDate, sqlx::Error> {
    sqlx::query_scalar("select client_today()")
        .fetch_one(conn)
        .await
}

/// The zone the flights' days are counted in (New York until the client sets one).
pub async fn time_zone(conn: &mut PgConnection) -> Result<String, sqlx::Error> {
    sqlx::query_scalar(
        "select coalesce((select time_zone from app_settings limit 1), 'America/New_York')",
    )
    .fetch_one(conn)
    .await
}

/// Whether the mailing `id` was sent; None when there is no such mailing.
pub async fn is_sent(conn: &mut PgConnection, id: i64) -> Result<Option<bool>, sqlx::Error> {
    sqlx::query_scalar("select send_attempt is not null from mailings where id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await
}
