//! LYBUNT and SYBUNT donors as of the range's last day: the contacts whose last counted gift (`contact_giving`)
//! falls in the tenant function `lapsed_window(kind, day)`, where the rule is written once (`lybunt_contacts` and
//! `sybunt_contacts` read it too). A counted gift is theirs too: positive and not refunded (`refunded_at` unset).
//! The window's bounds are read once and the rollup through its `last_gift_at` index: counting the donors costs
//! an index-only scan, and the rows shown are the top of that scan by lifetime giving.

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

fn window_kind(kind: ReportKind) -> &'static str {
    if kind == ReportKind::Lybunt {
        "lybunt"
    } else {
        "sybunt"
    }
}

/// The lapsed donors' `contact_giving` rows, `$1` the day and `$K` the window's kind. A deleted contact's gifts
/// lose their contact, so its rollup row has no last gift and is never inside the window.
fn lapsed_where(k: usize) -> String {
    format!(
        "g.last_gift_at >= (select w.lo from lapsed_window(${k}, $1) w)
         and g.last_gift_at < (select w.hi from lapsed_window(${k}, $1) w)"
    )
}

pub async fn count(
    conn: &mut PgConnection,
    kind: ReportKind,
    range: &ReportRange,
) -> Result<i64, ReportError> {
    Ok(sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!(
        "select count(*) from contact_giving g where {}",
        lapsed_where(2)
    )))
    .bind(range.to)
    .bind(window_kind(kind))
    .fetch_one(conn)
    .await?)
}

/// Most lifetime giving first (the order of the page and the files). The donors' counted gifts, last gift and
/// lifetime come from `contact_giving` (the rollup the lapsed rule reads); only the rows shown read their gifts of
/// the last fiscal year.
fn rows_sql() -> String {
    format!(
        "with top as (
             select g.contact_id, g.last_gift_at, g.gifts, g.total
             from contact_giving g
             where {lapsed}
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
         order by t.total desc, t.contact_id",
        lapsed = lapsed_where(4)
    )
}

pub async fn rows(
    conn: &mut PgConnection,
    kind: ReportKind,
    range: &ReportRange,
    limit: Option<i64>,
) -> Result<Vec<Vec<String>>, ReportError> {
    let rows = sqlx::query_scalar::<_, Vec<Option<String>>>(sqlx::AssertSqlSafe(rows_sql()))
        .bind(range.to)
        .bind(&range.tz)
        .bind(limit)
        .bind(window_kind(kind))
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
    sqlx::query_scalar::<_, Vec<Option<String>>>(sqlx::AssertSqlSafe(rows_sql()))
        .bind(range.to)
        .bind(range.tz.clone())
        .bind(None::<i64>)
        .bind(window_kind(kind))
        .fetch(conn)
        .map(|row| {
            row.map(|cells| cells.into_iter().map(Option::unwrap_or_default).collect())
                .map_err(ReportError::from)
        })
        .boxed()
}
