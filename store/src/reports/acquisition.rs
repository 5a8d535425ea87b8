//! Acquisition by origin code: the contacts created in the range, per origin code, and what they gave (the
//! docs/metrics.md definitions).

use super::{cells, col, Column, ColumnKind::*, ReportError, ReportRange, MONEY, NET};
use sqlx::PgConnection;

pub const COLUMNS: &[Column] = &[
    col("originCode", "Origin code", Text),
    col("acquired", "Acquired", Integer),
    col("stillSubscribed", "Still subscribed", Integer),
    col("donors", "Became donors", Integer),
    col("donorShare", "Donor share", Rate),
    col("revenue30", "Revenue 30 days", Money),
    col("revenue90", "Revenue 90 days", Money),
    col("revenue365", "Revenue 365 days", Money),
    col("revenueAll", "Revenue, all", Money),
    col("revenuePerContact", "Revenue per contact", Money),
];

pub async fn rows(
    conn: &mut PgConnection,
    range: &ReportRange,
) -> Result<Vec<Vec<String>>, ReportError> {
    let within = |days: i32| {
        format!(
            "coalesce(sum({NET}) filter (where c.paid_at < k.created + interval '{days} days'), 0)"
        )
    };
    let (r30, r90, r365) = (within(30), within(90), within(365));
    let figures = format!(
        "coalesce(bool_or(c.amount > 0), false) as donor,
         {r30} as r30, {r90} as r90, {r365} as r365, coalesce(sum({NET}), 0) as rall"
    );
    // A short range reads each new contact's gifts through the contact index (a lateral aggregate): joined,
    // the planner hashed every gift of a large client for a month's new contacts. A long range has so many
    // new contacts that one pass over the gifts is cheaper (see PROBE_RANGE_DAYS).
    let per = if (range.to - range.from).num_days() < crate::revenue::PROBE_RANGE_DAYS {
        format!(
            "select k.id, k.origin_code_id, k.subscription = 'subscribed' as subscribed, a.*
             from k cross join lateral (select {figures} from contributions c where c.contact_id = k.id) a"
        )
    } else {
        format!(
            "select k.id, k.origin_code_id, k.subscription = 'subscribed' as subscribed, {figures}
             from k left join contributions c on c.contact_id = k.id
             group by k.id, k.origin_code_id, k.subscription"
        )
    };
    let sql = format!(
        "with k as (
             select id, origin_code_id, created, subscription from contacts
             where created >= $1 and created < $2 and origin_code_id is not null
         ), per as (
             {per}
         )
         select array[o.name, count(*)::text, (count(*) filter (where subscribed))::text,
                      (count(*) filter (where donor))::text,
                      round((count(*) filter (where donor))::numeric / count(*), 4)::numeric(10, 4)::text,
                      sum(r30){MONEY}, sum(r90){MONEY}, sum(r365){MONEY}, sum(rall){MONEY},
                      round(sum(rall) / count(*), 2){MONEY}]
         from per join origin_codes o on o.id = per.origin_code_id
         group by o.id order by count(*) desc, o.name"
    );
    let rows = sqlx::query_scalar::<_, Vec<Option<String>>>(sqlx::AssertSqlSafe(sql))
        .bind(range.lo)
        .bind(range.hi)
        .fetch_all(conn)
        .await?;
    Ok(cells(rows))
}
