//! The media table's figures and the spend-versus-revenue series.

use super::*;

/// One row of the media table; money and ratios are decimal text, `None` where the divisor is zero.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct MediaRow {
    pub id: i64,
    pub name: String,
    pub campaign: Option<String>,
    pub ad_group: Option<String>,
    pub platform: Option<String>,
    pub spend: String,
    pub impressions: i64,
    pub clicks: i64,
    pub conversions: String,
    pub cpm: Option<String>,
    pub cpc: Option<String>,
    pub ctr: Option<String>,
    pub new_contacts: i64,
    pub cpl: Option<String>,
    pub new_donors: i64,
    pub cost_per_donor: Option<String>,
    pub revenue_0: String,
    pub revenue_30: String,
    pub revenue_90: String,
    pub revenue_365: String,
    pub roas_0: Option<String>,
    pub roas_30: Option<String>,
    pub roas_90: Option<String>,
    pub roas_365: Option<String>,
}

/// The media figures per `level` for the client days `from`–`to`, optionally inside one campaign. Definitions
/// (docs/media.md): a person is *touched* by an ad when they sign up through one of its origin codes (touch =
/// the contact's creation) or give through one of its refcodes (touch = the gift) within the range; revenue at N
/// days is the net of all their gifts from their first touch's day to N days after it.
pub async fn performance(
    conn: &mut PgConnection,
    level: Level,
    from: NaiveDate,
    to: NaiveDate,
    campaign_id: Option<i64>,
) -> Result<Vec<MediaRow>, sqlx::Error> {
    figures(conn, level, false, from, to, campaign_id).await
}

/// [`performance`]'s rows at `level` and the total row (`None` when nothing was spent or touched), in one
/// statement: the touches and their people are read once for both.
pub async fn performance_with_total(
    conn: &mut PgConnection,
    level: Level,
    from: NaiveDate,
    to: NaiveDate,
    campaign_id: Option<i64>,
) -> Result<(Vec<MediaRow>, Option<MediaRow>), sqlx::Error> {
    if level == Level::Total {
        let total = figures(conn, level, false, from, to, campaign_id).await?;
        return Ok((Vec::new(), total.into_iter().next()));
    }
    let mut rows = figures(conn, level, true, from, to, campaign_id).await?;
    // The total is node 0 (no campaign, group or ad has id 0), sorted first.
    let total = match rows.first() {
        Some(row) if row.id == TOTAL_NODE => Some(rows.remove(0)),
        _ => None,
    };
    Ok((rows, total))
}

/// The node id the total row carries when it comes with the rows of a level.
const TOTAL_NODE: i64 = 0;

