//! Demo media: Meta and Google campaigns › ad groups › ads with a daily history, tied to the demo's `fb_…`
//! refcodes and its Facebook and Google sign-up origin codes.

use sqlx::PgConnection;

/// How many ads the client has: the media are seeded once.
pub async fn ads_count(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(*) from ads")
        .fetch_one(conn)
        .await
}

/// Three campaigns, two ad groups in each and two ads in each group.
pub async fn insert_ads(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into ad_campaigns (platform, campaign_key, name) values
             ('meta', 'demo-meta-1', 'Persuasion Q3'), ('meta', 'demo-meta-2', 'Match Drive'),
             ('google', 'demo-google-1', 'Search Brand')",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into ad_groups (campaign_id, group_key, name)
         select c.id, c.campaign_key || '-' || g, case g when 1 then 'Lookalikes' else 'Retargeting' end
         from ad_campaigns c, generate_series(1, 2) g",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into ads (group_id, platform, ad_key, name)
         select g.id, c.platform, g.group_key || '-' || a, case a when 1 then 'Video' else 'Static' end
         from ad_groups g join ad_campaigns c on c.id = g.campaign_id, generate_series(1, 2) a",
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// 400 days of delivery; spend varies by ad and weekday, deterministic.
pub async fn insert_ad_days(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into ad_days (ad_id, day, spend, impressions, clicks, conversions)
         select a.id, d::date,
                round((40 + (a.id * 13 + extract(doy from d)::int * 7) % 60)::numeric
                      * case when extract(dow from d) in (0, 6) then 0.7 else 1 end, 2),
                (8000 + (a.id * 997 + extract(doy from d)::int * 131) % 9000),
                (60 + (a.id * 31 + extract(doy from d)::int * 17) % 140),
                ((a.id + extract(doy from d)::int) % 6)
         from ads a, generate_series(current_date - 400, current_date - 1, interval '1 day') d",
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The demo's Facebook refcodes belong to the Meta videos; the sign-up origin codes to the first ads.
pub async fn link_codes(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into ad_refcodes (refcode, ad_id)
         select sc.code, (select a.id from ads a join ad_groups g on g.id = a.group_id
                          join ad_campaigns c on c.id = g.campaign_id
                          where c.name = case when sc.code like '%persuasion%' then 'Persuasion Q3' else 'Match Drive' end
                          order by a.id limit 1)
         from source_codes sc where sc.code like 'fb\\_%'
         on conflict do nothing",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into ad_origin_codes (origin_code_id, ad_id)
         select o.id, (select a.id from ads a join ad_groups g on g.id = a.group_id
                       join ad_campaigns c on c.id = g.campaign_id
                       where c.name = case when o.name like 'fb%' then 'Persuasion Q3' else 'Search Brand' end
                       order by a.id limit 1)
         from origin_codes o where o.name in ('fb-lead-ad-2026q3', 'google-search-brand')
         on conflict do nothing",
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Election day on the media timeline, unless the client has inflection events already.
pub async fn insert_election_day(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into inflection_events (day, label, kind)
         select make_date(extract(year from current_date)::int, 11, 3), 'Election day', 'election'
         where not exists (select 1 from inflection_events)",
    )
    .execute(conn)
    .await?;
    Ok(())
}
