//! Contribution source codes (refcodes) with their money, and contact origin codes with the value of the people
//! they brought, over a range. Figures follow docs/metrics.md; money is a decimal string with two places.

use super::{Range, DONORS, NET};
use chrono::{DateTime, NaiveDate, Utc};
use sqlx::PgConnection;

const MONEY: &str = "::numeric(20, 2)::text";

/// A code's campaign as people name it: a mailing's refcode carries the mailing's id in the campaign part
/// (`mailing_refcode_pattern`), which reads as the mailing's name. Over the code `s` and its mailing `m`.
const CAMPAIGN: &str =
    "case when m.id is not null and s.campaign = m.id::text then m.name else s.campaign end";
const CAMPAIGN_GROUP: &str = "case when not s.parsed then 'unparsed'
      when m.id is not null and s.campaign = m.id::text then m.name
      else coalesce(s.campaign, 'unparsed') end";

/// A source code with its parsed parts and the money of its gifts in the range.
#[derive(Debug, sqlx::FromRow)]
pub struct SourceCode {
    pub id: i64,
    pub code: String,
    pub parsed: bool,
    pub channel: Option<String>,
    pub code_date: Option<NaiveDate>,
    pub campaign: Option<String>,
    pub variant: Option<String>,
    pub gifts: i64,
    pub donors: i64,
    pub gross: String,
    pub net: String,
    pub average_gift: String,
    pub first_gift: Option<DateTime<Utc>>,
    pub last_gift: Option<DateTime<Utc>>,
    pub mailing_id: Option<i64>,
    pub mailing_name: Option<String>,
    pub form_id: Option<i64>,
    pub form_name: Option<String>,
    /// Gifts in the range that carry this code of a mailing but were paid before the mailing reached the giver.
    pub gifts_before_send: i64,
}

/// Every source code with its figures in the range, most gross first.
pub async fn source_codes(
    conn: &mut PgConnection,
    range: &Range,
) -> Result<Vec<SourceCode>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with a as (
             select c.source_code_id, count(*) filter (where c.amount > 0) as gifts,
                    {DONORS} as donors,
                    coalesce(sum(c.amount) filter (where c.amount > 0), 0) as gross,
                    coalesce(sum({NET}), 0) as net,
                    min(c.paid_at) filter (where c.amount > 0) as first_gift,
                    max(c.paid_at) filter (where c.amount > 0) as last_gift,
                    count(*) filter (where c.amount > 0 and c.attribution <> 'refcode') as not_by_refcode
             from contributions c
             where c.paid_at >= $1 and c.paid_at < $2 and c.source_code_id is not null
             group by c.source_code_id
         )
         select s.id, s.code, s.parsed, s.channel, s.code_date, {CAMPAIGN} as campaign, s.variant,
                coalesce(a.gifts, 0) as gifts, coalesce(a.donors, 0) as donors,
                coalesce(a.gross, 0){MONEY} as gross, coalesce(a.net, 0){MONEY} as net,
                (case when a.gifts > 0 then round(a.gross / a.gifts, 2) else 0 end){MONEY} as average_gift,
                a.first_gift, a.last_gift, s.mailing_id, m.name as mailing_name, s.form_id,
                f.name as form_name,
                -- Attribution applies the refcode rule as gifts are written (and the migration of issue 27 to
                -- those stored before): a gift with a mailing's code not credited by refcode came too early.
                case when s.mailing_id is not null then coalesce(a.not_by_refcode, 0) else 0 end
                    as gifts_before_send
         from source_codes s left join a on a.source_code_id = s.id
         left join mailings m on m.id = s.mailing_id left join forms f on f.id = s.form_id
         order by coalesce(a.gross, 0) desc, s.code"
    )))
    .bind(range.lo)
    .bind(range.hi)
    .fetch_all(conn)
    .await
}

/// How source codes are grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grouping {
    Channel,
    Campaign,
}

/// The source codes of one channel or campaign together (donors counted once across the group's codes).
#[derive(Debug, sqlx::FromRow)]
pub struct Group {
    /// The channel or campaign; "unparsed" for codes that do not fit the pattern.
    pub key: String,
    pub codes: i64,
    pub gifts: i64,
    pub donors: i64,
    pub gross: String,
    pub net: String,
    pub average_gift: String,
}

/// The range's source codes grouped `by`, most gross first.
pub async fn groups(
    conn: &mut PgConnection,
    range: &Range,
    by: Grouping,
) -> Result<Vec<Group>, sqlx::Error> {
    let key = match by {
        Grouping::Channel => {
            "case when s.parsed then coalesce(s.channel, 'unparsed') else 'unparsed' end"
        }
        Grouping::Campaign => CAMPAIGN_GROUP,
    };
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {key} as key, count(distinct s.id) as codes,
                count(*) filter (where c.amount > 0) as gifts,
                {DONORS} as donors,
                coalesce(sum(c.amount) filter (where c.amount > 0), 0){MONEY} as gross,
                coalesce(sum({NET}), 0){MONEY} as net,
                (case when count(*) filter (where c.amount > 0) > 0
                      then round(sum(c.amount) filter (where c.amount > 0)
                                 / count(*) filter (where c.amount > 0), 2)
                      else 0 end){MONEY} as average_gift
         from contributions c join source_codes s on s.id = c.source_code_id
         left join mailings m on m.id = s.mailing_id
         where c.paid_at >= $1 and c.paid_at < $2
         group by 1 order by sum(c.amount) filter (where c.amount > 0) desc nulls last, 1"
    )))
    .bind(range.lo)
    .bind(range.hi)
    .fetch_all(conn)
    .await
}

