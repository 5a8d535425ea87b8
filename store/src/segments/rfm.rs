//! RFM scores: recency, frequency and monetary scores 1–5 for every donor, replaced whole in the caller's
//! transaction. README "Segments" defines them; the bands and the method are app_settings columns.

use sqlx::PgConnection;

/// Recomputes every donor's scores; returns how many donors were scored.
pub async fn recompute(conn: &mut PgConnection) -> Result<u64, sqlx::Error> {
    sqlx::query("delete from rfm_scores")
        .execute(&mut *conn)
        .await?;
    let scored = sqlx::query(
        "with donors as (
             select g.contact_id, max(g.paid_at) as last_gift_at, count(*)::integer as gifts,
                    coalesce(sum(g.amount) filter (
                        where g.paid_at >= client_day_start((client_today() - interval '24 months')::date)), 0)
                        as amount_24m
             from contributions g
             where g.contact_id is not null and g.amount > 0 and g.refunded_at is null
             group by g.contact_id
         ), d as (
             select donors.*, client_today() - (donors.last_gift_at at time zone s.time_zone)::date as days_since,
                    count(*) over () as n,
                    rank() over (order by donors.last_gift_at) as r_rank,
                    rank() over (order by donors.gifts) as f_rank,
                    rank() over (order by donors.amount_24m) as m_rank
             from donors, app_settings s
         )
         insert into rfm_scores (contact_id, recency, frequency, monetary, last_gift_at, gifts, amount_24m)
         select d.contact_id,
                case when s.rfm_method = 'quintiles'
                     then 1 + floor(5.0 * (d.r_rank - 1) / d.n)
                     else 5 - (select count(*) from unnest(s.rfm_recency_days) t where d.days_since > t) end,
                case when s.rfm_method = 'quintiles'
                     then 1 + floor(5.0 * (d.f_rank - 1) / d.n)
                     else 1 + (select count(*) from unnest(s.rfm_frequency_gifts) t where d.gifts > t) end,
                case when s.rfm_method = 'quintiles'
                     then 1 + floor(5.0 * (d.m_rank - 1) / d.n)
                     else 1 + (select count(*) from unnest(s.rfm_monetary_amounts) t where d.amount_24m >= t) end,
                d.last_gift_at, d.gifts, d.amount_24m
         from d, app_settings s",
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    sqlx::query("update app_settings set rfm_computed = now()")
        .execute(&mut *conn)
        .await?;
    Ok(scored)
}
