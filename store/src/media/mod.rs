//! Media: ad campaigns › ad groups › ads, their daily delivery, and what ties an ad to money (refcodes) and
//! people (origin codes). Every figure the media page shows is defined once here, in SQL (README "Media").

pub mod import;

use chrono::NaiveDate;
use import::{AdDay, AdPlatform};
use serde::Serialize;
use sqlx::PgConnection;

/// What an import wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportCounts {
    pub campaigns: i64,
    pub ad_groups: i64,
    pub ads: i64,
    /// Ad days written for the first time.
    pub new_days: i64,
    /// Ad days that replaced an earlier import's values.
    pub replaced_days: i64,
    pub refcodes: i64,
}

/// Writes the ads' days of one file, set-based. The key is (platform, ad, day): rows of one file with the same
/// key are summed (a breakdown by age or placement), and a day imported again replaces the stored one, so a
/// re-import never double counts.
pub async fn upsert_days(
    conn: &mut PgConnection,
    platform: AdPlatform,
    days: &[AdDay],
) -> Result<ImportCounts, sqlx::Error> {
    let col = |f: fn(&AdDay) -> String| days.iter().map(f).collect::<Vec<String>>();
    let campaign_keys = col(|d| d.campaign_key.clone());
    let campaigns = col(|d| d.campaign.clone());
    let group_keys = col(|d| d.group_key.clone());
    let groups = col(|d| d.group.clone());
    let ad_keys = col(|d| d.ad_key.clone());
    let ads = col(|d| d.ad.clone());
    let spend = col(|d| d.spend.clone());
    let conversions = col(|d| d.conversions.clone());
    let refcodes: Vec<Option<String>> = days.iter().map(|d| d.refcode.clone()).collect();
    let day: Vec<NaiveDate> = days.iter().map(|d| d.day).collect();
    let impressions: Vec<i64> = days.iter().map(|d| d.impressions).collect();
    let clicks: Vec<i64> = days.iter().map(|d| d.clicks).collect();
    sqlx::query(
        "create temp table ad_import (
             campaign_key text, campaign text, group_key text, grp text, ad_key text, ad text, day date,
             spend numeric(14, 2), impressions bigint, clicks bigint, conversions numeric(14, 2), refcode text
         ) on commit drop",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into ad_import
         select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::date[],
                              $8::numeric[], $9::int8[], $10::int8[], $11::numeric[], $12::text[])",
    )
    .bind(&campaign_keys)
    .bind(&campaigns)
    .bind(&group_keys)
    .bind(&groups)
    .bind(&ad_keys)
    .bind(&ads)
    .bind(&day)
    .bind(&spend)
    .bind(&impressions)
    .bind(&clicks)
    .bind(&conversions)
    .bind(&refcodes)
    .execute(&mut *conn)
    .await?;
    let p = platform.stored();
    let campaigns: i64 = sqlx::query_scalar(
        "with w as (
             insert into ad_campaigns (platform, campaign_key, name)
             select distinct on (campaign_key) $1, campaign_key, campaign from ad_import order by campaign_key, day desc
             on conflict (platform, campaign_key) do update set name = excluded.name
             returning 1)
         select count(*) from w",
    )
    .bind(p)
    .fetch_one(&mut *conn)
    .await?;
    let ad_groups: i64 = sqlx::query_scalar(
        "with w as (
             insert into ad_groups (campaign_id, group_key, name)
             select distinct on (c.id, i.group_key) c.id, i.group_key, i.grp
             from ad_import i join ad_campaigns c on c.platform = $1 and c.campaign_key = i.campaign_key
             order by c.id, i.group_key, i.day desc
             on conflict (campaign_id, group_key) do update set name = excluded.name
             returning 1)
         select count(*) from w",
    )
    .bind(p)
    .fetch_one(&mut *conn)
    .await?;
    let ads: i64 = sqlx::query_scalar(
        "with w as (
             insert into ads (group_id, platform, ad_key, name)
             select distinct on (i.ad_key) g.id, $1, i.ad_key, i.ad
             from ad_import i
             join ad_campaigns c on c.platform = $1 and c.campaign_key = i.campaign_key
             join ad_groups g on g.campaign_id = c.id and g.group_key = i.group_key
             order by i.ad_key, i.day desc
             on conflict (platform, ad_key) do update set name = excluded.name, group_id = excluded.group_id
             returning 1)
         select count(*) from w",
    )
    .bind(p)
    .fetch_one(&mut *conn)
    .await?;
    let (new_days, replaced_days): (i64, i64) = sqlx::query_as(
        "with w as (
             insert into ad_days as d (ad_id, day, spend, impressions, clicks, conversions)
             select a.id, i.day, sum(i.spend), sum(i.impressions), sum(i.clicks), sum(i.conversions)
             from ad_import i join ads a on a.platform = $1 and a.ad_key = i.ad_key
             group by a.id, i.day
             on conflict (ad_id, day) do update set
                 spend = excluded.spend, impressions = excluded.impressions, clicks = excluded.clicks,
                 conversions = excluded.conversions, imported = now()
             returning (xmax = 0) as inserted)
         select count(*) filter (where inserted), count(*) filter (where not inserted) from w",
    )
    .bind(p)
    .fetch_one(&mut *conn)
    .await?;
    let refcodes: i64 = sqlx::query_scalar(
        "with w as (
             insert into ad_refcodes (refcode, ad_id)
             select distinct on (i.refcode) i.refcode, a.id
             from ad_import i join ads a on a.platform = $1 and a.ad_key = i.ad_key
             where i.refcode is not null
             order by i.refcode, i.day desc
             on conflict (refcode) do nothing
             returning 1)
         select count(*) from w",
    )
    .bind(p)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query("drop table ad_import")
        .execute(&mut *conn)
        .await?;
    Ok(ImportCounts {
        campaigns,
        ad_groups,
        ads,
        new_days,
        replaced_days,
        refcodes,
    })
}