/// What the people an origin code brought in the range are worth.
#[derive(Debug, sqlx::FromRow)]
pub struct OriginValue {
    pub id: i64,
    pub name: String,
    pub acquired: i64,
    pub still_subscribed: i64,
    pub donors: i64,
    /// donors ÷ acquired
    pub donor_share: f64,
    pub revenue_30: String,
    pub revenue_90: String,
    pub revenue_365: String,
    pub revenue_all: String,
    pub revenue_per_contact: String,
}

/// Per origin code, the contacts it brought in the range and what they gave, most contacts first.
pub async fn origin_values(
    conn: &mut PgConnection,
    range: &Range,
) -> Result<Vec<OriginValue>, sqlx::Error> {
    // A short range reads each new contact's gifts through the contact index (a lateral aggregate): joined,
    // the planner hashed the 3,000,000 gifts of a large client for a month's 25,000 new contacts. A long
    // range has so many new contacts that one pass over the gifts is cheaper (see PROBE_RANGE_DAYS).
    // A window counts gifts paid in [acquired, acquired + N days]; acquired is the contact's earliest known
    // moment (its first gift, first signup or creation), so a donor imported long after giving is acquired at
    // the first gift, not at the import. No gift is paid before it, so a window needs only its upper bound.
    // `acquired` is the column holding that moment.
    let figures = |acquired: &str| {
        let within = |days: i32| {
            format!(
                "coalesce(sum({NET}) filter (where c.paid_at <= {acquired} + interval '{days} days'), 0)"
            )
        };
        format!(
            "bool_or(c.amount > 0) as donor, {} as r30, {} as r90, {} as r365,
             coalesce(sum({NET}), 0) as rall",
            within(30),
            within(90),
            within(365)
        )
    };
    let per = if (range.to - range.from).num_days() < crate::revenue::PROBE_RANGE_DAYS {
        // The first gift comes from the gifts the lateral reads anyway: one index probe per contact, not two.
        format!(
            "select k.origin_code_id, k.subscription = 'subscribed' as subscribed, a.*
             from k cross join lateral (
                 select {figures}
                 from (select g.amount, g.refund_id, g.refunded_at, g.paid_at,
                              least(k.known, min(g.paid_at) over ()) as acquired
                       from contributions g where g.contact_id = k.id) c
             ) a",
            figures = figures("c.acquired")
        )
    } else {
        format!(
            "select k.origin_code_id, k.subscription = 'subscribed' as subscribed, {figures}
             from (select k.*, least(k.known, (select min(g.paid_at) from contributions g
                                               where g.contact_id = k.id)) as acquired
                   from k) k
             left join contributions c on c.contact_id = k.id
             group by k.id, k.origin_code_id, k.subscription",
            figures = figures("k.acquired")
        )
    };
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with k as materialized (
             -- Materialized: inlined, the look-up would run again for each of the contact's gifts.
             select n.id, n.origin_code_id, n.subscription,
                    least(n.created, (select min(e.created) from external_signups e where e.contact_id = n.id))
                        as known
             from contacts n
             where n.created >= $1 and n.created < $2 and n.origin_code_id is not null
         ), per as ({per}), codes as (
             select origin_code_id, count(*) as acquired, count(*) filter (where subscribed) as still_subscribed,
                    count(*) filter (where donor) as donors,
                    sum(r30) as r30, sum(r90) as r90, sum(r365) as r365, sum(rall) as rall
             from per group by origin_code_id
         )
         select o.id, o.name, p.acquired, p.still_subscribed, p.donors,
                p.donors::float8 / p.acquired as donor_share,
                p.r30{MONEY} as revenue_30, p.r90{MONEY} as revenue_90,
                p.r365{MONEY} as revenue_365, p.rall{MONEY} as revenue_all,
                round(p.rall / p.acquired, 2){MONEY} as revenue_per_contact
         from codes p join origin_codes o on o.id = p.origin_code_id
         order by p.acquired desc, o.name"
    )))
    .bind(range.lo)
    .bind(range.hi)
    .fetch_all(conn)
    .await
}

/// Contacts acquired through one origin code in one week (weeks start on Monday, client zone).
#[derive(Debug, sqlx::FromRow)]
pub struct AcquisitionWeek {
    pub week: NaiveDate,
    pub origin_code_id: i64,
    pub origin_code_name: String,
    pub contacts: i64,
}

/// The range's new contacts per week and origin code, by week and then most contacts first.
pub async fn acquisition_weeks(
    conn: &mut PgConnection,
    range: &Range,
) -> Result<Vec<AcquisitionWeek>, sqlx::Error> {
    sqlx::query_as(
        "select date_trunc('week', k.created at time zone $3)::date as week, o.id as origin_code_id,
                o.name as origin_code_name, count(*) as contacts
         from contacts k join origin_codes o on o.id = k.origin_code_id
         where k.created >= $1 and k.created < $2
         group by 1, 2 order by 1, 4 desc, 3",
    )
    .bind(range.lo)
    .bind(range.hi)
    .bind(&range.tz)
    .fetch_all(conn)
    .await
}

/// Every source code as (id, code), by code; at most 10,000.
pub async fn source_code_labels(
    conn: &mut PgConnection,
) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as("select id, code as label from source_codes order by code limit 10000")
        .fetch_all(conn)
        .await
}
