//! RFM scores: recency, frequency and monetary scores 1–5 for every donor, brought up to date in the caller's
//! transaction. docs/segments.md defines them; the bands and the method are app_settings columns.
//!
//! Recency and frequency read each donor's row of `contact_giving`; only the 24-month amount reads the gifts, in
//! one pass whose time bound is computed once (a stable SQL function in a filter is called again for every row,
//! which made this pass 40 s at 3,000,000 gifts). Rows are upserted and only changed ones written, so the nightly
//! run rewrites the donors whose scores moved, not all of them.

use sqlx::PgConnection;

/// Each donor's inputs: `d (contact_id, last_gift_at, gifts, amount_24m, days_since)`, with `s` the settings.
const DONORS: &str = "
    with bound as (
        select client_day_start((client_today() - interval '24 months')::date) as since, client_today() as today
    ), recent as (
        select g.contact_id, sum(g.amount) as amount_24m
        from contributions g
        where g.contact_id is not null and g.amount > 0 and g.refunded_at is null
          and g.paid_at >= (select since from bound)
        group by g.contact_id
    ), d as (
        select cg.contact_id, cg.last_gift_at, cg.gifts, coalesce(r.amount_24m, 0) as amount_24m,
               (select today from bound) - (cg.last_gift_at at time zone s.time_zone)::date as days_since
        from contact_giving cg cross join app_settings s left join recent r on r.contact_id = cg.contact_id
        where cg.gifts > 0
    )";

/// Fixed bands: `width_bucket(x, edges)` counts the (ascending) edges ≤ x, so "days > edge" counts the edges
/// ≤ days − 1, and so on.
const BANDS: &str = "
    select d.contact_id,
           5 - width_bucket(d.days_since - 1, s.rfm_recency_days),
           1 + width_bucket(d.gifts - 1, s.rfm_frequency_gifts),
           1 + width_bucket(d.amount_24m, s.rfm_monetary_amounts),
           d.last_gift_at, d.gifts, d.amount_24m
    from d cross join app_settings s";

/// Quintiles: score = 1 + ⌊5 × (rank − 1) ÷ donors⌋, ties sharing the lowest rank.
const QUINTILES: &str = "
    select q.contact_id,
           1 + floor(5.0 * (q.r_rank - 1) / q.n), 1 + floor(5.0 * (q.f_rank - 1) / q.n),
           1 + floor(5.0 * (q.m_rank - 1) / q.n),
           q.last_gift_at, q.gifts, q.amount_24m
    from (select d.*, count(*) over () as n,
                 rank() over (order by d.last_gift_at) as r_rank,
                 rank() over (order by d.gifts) as f_rank,
                 rank() over (order by d.amount_24m) as m_rank
          from d) q";

const UPSERT: &str = "
    on conflict (contact_id) do update
        set recency = excluded.recency, frequency = excluded.frequency, monetary = excluded.monetary,
            last_gift_at = excluded.last_gift_at, gifts = excluded.gifts, amount_24m = excluded.amount_24m
        where (r.recency, r.frequency, r.monetary, r.last_gift_at, r.gifts, r.amount_24m)
              is distinct from (excluded.recency, excluded.frequency, excluded.monetary, excluded.last_gift_at,
                                excluded.gifts, excluded.amount_24m)";

/// Recomputes every donor's scores; returns how many donors are scored.
pub async fn recompute(conn: &mut PgConnection) -> Result<u64, sqlx::Error> {
    // The per-donor hash of 24-month amounts is ~150 MB at 333,000 donors; at the default work_mem it spills to
    // disk and takes twice as long. Only this transaction gets more.
    sqlx::query("set local work_mem = '256MB'")
        .execute(&mut *conn)
        .await?;
    let quintiles: bool =
        sqlx::query_scalar("select rfm_method = 'quintiles' from app_settings limit 1")
            .fetch_optional(&mut *conn)
            .await?
            .unwrap_or(false);
    let scores = if quintiles { QUINTILES } else { BANDS };
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "{DONORS}
         insert into rfm_scores as r (contact_id, recency, frequency, monetary, last_gift_at, gifts, amount_24m)
         {scores}
         {UPSERT}"
    )))
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "delete from rfm_scores r
         where not exists (select 1 from contact_giving cg where cg.contact_id = r.contact_id and cg.gifts > 0)",
    )
    .execute(&mut *conn)
    .await?;
    let scored: i64 = sqlx::query_scalar("select count(*) from rfm_scores")
        .fetch_one(&mut *conn)
        .await?;
    sqlx::query("update app_settings set rfm_computed = now()")
        .execute(&mut *conn)
        .await?;
    Ok(u64::try_from(scored).unwrap_or(0))
}
