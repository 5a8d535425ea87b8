//! A journey's figures, per step and per week, with the definitions of Performance (docs/metrics.md): a send
//! step's e-mails are a mailing's, so its human opens, clicks, unsubscribes, gifts and revenue are that mailing's.

use chrono::NaiveDate;
use sqlx::PgConnection;

#[derive(Debug, sqlx::FromRow)]
pub struct StepFigures {
    pub step_id: String,
    pub reached: i64,
    pub sent: i64,
    pub human_opens: i64,
    pub clicks: i64,
    pub unsubscribes: i64,
    /// Of the step's mailings, as on their own pages and on Performance (`mailing_email_figures`).
    pub delivered: i64,
    pub gifts: i64,
    pub revenue_cents: i64,
    /// Revenue ÷ delivered × 1,000, rounded to the cent as a mailing's (0 while nothing is delivered).
    pub rpm_cents: i64,
}

#[derive(Debug, sqlx::FromRow)]
pub struct WeekFigures {
    pub week_start: NaiveDate,
    pub entered: i64,
    pub converted: i64,
}

#[derive(Debug, sqlx::FromRow)]
pub struct Totals {
    pub entered: i64,
    pub active: i64,
    pub finished: i64,
    pub converted: i64,
    pub revenue_cents: i64,
}

/// "Converted": the enrolment's contact gave (a positive line) between entering and leaving.
const CONVERTED: &str =
    "exists (select 1 from contributions c where c.contact_id = jc.contact_id and c.amount > 0
     and c.paid_at >= jc.entered_at and c.paid_at <= coalesce(jc.left_at, 'infinity'))";

/// Per step of `version` (every step that was reached, or has a mailing). A send step has one mailing per
/// client day it mails, so its figures add up its mailings; a contact who opens two of them (re-entering after
/// some days) counts once for each.
pub async fn steps(
    conn: &mut PgConnection,
    journey_id: i64,
    version: i32,
) -> Result<Vec<StepFigures>, sqlx::Error> {
    sqlx::query_as(
        "with reached as (
             select step_id, count(*) as reached, count(*) filter (where outcome = 'sent') as sent
             from journey_step_sends where journey_id = $1 and version = $2 group by step_id
         ), mails as (
             select step_id, array_agg(mailing_id) as ids from journey_step_mailings
             where journey_id = $1 and version = $2 group by step_id
         )
         select coalesce(r.step_id, m.step_id) as step_id,
                coalesce(r.reached, 0) as reached, coalesce(r.sent, 0) as sent,
                coalesce(e.human_opens, 0) as human_opens, coalesce(e.clicks, 0) as clicks,
                coalesce(e.unsubscribes, 0) as unsubscribes,
                g.delivered, g.gifts, (g.revenue * 100)::bigint as revenue_cents,
                (case when g.delivered > 0 then round(g.revenue * 1000 / g.delivered, 2) * 100 else 0 end)::bigint
                    as rpm_cents
         from reached r full join mails m on m.step_id = r.step_id
         left join lateral (
             select count(distinct (ev.mailing_id, ev.contact_id))
                        filter (where ev.kind = 'open' and not ev.machine) as human_opens,
                    count(distinct (ev.mailing_id, ev.contact_id))
                        filter (where ev.kind = 'click' and not ev.machine) as clicks,
                    count(*) filter (where ev.kind = 'unsubscribe') as unsubscribes
             from mailing_events ev where ev.mailing_id = any(m.ids)
         ) e on true
         -- Delivered, gifts and revenue by the one definition every mailing page reads (docs/metrics.md).
         cross join lateral (
             select coalesce(sum(f.delivered), 0)::bigint as delivered, coalesce(sum(f.gifts), 0)::bigint as gifts,
                    coalesce(sum(f.revenue), 0) as revenue
             from unnest(coalesce(m.ids, '{}')) x (mailing_id) cross join lateral mailing_email_figures(x.mailing_id) f
         ) g
         order by 1",
    )
    .bind(journey_id)
    .bind(version)
    .fetch_all(conn)
    .await
}

#[derive(Debug, sqlx::FromRow)]
pub struct VariantFigures {
    pub step_id: String,
    /// 'a', 'b' …
    pub variant: String,
    pub recipients: i64,
    pub delivered: i64,
    pub human_opens: i64,
    pub clicks: i64,
    pub gifts: i64,
    pub revenue_cents: i64,
    pub rpm_cents: i64,
}

/// Per send step of `version` and variant: the recipients dealt to it and what they did, from the rollups every
/// mailing page reads (a gift counts for the variant its giver received; RPM per 1,000 delivered, as a mailing's).
pub async fn variants(
    conn: &mut PgConnection,
    journey_id: i64,
    version: i32,
) -> Result<Vec<VariantFigures>, sqlx::Error> {
    sqlx::query_as(
        "with mails as (
             select step_id, mailing_id from journey_step_mailings where journey_id = $1 and version = $2
         ), sends as (
             select m.step_id, r.variant, sum(r.recipients) as recipients, sum(r.delivered) as delivered,
                    sum(r.human_opens) as human_opens, sum(r.clickers) as clicks
             from mails m join mailing_rollups r on r.mailing_id = m.mailing_id group by 1, 2
         ), gifts as (
             select m.step_id, g.variant, sum(g.gifts) as gifts, sum(g.revenue) as revenue
             from mails m join mailing_gift_rollups g on g.mailing_id = m.mailing_id group by 1, 2
         )
         select s.step_id, s.variant, s.recipients::bigint as recipients, s.delivered::bigint as delivered,
                s.human_opens::bigint as human_opens, s.clicks::bigint as clicks,
                coalesce(g.gifts, 0)::bigint as gifts, (coalesce(g.revenue, 0) * 100)::bigint as revenue_cents,
                (case when s.delivered > 0 then round(coalesce(g.revenue, 0) * 1000 / s.delivered, 2) * 100
                      else 0 end)::bigint as rpm_cents
         from sends s left join gifts g on g.step_id = s.step_id and g.variant = s.variant
         order by 1, 2",
    )
    .bind(journey_id)
    .bind(version)
    .fetch_all(conn)
    .await
}

/// Enrolments of `version` by the week (Monday, client's zone) they entered, and how many of them gave.
pub async fn weeks(
    conn: &mut PgConnection,
    journey_id: i64,
    version: i32,
) -> Result<Vec<WeekFigures>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select date_trunc('week', jc.entered_at at time zone s.time_zone)::date as week_start,
                count(*) as entered, count(*) filter (where {CONVERTED}) as converted
         from journey_contacts jc cross join (select time_zone from app_settings limit 1) s
         where jc.journey_id = $1 and jc.version = $2
         group by 1 order by 1"
    )))
    .bind(journey_id)
    .bind(version)
    .fetch_all(conn)
    .await
}

pub async fn totals(
    conn: &mut PgConnection,
    journey_id: i64,
    version: i32,
) -> Result<Totals, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select count(*) as entered, count(*) filter (where jc.state = 'waiting') as active,
                count(*) filter (where jc.state <> 'waiting') as finished,
                count(*) filter (where {CONVERTED}) as converted,
                coalesce((select (sum(f.revenue) * 100)::bigint from journey_step_mailings m
                          cross join lateral mailing_email_figures(m.mailing_id) f
                          where m.journey_id = $1 and m.version = $2), 0) as revenue_cents
         from journey_contacts jc where jc.journey_id = $1 and jc.version = $2"
    )))
    .bind(journey_id)
    .bind(version)
    .fetch_one(conn)
    .await
}
