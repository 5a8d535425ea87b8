//! LYBUNT and SYBUNT donors as of the range's last day, by the tenant functions `lybunt_contacts(day)` and
//! `sybunt_contacts(day)` (the rule is written there once, on `contact_giving`). A counted gift is theirs too:
//! positive and not refunded (`refunded_at` unset).

use super::{cells, col, Column, ColumnKind::*, ReportError, ReportKind, ReportRange, MONEY};
use futures_util::stream::BoxStream;
use futures_util::StreamExt;
use sqlx::PgConnection;

pub const COLUMNS: &[Column] = &[
    col("contactId", "Contact ID", Integer),
    col("email", "Email", Text),
    col("firstName", "First name", Text),
    col("lastName", "Last name", Text),
    col("lastGift", "Last gift", Date),
    col("gifts", "Gifts", Integer),
    col("lastFiscalYear", "Last fiscal year", Money),
    col("lifetime", "Lifetime", Money),
    col("subscription", "Subscription", Text),
];

fn function(kind: ReportKind) -> &'static str {
    if kind == ReportKind::Lybunt {
        "lybunt_contacts"
    } else {
        "sybunt_contacts"
    }
}

pub async fn count(
    conn: &mut PgConnection,
    kind: ReportKind,
    range: &ReportRange,
) -> Result<i64, ReportError> {
    let f = function(kind);
    Ok(sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!(
        "select count(*) from {f}($1) l join contacts k on k.id = l.contact_id"
    )))
    .bind(range.to)
    .fetch_one(conn)
    .await?)
}

/// Most lifetime giving first (the order of the page and the files). The donors' counted gifts, last gift and
/// lifetime come from `contact_giving` (the rollup the lapsed rule reads); only the rows shown read their gifts of
/// the last fiscal year.
fn rows_sql(kind: ReportKind) -> String {
    let f = function(kind);
    format!(
        "with top as (
             select g.contact_id, g.last_gift_at, g.gifts, g.total
             from {f}($1) l join contact_giving g on g.contact_id = l.contact_id
             order by g.total desc, g.contact_id
             limit $3
         )
         select array[k.id::text, k.email, k.first_name, k.last_name, (t.last_gift_at at time zone $2)::date::text,
                      t.gifts::text, coalesce(y.last_year, 0){MONEY}, t.total{MONEY}, k.subscription]
         from top t join contacts k on k.id = t.contact_id
         cross join lateral (
             select sum(c.amount) as last_year from contributions c
             where c.contact_id = t.contact_id and c.amount > 0 and c.refunded_at is null
               and c.paid_at >= client_day_start((fiscal_year_start($1) - interval '1 year')::date)
               and c.paid_at < client_day_start(fiscal_year_start($1))
         ) y
         order by t.total desc, t.contact_id"
    )
}

pub async fn rows(
    conn: &mut PgConnection,
    kind: ReportKind,
    range: &ReportRange,
    limit: Option<i64>,
) -> Result<Vec<Vec<String>>, ReportError> {
    let rows = sqlx::query_scalar::<_, Vec<Option<String>>>(sqlx::AssertSqlSafe(rows_sql(kind)))
        .bind(range.to)
        .bind(&range.tz)
        .bind(limit)
        .fetch_all(conn)
        .await?;
    Ok(cells(rows))
}

/// Every row, as the database sends them.
pub fn stream<'c>(
    conn: &'c mut PgConnection,
    kind: ReportKind,
    range: &ReportRange,
) -> BoxStream<'c, Result<Vec<String>, ReportError>> {
    sqlx::query_scalar::<_, Vec<Option<String>>>(sqlx::AssertSqlSafe(rows_sql(kind)))
        .bind(range.to)
        .bind(range.tz.clone())
        .bind(None::<i64>)
        .fetch(conn)
        .map(|row| {
            row.map(|cells| cells.into_iter().map(Option::unwrap_or_default).collect())
                .map_err(ReportError::from)
        })
        .boxed()
}
