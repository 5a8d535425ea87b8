//! The dashboard: one function per tile, each one set-based statement, all read in one transaction by the
//! dashboard request. Money figures read the day rollup (`contribution_days`) and first gifts (`donor_firsts`);
//! the docs/dashboard.md section defines each figure. Tiles of other areas (projection pacing, running
//! experiments) are slots the api fills when their data exists.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::PgConnection;

use crate::revenue::DONORS;

/// Today, the month, the fiscal quarter and the fiscal year, each up to today (client zone).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Period {
    pub key: String,
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub net: String,
    pub gross: String,
    pub gifts: i64,
    pub new_donors: i64,
    pub recurring_gross: String,
}

pub async fn revenue_periods(conn: &mut PgConnection) -> Result<Vec<Period>, sqlx::Error> {
    sqlx::query_as::<_, Period>(
        "with t as (select client_today() as today, fiscal_year_start(client_today()) as fy),
         p as (
             select 1 as ord, 'today' as key, t.today as f from t
             union all select 2, 'month', date_trunc('month', t.today)::date from t
             union all
             select 3, 'quarter',
                    (t.fy + ((((extract(year from t.today)::int - extract(year from t.fy)::int) * 12
                               + extract(month from t.today)::int - extract(month from t.fy)::int) / 3) * 3)
                            * interval '1 month')::date
             from t
             union all select 4, 'year', t.fy from t
         )
         select p.key, p.f as \"from\", t.today as \"to\",
                coalesce(d.net, 0)::numeric(20, 2)::text as net, coalesce(d.gross, 0)::numeric(20, 2)::text as gross,
                coalesce(d.gifts, 0)::bigint as gifts,
                coalesce(d.recurring_gross, 0)::numeric(20, 2)::text as recurring_gross,
                (select count(*) from donor_firsts f
                 where f.first_paid_at >= client_day_start(p.f)
                   and f.first_paid_at < client_day_start(t.today + 1)) as new_donors
         from p cross join t
         cross join lateral (
             select sum(x.net) as net, sum(x.gross) as gross, sum(x.gifts) as gifts,
                    sum(x.recurring_gross) as recurring_gross
             from contribution_days x where x.day between p.f and t.today) d
         order by p.ord",
    )
    .fetch_all(conn)
    .await
}

/// Distinct donors with a gift in the client month starting `month` (read from `donor_months`, whose rows
/// with `gifts > 0` are exactly the month's donors by the revenue definition).
pub async fn month_donors(conn: &mut PgConnection, month: NaiveDate) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(*) from donor_months where month = $1 and gifts > 0")
        .bind(month)
        .fetch_one(conn)
        .await
}

/// Active sustainers: donors with a recurring gift, not refunded, in the last 35 days.
pub async fn active_sustainers(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "select {DONORS} from contributions c
         where c.amount > 0 and c.recurring_months is not null
           and c.refund_id is null and c.refunded_at is null
           and c.paid_at >= now() - interval '35 days'"
    )))
    .fetch_one(conn)
    .await
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ListSize {
    /// Contacts whose subscription is `subscribed`: read from the e-mail list rollup (`email_list_days`) as
    /// contacts created minus contacts who left, which today is exactly that count.
    pub subscribed: i64,
    /// Subscribed contacts created in the last 30 days.
    pub joined: i64,
    /// Contacts not subscribed now who unsubscribed in the last 30 days.
    pub left: i64,
}