async fn figures(
    conn: &mut PgConnection,
    level: Level,
    with_total: bool,
    from: NaiveDate,
    to: NaiveDate,
    campaign_id: Option<i64>,
) -> Result<Vec<MediaRow>, sqlx::Error> {
    let (name, campaign, group, platform) = match level {
        Level::Campaign => ("c.name", "null::text", "null::text", "c.platform"),
        Level::Group => ("g.name", "c.name", "null::text", "c.platform"),
        Level::Ad => ("a.name", "c.name", "g.name", "c.platform"),
        Level::Total => ("'Total'::text", "null::text", "null::text", "null::text"),
    };
    let sql = format!(
        "with s as (select time_zone as tz from app_settings limit 1),
         level_nodes as (
             select a.id as ad_id, {node} as node_id
             from ads a join ad_groups g on g.id = a.group_id join ad_campaigns c on c.id = g.campaign_id
             where ($3::bigint is null or c.id = $3)
         ),
         nodes as (
             select ad_id, node_id from level_nodes
             union all
             select ad_id, {TOTAL_NODE}::bigint from level_nodes where {with_total}
         ),
         delivery as (
             select n.node_id, sum(d.spend) as spend, sum(d.impressions)::bigint as impressions,
                    sum(d.clicks)::bigint as clicks, sum(d.conversions) as conversions
             from ad_days d join nodes n on n.ad_id = d.ad_id
             where d.day between $1 and $2
             group by 1
         ),
         touches as (
             select n.node_id, true as signup, k.id as contact_id, null::text as email, k.created as touch_at
             from ad_origin_codes o
             join nodes n on n.ad_id = o.ad_id
             join contacts k on k.origin_code_id = o.origin_code_id
             cross join s
             where k.created >= $1::timestamp at time zone s.tz and k.created < ($2 + 1)::timestamp at time zone s.tz
             union all
             select n.node_id, false, c.contact_id, case when c.contact_id is null then c.email end, c.paid_at
             from ad_refcodes r
             join nodes n on n.ad_id = r.ad_id
             join source_codes sc on sc.code = r.refcode
             join contributions c on c.source_code_id = sc.id
             cross join s
             where c.paid_at >= $1::timestamp at time zone s.tz and c.paid_at < ($2 + 1)::timestamp at time zone s.tz
               and c.amount > 0 and (c.contact_id is not null or c.email is not null)
         ),
         people as (
             select t.node_id, t.contact_id, t.email, bool_or(t.signup) as signup,
                    (min(t.touch_at) at time zone s.tz)::date as touch_day,
                    coalesce(t.contact_id::text, 'e:' || t.email) as donor
             from touches t cross join s
             group by t.node_id, t.contact_id, t.email, s.tz
         ),
         gifts as (
             select p.node_id, p.touch_day, (c.paid_at at time zone s.tz)::date as gift_day,
                    case when c.amount > 0 and (c.refund_id is not null or c.refunded_at is not null)
                         then 0 else c.amount end as net
             from people p cross join s
             join contributions c on c.contact_id = p.contact_id
             where p.contact_id is not null
               and c.paid_at >= p.touch_day::timestamp at time zone s.tz
               and c.paid_at < (p.touch_day + 366)::timestamp at time zone s.tz
               and c.paid_at >= $1::timestamp at time zone s.tz
               and c.paid_at < ($2 + 366)::timestamp at time zone s.tz
             union all
             select p.node_id, p.touch_day, (c.paid_at at time zone s.tz)::date,
                    case when c.amount > 0 and (c.refund_id is not null or c.refunded_at is not null)
                         then 0 else c.amount end
             from people p cross join s
             join contributions c on c.contact_id is null and c.email = p.email
             where p.contact_id is null
               and c.paid_at >= p.touch_day::timestamp at time zone s.tz
               and c.paid_at < (p.touch_day + 366)::timestamp at time zone s.tz
         ),
         revenue as (
             select node_id,
                    sum(net) filter (where gift_day = touch_day) as r0,
                    sum(net) filter (where gift_day <= touch_day + 30) as r30,
                    sum(net) filter (where gift_day <= touch_day + 90) as r90,
                    sum(net) as r365
             from gifts group by 1
         ),
         counts as (
             select p.node_id,
                    count(*) filter (where p.signup) as new_contacts,
                    count(*) filter (where f.first_paid_at >= p.touch_day::timestamp at time zone s.tz
                                       and f.first_paid_at < ($2 + 1)::timestamp at time zone s.tz) as new_donors
             from people p cross join s
             -- Only a donor whose first gift is in the range can be new: those few are hashed, not all.
             left join (select f.donor, f.first_paid_at from donor_firsts f cross join s
                        where f.first_paid_at >= $1::timestamp at time zone s.tz
                          and f.first_paid_at < ($2 + 1)::timestamp at time zone s.tz) f on f.donor = p.donor
             group by 1
         ),
         figures as (
             select k.node_id,
                    coalesce(d.spend, 0) as spend, coalesce(d.impressions, 0) as impressions,
                    coalesce(d.clicks, 0) as clicks, coalesce(d.conversions, 0) as conversions,
                    coalesce(n.new_contacts, 0) as new_contacts, coalesce(n.new_donors, 0) as new_donors,
                    coalesce(r.r0, 0) as r0, coalesce(r.r30, 0) as r30, coalesce(r.r90, 0) as r90,
                    coalesce(r.r365, 0) as r365
             from (select node_id from delivery union select node_id from counts) k
             left join delivery d on d.node_id = k.node_id
             left join counts n on n.node_id = k.node_id
             left join revenue r on r.node_id = k.node_id
         )
         select f.node_id as id,
                case when f.node_id = {TOTAL_NODE} and {with_total} then 'Total' else {name} end as name,
                {campaign} as campaign, {group} as ad_group, {platform} as platform,
                f.spend::numeric(16, 2)::text as spend, f.impressions, f.clicks,
                f.conversions::numeric(16, 2)::text as conversions,
                round(f.spend * 1000 / nullif(f.impressions, 0), 2)::text as cpm,
                round(f.spend / nullif(f.clicks, 0), 2)::text as cpc,
                round(f.clicks::numeric / nullif(f.impressions, 0), 4)::text as ctr,
                f.new_contacts, round(f.spend / nullif(f.new_contacts, 0), 2)::text as cpl,
                f.new_donors, round(f.spend / nullif(f.new_donors, 0), 2)::text as cost_per_donor,
                f.r0::numeric(16, 2)::text as revenue_0, f.r30::numeric(16, 2)::text as revenue_30,
                f.r90::numeric(16, 2)::text as revenue_90, f.r365::numeric(16, 2)::text as revenue_365,
                round(f.r0 / nullif(f.spend, 0), 2)::text as roas_0,
                round(f.r30 / nullif(f.spend, 0), 2)::text as roas_30,
                round(f.r90 / nullif(f.spend, 0), 2)::text as roas_90,
                round(f.r365 / nullif(f.spend, 0), 2)::text as roas_365
         from figures f
         left join ads a on a.id = f.node_id and {is_ad}
         left join ad_groups g on g.id = coalesce(a.group_id, case when {is_group} then f.node_id end)
         left join ad_campaigns c on c.id = coalesce(g.campaign_id, case when {is_campaign} then f.node_id end)
         order by f.node_id = {TOTAL_NODE} and {with_total} desc, f.spend desc, 2, 1
         limit {limit}",
        node = level.node_sql(),
        is_ad = level == Level::Ad,
        is_group = level == Level::Group,
        is_campaign = level == Level::Campaign,
        limit = if with_total { 5001 } else { 5000 },
    );
    sqlx::query_as::<_, MediaRow>(sqlx::AssertSqlSafe(sql))
        .bind(from)
        .bind(to)
        .bind(campaign_id)
        .fetch_all(conn)
        .await
}

