//! Media: ad campaigns › ad groups › ads, their daily delivery, and what ties an ad to money (refcodes) and
//! people (origin codes). Every figure the media page shows is defined once here, in SQL (docs/media.md).

mod figures;
pub mod import;

use chrono::NaiveDate;
pub use figures::{performance, performance_with_total, series, MediaDay, MediaRow};
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

/// `from`–`to` in the client's calendar, by default the last 30 days up to today (not checked: `from` may come
/// after `to`).
pub async fn range(
    conn: &mut sqlx::PgConnection,
    from: Option<chrono::NaiveDate>,
    to: Option<chrono::NaiveDate>,
) -> Result<(chrono::NaiveDate, chrono::NaiveDate), sqlx::Error> {
    sqlx::query_as(
        "select coalesce($1::date, (now() at time zone time_zone)::date - 29),
                coalesce($2::date, (now() at time zone time_zone)::date)
         from app_settings limit 1",
    )
    .bind(from)
    .bind(to)
    .fetch_one(conn)
    .await
}
