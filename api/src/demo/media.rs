//! Demo media: Meta and Google campaigns › ad groups › ads with a daily history, tied to the demo's `fb_…`
//! refcodes and its Facebook and Google sign-up origin codes. Seeded once; running it again changes nothing.

use crate::error::ApiError;

pub async fn seed_media(tx: &mut tenancy::TenantTx) -> Result<(), ApiError> {
    let existing: i64 = sqlx::query_scalar("select count(*) from ads")
        .fetch_one(&mut **tx)
        .await?;
    if existing > 0 {
        return Ok(());
    }
    sqlx::query(
        "insert into ad_campaigns (platform, campaign_key, name) values
             ('meta', 'demo-meta-1', 'Persuasion Q3'), ('meta', 'demo-meta-2', 'Match Drive'),
             ('google', 'demo-google-1', 'Search Brand')",
    )
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "insert into ad_groups (campaign_id, group_key, name)
         select c.id, c.campaign_key || '-' || g, case g when 1 then 'Lookalikes' else 'Retargeting' end
         from ad_campaigns c, generate_series(1, 2) g",
    )
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "insert into ads (group_id, platform, ad_key, name)
         select g.id, c.platform, g.group_key || '-' || a, case a when 1 then 'Video' else 'Static' end
         from ad_groups g join ad_campaigns c on c.id = g.campaign_id, generate_series(1, 2) a",
    )
    .execute(&mut **tx)
    .await?;
    // 400 days of delivery; spend varies by ad and weekday, deterministic.
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
    .execute(&mut **tx)
    .await?;
    // The demo's Facebook refcodes belong to the Meta videos; the sign-up origin codes to the first ads.
    sqlx::query(
        "insert into ad_refcodes (refcode, ad_id)
         select sc.code, (select a.id from ads a join ad_groups g on g.id = a.group_id
                          join ad_campaigns c on c.id = g.campaign_id
                          where c.name = case when sc.code like '%persuasion%' then 'Persuasion Q3' else 'Match Drive' end
                          order by a.id limit 1)
         from source_codes sc where sc.code like 'fb\\_%'
         on conflict do nothing",
    )
    .execute(&mut **tx)
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
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "insert into inflection_events (day, label, kind)
         select make_date(extract(year from current_date)::int, 11, 3), 'Election day', 'election'
         where not exists (select 1 from inflection_events)",
    )
    .execute(&mut **tx)
    .await?;
    Ok(())
}
