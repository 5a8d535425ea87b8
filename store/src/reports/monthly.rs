//! Monthly summary: per calendar month of the range (client zone; the first and last months cut at the range's
//! ends) and for the whole range, the revenue figures of the docs/metrics.md.

use super::{cells, col, Column, ColumnKind::*, ReportError, ReportRange, DONORS, MONEY};
use sqlx::PgConnection;

pub const COLUMNS: &[Column] = &[
    col("month", "Month", Text),
    col("gifts", "Gifts", Integer),
    col("donors", "Donors", Integer),
    col("newDonors", "New donors", Integer),
    col("gross", "Gross", Money),
    col("refunds", "Refunds", Money),
    col("net", "Net", Money),
    col("fees", "Fees", Money),
    col("recurringGross", "Recurring gross", Money),
    col("averageGift", "Average gift", Money),
];

pub async fn rows(
    conn: &mut PgConnection,
    range: &ReportRange,
) -> Result<Vec<Vec<String>>, ReportError> {
    // Money reads the day rollup (whole client days, so exact); new donors read `donor_firsts`. Donors read the
    // months' `donor_months` rows when they hold exactly the range's donors (whole client months, as on the
    // Contributions page), else the facts. The null month is the range's total (grouping set ()).
    let months = crate::revenue::contributions::month_rows_hold(
        conn, range.from, range.to, range.hi, &range.tz,
    )
    .await?;
    let donors = if months.is_some() {
        // A donor has one row per month; the total counts each donor once across the months (hashed).
        "select d.month, count(*) as donors
         from donor_months d where d.month >= $6 and d.month <= $7 and d.gifts > 0 group by 1
         union all
         select null, count(*) from (select d.donor from donor_months d
                                     where d.month >= $6 and d.month <= $7 and d.gifts > 0 group by 1) t"
            .to_owned()
    } else {
        format!(
            "select date_trunc('month', c.paid_at at time zone $5)::date as month,
                    {DONORS} as donors
             from contributions c where c.paid_at >= $3 and c.paid_at < $4
             group by grouping sets ((1), ())"
        )
    };
    let sql = format!(
        "with months as (
             select g::date as month
             from generate_series(date_trunc('month', $1::date), $2::date, interval '1 month') g
             union all select null
         ), money as (
             select date_trunc('month', d.day)::date as month, sum(d.gifts) as gifts, sum(d.gross) as gross,
                    sum(d.refunds) as refunds, sum(d.net) as net, sum(d.fees) as fees,
                    sum(d.recurring_gross) as recurring_gross
             from contribution_days d where d.day between $1 and $2
             group by grouping sets ((1), ())
         ), donors as ({donors}), firsts as (
             select date_trunc('month', f.first_paid_at at time zone $5)::date as month, count(*) as new_donors
             from donor_firsts f where f.first_paid_at >= $3 and f.first_paid_at < $4
             group by grouping sets ((1), ())
         )
         select array[coalesce(to_char(k.month, 'YYYY-MM'), 'Total'),
                      coalesce(m.gifts, 0)::text, coalesce(d.donors, 0)::text, coalesce(f.new_donors, 0)::text,
                      coalesce(m.gross, 0){MONEY}, coalesce(m.refunds, 0){MONEY}, coalesce(m.net, 0){MONEY},
                      coalesce(m.fees, 0){MONEY}, coalesce(m.recurring_gross, 0){MONEY},
                      (case when m.gifts > 0 then round(m.gross / m.gifts, 2) else 0 end){MONEY}]
         from months k
         left join money m on m.month is not distinct from k.month
         left join donors d on d.month is not distinct from k.month
         left join firsts f on f.month is not distinct from k.month
         order by k.month nulls last"
    );
    let rows = sqlx::query_scalar::<_, Vec<Option<String>>>(sqlx::AssertSqlSafe(sql))
        .bind(range.from)
        .bind(range.to)
        .bind(range.lo)
        .bind(range.hi)
        .bind(&range.tz)
        .bind(months.map(|m| m.0))
        .bind(months.map(|m| m.1))
        .fetch_all(conn)
        .await?;
    Ok(cells(rows))
}
