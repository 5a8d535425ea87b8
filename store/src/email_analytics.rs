//! Programme analytics (Email › E-mail Analytics): send figures read from the rollup `email_stat_days` (kept by
//! triggers on mailing_recipients and mailing_events), external mailings, e-mail revenue and RPM (`email_revenue`,
//! the one definition: by send date, docs/metrics.md) plus external mailings', and the list's size. Every figure is defined in the docs/email-analytics.md; days are the client's. The list figures
//! (subscribed, new subscribers, active) come from the rollup `email_list_days` (module `list`).

mod list;
pub use list::list_differences;

use chrono::NaiveDate;
use sqlx::PgConnection;

/// `week` (ISO weeks from Monday) or `month`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grain {
    Week,
    Month,
}

impl Grain {
    fn sql(self) -> &'static str {
        match self {
            Grain::Week => "week",
            Grain::Month => "month",
        }
    }
}

/// One period's figures (or the whole range's). Rates are decimal strings with four places (null when the
/// denominator is zero); money has two.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Period {
    /// First day of the period (clipped to the range).
    pub start: NaiveDate,
    /// Last day of the period (clipped to the range).
    pub last: NaiveDate,
    pub subscribed: i64,
    pub new_subscribers: i64,
    pub unsubscribes: i64,
    pub bounces: i64,
    pub active: i64,
    pub active_rate: Option<String>,
    pub sent: i64,
    pub delivered: i64,
    pub delivery_rate: Option<String>,
    pub bounce_rate: Option<String>,
    pub opened: i64,
    pub open_rate: Option<String>,
    pub clicked: i64,
    pub click_rate: Option<String>,
    pub revenue: String,
    pub rpm: Option<String>,
}

/// The send figures of one cell of a split (hour × weekday, or provider).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Cell {
    /// ISO weekday 1 (Monday) – 7, or 0 in the provider split.
    pub weekday: i16,
    /// Send hour 0–23 in the client's zone, or 0 in the provider split.
    pub send_hour: i16,
    /// gmail, yahoo, outlook, other; empty in the heat map.
    pub provider: String,
    pub sent: i64,
    pub delivered: i64,
    pub bounced: i64,
    pub opened: i64,
    pub clicked: i64,
    pub unsubscribed: i64,
    pub delivery_rate: Option<String>,
    pub bounce_rate: Option<String>,
    pub open_rate: Option<String>,
    pub click_rate: Option<String>,
}

/// `n ÷ d` with four decimals, null when `d` is 0.
macro_rules! rate {
    ($n:literal, $d:literal) => {
        concat!(
            "case when ",
            $d,
            " > 0 then round(",
            $n,
            "::numeric / ",
            $d,
            ", 4)::text end"
        )
    };
}

/// The figures of each period from `from` to `to` (both included), and with `whole` the range as one period.
pub async fn periods(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
    grain: Grain,
    whole: bool,
) -> Result<Vec<Period>, sqlx::Error> {
    let sql = concat!(
        "with p as (
             select greatest(g::date, $1) as start,
                    least((g + ('1 ' || $3)::interval)::date - 1, $2) as last
             from generate_series(date_trunc($3, $1::timestamp), $2::timestamp, ('1 ' || $3)::interval) g
             where not $4
             union all select $1, $2 where $4
         ),
         r as (
             select p.start, sum(d.sent) as sent, sum(d.delivered) as delivered, sum(d.bounced) as bounced,
                    sum(d.opened) as opened, sum(d.clicked) as clicked, sum(d.unsubscribed) as unsubscribed
             from p join email_stat_days d on d.day between p.start and p.last
             group by p.start
         ),
         x as (
             select p.start, sum(e.recipients) as sent, sum(e.delivered) as delivered, sum(e.bounces) as bounced,
                    sum(e.opens) as opened, sum(e.clicks) as clicked, sum(e.unsubscribes) as unsubscribed,
                    sum(e.revenue) as revenue
             from p join external_mailings e on e.sent_on between p.start and p.last
             group by p.start
         ),
         f as (select p.start, p.last from p),
         t as (
             select f.start, f.last,
                    (select coalesce(sum(d.joined - d.left_count), 0) from email_list_days d where d.day <= f.last)
                      ::bigint as subscribed,
                    (select coalesce(sum(d.joined), 0) from email_list_days d
                     where d.day between f.start and f.last)::bigint as new_subscribers,
                    (select coalesce(sum(d.active), 0) from email_list_days d where d.day <= f.last)::bigint
                      as active,
                    e.revenue as own_revenue, e.delivered as own_delivered,
                    coalesce(r.sent, 0) + coalesce(x.sent, 0) as sent,
                    coalesce(r.delivered, 0) + coalesce(x.delivered, 0) as delivered,
                    coalesce(r.bounced, 0) + coalesce(x.bounced, 0) as bounces,
                    coalesce(r.opened, 0) + coalesce(x.opened, 0) as opened,
                    coalesce(r.clicked, 0) + coalesce(x.clicked, 0) as clicked,
                    coalesce(r.unsubscribed, 0) + coalesce(x.unsubscribed, 0) as unsubscribes,
                    coalesce(x.revenue, 0) as external_revenue, coalesce(x.delivered, 0) as external_delivered
             from f cross join lateral email_revenue(f.start, f.last) e
             left join r using (start) left join x using (start)
         )
         select start, last, subscribed, new_subscribers, unsubscribes::bigint, bounces::bigint,
                active, ",
        rate!("active", "subscribed"),
        " as active_rate, sent::bigint, delivered::bigint, ",
        rate!("delivered", "sent"),
        " as delivery_rate, ",
        rate!("bounces", "sent"),
        " as bounce_rate, opened::bigint, ",
        rate!("opened", "delivered"),
        " as open_rate, clicked::bigint, ",
        rate!("clicked", "delivered"),
        " as click_rate,
                (own_revenue + external_revenue)::numeric(20, 2)::text as revenue,
                case when own_delivered + external_delivered > 0
                     then round((own_revenue + external_revenue) * 1000 / (own_delivered + external_delivered), 2)
                            ::text end as rpm
         from t order by start"
    );
    sqlx::query_as(sql)
        .bind(from)
        .bind(to)
        .bind(grain.sql())
        .bind(whole)
        .fetch_all(conn)
        .await
}