/// One day of the spend-versus-revenue chart.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct MediaDay {
    pub day: NaiveDate,
    pub spend: String,
    /// Net of the gifts given that day through an ad's refcode.
    pub revenue: String,
}

/// Spend and direct ad revenue per client day of `from`–`to`.
pub async fn series(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
    campaign_id: Option<i64>,
) -> Result<Vec<MediaDay>, sqlx::Error> {
    sqlx::query_as::<_, MediaDay>(
        "with s as (select time_zone as tz from app_settings limit 1),
         mine as (
             select a.id from ads a join ad_groups g on g.id = a.group_id
             where ($3::bigint is null or g.campaign_id = $3)
         ),
         spend as (
             select d.day, sum(d.spend) as spend from ad_days d join mine m on m.id = d.ad_id
             where d.day between $1 and $2 group by 1
         ),
         revenue as (
             select (c.paid_at at time zone s.tz)::date as day,
                    sum(case when c.amount > 0 and (c.refund_id is not null or c.refunded_at is not null)
                             then 0 else c.amount end) as revenue
             from ad_refcodes r join mine m on m.id = r.ad_id
             join source_codes sc on sc.code = r.refcode
             join contributions c on c.source_code_id = sc.id
             cross join s
             where c.paid_at >= $1::timestamp at time zone s.tz and c.paid_at < ($2 + 1)::timestamp at time zone s.tz
             group by 1
         )
         select d::date as day, coalesce(sp.spend, 0)::numeric(16, 2)::text as spend,
                coalesce(r.revenue, 0)::numeric(16, 2)::text as revenue
         from generate_series($1::date, $2::date, interval '1 day') d
         left join spend sp on sp.day = d::date
         left join revenue r on r.day = d::date
         order by 1",
    )
    .bind(from)
    .bind(to)
    .bind(campaign_id)
    .fetch_all(conn)
    .await
}