/// The level the media table is cut by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Campaign,
    Group,
    Ad,
    /// One row for everything.
    Total,
}

impl Level {
    fn node_sql(self) -> &'static str {
        match self {
            Self::Campaign => "c.id",
            Self::Group => "g.id",
            Self::Ad => "a.id",
            Self::Total => "0::bigint",
        }
    }
}

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
/// (README "Media"): a person is *touched* by an ad when they sign up through one of its origin codes (touch =
/// the contact's creation) or give through one of its refcodes (touch = the gift) within the range; revenue at N
/// days is the net of all their gifts from their first touch's day to N days after it.
pub async fn performance(
    conn: &mut PgConnection,
    level: Level,
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
         nodes as (
             select a.id as ad_id, {node} as node_id
             from ads a join ad_groups g on g.id = a.group_id join ad_campaigns c on c.id = g.campaign_id
             where ($3::bigint is null or c.id = $3)
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
             left join donor_firsts f on f.donor = p.donor
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
         select f.node_id as id, {name} as name, {campaign} as campaign, {group} as ad_group,
                {platform} as platform,
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
         order by f.spend desc, 2, 1
         limit 5000",
        node = level.node_sql(),
        is_ad = level == Level::Ad,
        is_group = level == Level::Group,
        is_campaign = level == Level::Campaign,
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

/// An ad with what ties it to money and people.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct AdCodes {
    pub id: i64,
    pub name: String,
    pub ad_group: String,
    pub campaign: String,
    pub platform: String,
    pub refcodes: Vec<String>,
    pub origin_code_ids: Vec<i64>,
}

/// Every ad (at most 5000) with its refcodes and origin codes.
pub async fn ad_codes(conn: &mut PgConnection) -> Result<Vec<AdCodes>, sqlx::Error> {
    sqlx::query_as::<_, AdCodes>(
        "select a.id, a.name, g.name as ad_group, c.name as campaign, a.platform,
                array(select r.refcode from ad_refcodes r where r.ad_id = a.id order by 1) as refcodes,
                array(select o.origin_code_id from ad_origin_codes o where o.ad_id = a.id order by 1)
                    as origin_code_ids
         from ads a join ad_groups g on g.id = a.group_id join ad_campaigns c on c.id = g.campaign_id
         order by c.name, g.name, a.name, a.id
         limit 5000",
    )
    .fetch_all(conn)
    .await
}

/// Why codes could not be set.
#[derive(Debug, thiserror::Error)]
pub enum CodesError {
    #[error("No such ad")]
    NoAd,
    #[error("Refcode {0} already belongs to another ad")]
    RefcodeTaken(String),
    #[error("That origin code already belongs to another ad")]
    OriginTaken,
    #[error("No such origin code")]
    NoOriginCode,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// Replaces the ad's refcodes and origin codes. A code tied to another ad is refused, never moved silently.
pub async fn set_codes(
    conn: &mut PgConnection,
    ad_id: i64,
    refcodes: &[String],
    origin_code_ids: &[i64],
) -> Result<(), CodesError> {
    let exists: bool = sqlx::query_scalar("select exists (select 1 from ads where id = $1)")
        .bind(ad_id)
        .fetch_one(&mut *conn)
        .await?;
    if !exists {
        return Err(CodesError::NoAd);
    }
    let taken: Option<String> = sqlx::query_scalar(
        "select refcode from ad_refcodes where refcode = any ($1) and ad_id <> $2 order by 1 limit 1",
    )
    .bind(refcodes)
    .bind(ad_id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(code) = taken {
        return Err(CodesError::RefcodeTaken(code));
    }
    let origin_taken: bool = sqlx::query_scalar(
        "select exists (select 1 from ad_origin_codes where origin_code_id = any ($1) and ad_id <> $2)",
    )
    .bind(origin_code_ids)
    .bind(ad_id)
    .fetch_one(&mut *conn)
    .await?;
    if origin_taken {
        return Err(CodesError::OriginTaken);
    }
    let known: i64 = sqlx::query_scalar("select count(*) from origin_codes where id = any ($1)")
        .bind(origin_code_ids)
        .fetch_one(&mut *conn)
        .await?;
    let mut distinct = origin_code_ids.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if known != distinct.len() as i64 {
        return Err(CodesError::NoOriginCode);
    }
    sqlx::query("delete from ad_refcodes where ad_id = $1")
        .bind(ad_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query("delete from ad_origin_codes where ad_id = $1")
        .bind(ad_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "insert into ad_refcodes (refcode, ad_id) select distinct r, $2 from unnest($1::text[]) r",
    )
    .bind(refcodes)
    .bind(ad_id)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into ad_origin_codes (origin_code_id, ad_id) select distinct o, $2 from unnest($1::int8[]) o",
    )
    .bind(&distinct)
    .bind(ad_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A selection entry.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Named {
    pub id: i64,
    pub label: String,
}

/// The selection list of one level: campaign, group or ad names (with their parents for groups and ads).
pub async fn names(conn: &mut PgConnection, level: Level) -> Result<Vec<Named>, sqlx::Error> {
    let sql = match level {
        Level::Campaign | Level::Total => {
            "select id, name as label from ad_campaigns order by name, id limit 10000"
        }
        Level::Group => {
            "select g.id, c.name || ' › ' || g.name as label from ad_groups g
             join ad_campaigns c on c.id = g.campaign_id order by 2, 1 limit 10000"
        }
        Level::Ad => {
            "select a.id, c.name || ' › ' || g.name || ' › ' || a.name as label from ads a
             join ad_groups g on g.id = a.group_id join ad_campaigns c on c.id = g.campaign_id
             order by 2, 1 limit 10000"
        }
    };
    sqlx::query_as::<_, Named>(sql).fetch_all(conn).await
}
