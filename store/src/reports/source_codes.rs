//! Source-code performance: every source code with lines in the range, most net first.

use super::{cells, col, Column, ColumnKind::*, ReportError, ReportRange, DONORS, MONEY, NET};
use sqlx::PgConnection;

pub const COLUMNS: &[Column] = &[
    col("code", "Source code", Text),
    col("channel", "Channel", Text),
    col("campaign", "Campaign", Text),
    col("mailing", "Mailing", Text),
    col("gifts", "Gifts", Integer),
    col("donors", "Donors", Integer),
    col("gross", "Gross", Money),
    col("refunds", "Refunds", Money),
    col("net", "Net", Money),
    col("averageGift", "Average gift", Money),
];

pub async fn rows(
    conn: &mut PgConnection,
    range: &ReportRange,
) -> Result<Vec<Vec<String>>, ReportError> {
    let sql = format!(
        "with a as (
             select c.source_code_id, count(*) filter (where c.amount > 0) as gifts,
                    {DONORS} as donors,
                    coalesce(sum(c.amount) filter (where c.amount > 0), 0) as gross,
                    coalesce(sum({NET}), 0) as net
             from contributions c
             where c.paid_at >= $1 and c.paid_at < $2 and c.source_code_id is not null
             group by c.source_code_id
         )
         select array[s.code, case when s.parsed then coalesce(s.channel, 'unparsed') else 'unparsed' end,
                      coalesce(s.campaign, ''), coalesce(m.name, ''), a.gifts::text, a.donors::text,
                      a.gross{MONEY}, (a.gross - a.net){MONEY}, a.net{MONEY},
                      (case when a.gifts > 0 then round(a.gross / a.gifts, 2) else 0 end){MONEY}]
         from a join source_codes s on s.id = a.source_code_id left join mailings m on m.id = s.mailing_id
         order by a.net desc, s.code"
    );
    let rows = sqlx::query_scalar::<_, Vec<Option<String>>>(sqlx::AssertSqlSafe(sql))
        .bind(range.lo)
        .bind(range.hi)
        .fetch_all(conn)
        .await?;
    Ok(cells(rows))
}