const CELL_SELECT: &str = concat!(
    "sent, delivered, bounced, opened, clicked, unsubscribed, ",
    rate!("delivered", "sent"),
    " as delivery_rate, ",
    rate!("bounced", "sent"),
    " as bounce_rate, ",
    rate!("opened", "delivered"),
    " as open_rate, ",
    rate!("clicked", "delivered"),
    " as click_rate"
);

/// Send figures by send hour × weekday (client zone) of Compass's own sends in the range.
pub async fn heat_map(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<Cell>, sqlx::Error> {
    let sql = format!(
        "select weekday, send_hour, '' as provider, {CELL_SELECT}
         from (select weekday, send_hour, sum(sent)::bigint as sent, sum(delivered)::bigint as delivered,
                      sum(bounced)::bigint as bounced, sum(opened)::bigint as opened,
                      sum(clicked)::bigint as clicked, sum(unsubscribed)::bigint as unsubscribed
               from email_stat_days where day between $1 and $2 group by 1, 2) s
         order by 1, 2"
    );
    sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(from)
        .bind(to)
        .fetch_all(conn)
        .await
}

/// Send figures by recipient mailbox provider of Compass's own sends in the range (all four, zeros included).
pub async fn providers(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<Cell>, sqlx::Error> {
    let sql = format!(
        "select 0::smallint as weekday, 0::smallint as send_hour, provider, {CELL_SELECT}
         from (select k.provider, coalesce(sum(d.sent), 0)::bigint as sent,
                      coalesce(sum(d.delivered), 0)::bigint as delivered,
                      coalesce(sum(d.bounced), 0)::bigint as bounced, coalesce(sum(d.opened), 0)::bigint as opened,
                      coalesce(sum(d.clicked), 0)::bigint as clicked,
                      coalesce(sum(d.unsubscribed), 0)::bigint as unsubscribed, min(k.o) as o
               from (values ('gmail', 1), ('yahoo', 2), ('outlook', 3), ('other', 4)) k (provider, o)
               left join email_stat_days d on d.provider = k.provider and d.day between $1 and $2
               group by k.provider) s
         order by o"
    );
    sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(from)
        .bind(to)
        .fetch_all(conn)
        .await
}

/// The rollup's rows that differ from a full recount of mailing_recipients (none when the rollup is exact).
pub async fn rollup_differences(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "with recount as (
             select (t.at at time zone s.time_zone)::date as day,
                    extract(hour from t.at at time zone s.time_zone)::smallint as send_hour,
                    extract(isodow from t.at at time zone s.time_zone)::smallint as weekday,
                    email_provider(t.email) as provider,
                    count(*) as sent, count(*) filter (where t.status = 'sent') as delivered,
                    count(*) filter (where t.status = 'bounced') as bounced,
                    count(*) filter (where t.human_open) as opened,
                    count(*) filter (where t.human_click) as clicked,
                    count(*) filter (where t.unsubscribed) as unsubscribed
             from (select r.*, coalesce(r.sent_at, m.send_attempt, m.send_time, m.created) as at
                   from mailing_recipients r join mailings m on m.id = r.mailing_id
                   where r.status in ('sent', 'bounced')) t
             cross join app_settings s
             group by 1, 2, 3, 4
         ),
         kept as (
             select day, send_hour, weekday, provider, sent, delivered, bounced, opened, clicked, unsubscribed
             from email_stat_days
             where (sent, delivered, bounced, opened, clicked, unsubscribed) <> (0, 0, 0, 0, 0, 0)
         )
         select count(*) from ((select * from recount except select * from kept)
                               union all (select * from kept except select * from recount)) d",
    )
    .fetch_one(conn)
    .await
}