pub async fn list_size(conn: &mut PgConnection) -> Result<ListSize, sqlx::Error> {
    sqlx::query_as::<_, ListSize>(
        "select (select coalesce(sum(d.joined - d.left_count), 0)::bigint from email_list_days d) as subscribed,
                (select count(*) from contacts
                 where subscription = 'subscribed' and created >= now() - interval '30 days') as joined,
                (select count(distinct e.contact_id) from mailing_events e join contacts k on k.id = e.contact_id
                 where e.kind = 'unsubscribe' and e.created >= now() - interval '30 days'
                   and k.subscription <> 'subscribed') as \"left\"",
    )
    .fetch_one(conn)
    .await
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UpcomingSend {
    pub id: i64,
    pub name: String,
    pub send_time: DateTime<Utc>,
    pub list_name: Option<String>,
}

/// Confirmed mailings not yet started whose send time is within the next 7 days, soonest first.
pub async fn upcoming_sends(conn: &mut PgConnection) -> Result<Vec<UpcomingSend>, sqlx::Error> {
    sqlx::query_as::<_, UpcomingSend>(
        "select m.id, m.name, m.send_time, l.name as list_name
         from mailings m left join crm_lists l on l.id = m.list_id
         where not m.is_draft and m.send_attempt is null
           and m.send_time >= now() and m.send_time < now() + interval '7 days'
         order by m.send_time, m.id limit 20",
    )
    .fetch_all(conn)
    .await
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RecentMailing {
    pub id: i64,
    pub name: String,
    pub sent: DateTime<Utc>,
    pub delivered: i64,
    pub revenue: String,
    pub rpm: String,
}

/// The five mailings whose send started last, with delivered, revenue (net) and RPM by the one definition
/// (`mailing_email_figures`, docs/metrics.md).
pub async fn last_mailings(conn: &mut PgConnection) -> Result<Vec<RecentMailing>, sqlx::Error> {
    sqlx::query_as::<_, RecentMailing>(
        "select m.id, m.name, m.send_attempt as sent, f.delivered, f.revenue::text as revenue, f.rpm::text as rpm
         from (select * from mailings where send_attempt is not null
               order by send_attempt desc, id desc limit 5) m
         cross join lateral mailing_email_figures(m.id) f
         order by m.send_attempt desc, m.id desc",
    )
    .fetch_all(conn)
    .await
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TopCode {
    pub id: i64,
    pub code: String,
    pub gifts: i64,
    pub net: String,
}

/// The five source codes with the most net from the first of the month up to today (client zone).
pub async fn top_source_codes(conn: &mut PgConnection) -> Result<Vec<TopCode>, sqlx::Error> {
    sqlx::query_as::<_, TopCode>(
        "select s.id, s.code, sum(d.gifts)::bigint as gifts, sum(d.net)::numeric(20, 2)::text as net
         from contribution_days d join source_codes s on s.id = d.source_code_id
         where d.day >= date_trunc('month', client_today())::date and d.day <= client_today()
         group by s.id order by sum(d.net) desc, s.code limit 5",
    )
    .fetch_all(conn)
    .await
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StateFigure {
    /// Two-letter postal code as the platform gave it, upper-cased.
    pub state: String,
    pub net: String,
    pub donors: i64,
}

/// Net and donors per donor state in the client month starting `month`, from the month rollup
/// (`donor_state_months`; the docs/metrics.md definitions of net and donors).
pub async fn by_state(
    conn: &mut PgConnection,
    month: NaiveDate,
) -> Result<Vec<StateFigure>, sqlx::Error> {
    sqlx::query_as::<_, StateFigure>(
        "select state, sum(net)::numeric(20, 2)::text as net, count(*) filter (where gifts > 0) as donors
         from donor_state_months where month = $1
         group by state order by state",
    )
    .bind(month)
    .fetch_all(conn)
    .await
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Alert {
    /// bounce-spike, paused-mailing or failed-job
    pub kind: String,
    pub message: String,
    pub link: String,
}

/// A bounce spike (a mailing started in the last 7 days with at least 20 recipients and 5 % or more bounced), a
/// paused mailing, a job that failed in the last 24 hours. `job_owner` (id, kind) keeps only that user's failed
/// jobs; `None` keeps everyone's.
pub async fn alerts(
    conn: &mut PgConnection,
    job_owner: Option<(i64, &str)>,
) -> Result<Vec<Alert>, sqlx::Error> {
    sqlx::query_as::<_, Alert>(
        "select kind, message, link from (
             select 1 as ord, m.send_attempt as at, 'bounce-spike' as kind,
                    format('%s: %s of %s recipients bounced', m.name, r.bounced, r.recipients) as message,
                    '/crm-mailing-detail/' || m.id as link
             from mailings m
             cross join lateral (select coalesce(sum(x.recipients), 0) as recipients,
                                        coalesce(sum(x.bounces), 0) as bounced
                                 from mailing_rollups x where x.mailing_id = m.id) r
             where m.send_attempt >= now() - interval '7 days'
               and r.recipients >= 20 and r.bounced * 20 >= r.recipients
             union all
             select 2, m.updated, 'paused-mailing',
                    format('%s is paused: %s', m.name, coalesce(m.delivery_message, 'sending stopped')),
                    '/crm-mailing-detail/' || m.id
             from mailings m where m.delivery = 'paused'
             union all
             select 3, j.updated, 'failed-job', format('%s failed: %s', j.label, coalesce(j.error, 'no reason given')),
                    '/jobs'
             from jobs j where j.status = 'done' and j.success = false and j.updated >= now() - interval '24 hours'
               and ($1::bigint is null or (j.user_id = $1 and j.user_kind = $2))
         ) a
         order by ord, at desc limit 20",
    )
    .bind(job_owner.map(|o| o.0))
    .bind(job_owner.map(|o| o.1))
    .fetch_all(conn)
    .await
}

/// The client's today and its time zone.
pub async fn today(conn: &mut PgConnection) -> Result<(NaiveDate, String), sqlx::Error> {
    sqlx::query_as("select client_today(), time_zone from app_settings")
        .fetch_one(conn)
        .await
}
