//! The figures of a saved segment (docs/segments.md, "Segment figures"). Money is numeric in SQL and decimal
//! text here.

use super::SegmentError;
use sqlx::PgConnection;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figures {
    pub size: i32,
    /// Sum of members' counted gifts paid since the client's day 12 months before today.
    pub revenue_12m: String,
    pub gifts_12m: i64,
    /// revenue_12m ÷ gifts_12m, to the cent; none without gifts.
    pub average_gift: Option<String>,
    /// (recency score, frequency score, members) for members with RFM scores.
    pub rf_cells: Vec<(i16, i16, i64)>,
    pub hpc_bands: Vec<HpcBand>,
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct HpcBand {
    /// Lower edge (included), decimal text.
    pub min: String,
    /// Upper edge (excluded); none for the top band.
    pub max: Option<String>,
    pub donors: i64,
    /// The median HPC of the band's donors (the lower middle value for an even count).
    pub median_hpc: String,
    /// Suggested asks: median HPC × 1, × 1.5, × 2, each rounded to the ask ladder.
    pub ask_1: String,
    pub ask_2: String,
    pub ask_3: String,
}

/// The ask ladder: below $100 to the nearest $5, below $500 to the nearest $10, else to the nearest $25; never
/// below $5. Written as SQL over `x` (a numeric expression from this file).
pub fn ask_sql(x: &str) -> String {
    format!(
        "greatest(5, case when {x} < 100 then round({x} / 5) * 5
                          when {x} < 500 then round({x} / 10) * 10
                          else round({x} / 25) * 25 end)::numeric(14, 2)::text"
    )
}

pub async fn figures(conn: &mut PgConnection, id: i64) -> Result<Figures, SegmentError> {
    let size: i32 = sqlx::query_scalar("select size from segments where id = $1")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or(SegmentError::NotFound)?;
    let (revenue_12m, gifts_12m, average_gift): (String, i64, Option<String>) = sqlx::query_as(
        "select coalesce(sum(g.amount), 0)::numeric(20, 2)::text, count(g.id),
                case when count(g.id) > 0 then round(sum(g.amount) / count(g.id), 2)::text end
         from segment_members sm
         join contributions g on g.contact_id = sm.contact_id
         where sm.segment_id = $1 and g.amount > 0 and g.refunded_at is null
           and g.paid_at >= (select client_day_start((client_today() - interval '12 months')::date))",
    )
    .bind(id)
    .fetch_one(&mut *conn)
    .await?;
    let rf_cells = sqlx::query_as(
        "select r.recency, r.frequency, count(*) from segment_members sm
         join rfm_scores r on r.contact_id = sm.contact_id
         where sm.segment_id = $1 group by 1, 2 order by 1, 2",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    let hpc_bands = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with edges (lo, hi) as (
             values (0::numeric, 10::numeric), (10, 25), (25, 50), (50, 100), (100, 250), (250, 500),
                    (500, 1000), (1000, null)
         ), hpc as (
             select max(g.amount) as hpc from segment_members sm
             join contributions g on g.contact_id = sm.contact_id
             where sm.segment_id = $1 and g.amount > 0 and g.refunded_at is null
             group by sm.contact_id
         ), banded as (
             select e.lo, e.hi, count(*) as donors,
                    percentile_disc(0.5) within group (order by h.hpc) as median
             from edges e join hpc h on h.hpc >= e.lo and (e.hi is null or h.hpc < e.hi)
             group by e.lo, e.hi
         )
         select lo::numeric(14, 2)::text as min, hi::numeric(14, 2)::text as max, donors,
                median::numeric(14, 2)::text as median_hpc,
                {} as ask_1, {} as ask_2, {} as ask_3
         from banded order by lo",
        ask_sql("median"),
        ask_sql("(median * 1.5)"),
        ask_sql("(median * 2)")
    )))
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    Ok(Figures {
        size,
        revenue_12m,
        gifts_12m,
        average_gift,
        rf_cells,
        hpc_bands,
    })
}
