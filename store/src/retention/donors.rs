//! The donors behind any figure of the page (a "cell"), listed or saved as a segment. Each cell's donors are
//! selected by the same SQL as its figure, into a temporary table of the transaction.

use super::cohorts::{cohort_sql, Grain, SourceBy};
use super::{Category, Periods, CLASSIFIED};
use chrono::NaiveDate;
use sqlx::PgConnection;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SustainerStatus {
    Active,
    Started,
    Ended,
}

impl SustainerStatus {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "active" => Some(Self::Active),
            "started" => Some(Self::Started),
            "ended" => Some(Self::Ended),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// A line of the gain/loss report.
    Retention {
        periods: Periods,
        category: Category,
    },
    /// A cohort's donors (every cohort of the source when None), those giving at `age` when given; a source's
    /// donors when neither is given (its lifetime value).
    Cohort {
        grain: Grain,
        by: SourceBy,
        source: String,
        cohort: Option<NaiveDate>,
        age: Option<u32>,
    },
    /// The sustainers active, started or ended in a month.
    Sustainers {
        month: NaiveDate,
        status: SustainerStatus,
    },
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Donor {
    /// Null for a donor known only by e-mail.
    pub contact_id: Option<i64>,
    pub email: Option<String>,
    pub name: String,
    /// For a gain/loss line: their net in the previous and the current period.
    pub previous: Option<String>,
    pub current: Option<String>,
}

/// Fills the temporary table `retention_cell (donor, contact_id, previous, current)` with the cell's donors.
async fn select_cell(conn: &mut PgConnection, cell: &Cell) -> Result<(), sqlx::Error> {
    sqlx::query("drop table if exists pg_temp.retention_cell")
        .execute(&mut *conn)
        .await?;
    let create = "create temp table retention_cell on commit drop as";
    match cell {
        Cell::Retention { periods, category } => {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "{create} with {CLASSIFIED}
                 select donor, contact_id, prev as previous, cur as current from classified where category = $4"
            )))
            .bind(periods.previous_from)
            .bind(periods.from)
            .bind(periods.to)
            .bind(category.id())
            .execute(&mut *conn)
            .await?;
        }
        Cell::Cohort {
            grain,
            by,
            source,
            cohort,
            age,
        } => {
            let (cohort_expr, source_expr) = (cohort_sql(*grain), by.column());
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "{create}
                 select a.donor, a.contact_id, null::numeric as previous, null::numeric as current
                 from donor_acquisition a
                 where {source_expr} = $1 and ($2::date is null or {cohort_expr} = $2)
                   and ($3::int is null or exists (
                         select 1 from donor_months m
                         where m.donor = a.donor and m.net > 0
                           and m.month = (a.first_month + $3::int * interval '1 month')::date))"
            )))
            .bind(source)
            .bind(cohort)
            .bind(age.map(|a| a as i32))
            .execute(&mut *conn)
            .await?;
        }
        Cell::Sustainers { month, status } => {
            let filter = match status {
                SustainerStatus::Active => "s.month = $1",
                SustainerStatus::Started => {
                    "s.month = $1 and (s.before is null or s.before < $1 - interval '1 month')"
                }
                SustainerStatus::Ended => {
                    "s.month = ($1 - interval '1 month')::date and (s.after is null or s.after > $1)"
                }
            };
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "{create} with {}
                 select s.donor, s.contact_id, null::numeric as previous, null::numeric as current
                 from series s where {filter}",
                super::sustainers::SERIES
            )))
            .bind(month)
            .execute(&mut *conn)
            .await?;
        }
    }
    Ok(())
}

/// A page of the cell's donors (by e-mail) and their number.
pub async fn donors(
    conn: &mut PgConnection,
    cell: &Cell,
    page: i64,
    page_size: i64,
) -> Result<(Vec<Donor>, i64), sqlx::Error> {
    select_cell(&mut *conn, cell).await?;
    let total: i64 = sqlx::query_scalar("select count(*) from retention_cell")
        .fetch_one(&mut *conn)
        .await?;
    let rows = sqlx::query_as(
        "select r.contact_id, coalesce(k.email, substr(r.donor, 3)) as email,
                btrim(coalesce(k.first_name, '') || ' ' || coalesce(k.last_name, '')) as name,
                r.previous::numeric(20, 2)::text as previous, r.current::numeric(20, 2)::text as current
         from retention_cell r left join contacts k on k.id = r.contact_id
         order by 2, r.donor limit $1 offset $2",
    )
    .bind(page_size)
    .bind((page - 1).max(0) * page_size)
    .fetch_all(&mut *conn)
    .await?;
    Ok((rows, total))
}

/// Saves the cell's contacts (donors known only by e-mail have no contact and are left out) as an upload list
/// named `name`; answers its id and size. A segment of that list is then the cell as a segment.
pub async fn save_list(
    conn: &mut PgConnection,
    cell: &Cell,
    name: &str,
) -> Result<(i64, i64), sqlx::Error> {
    select_cell(&mut *conn, cell).await?;
    let list_id: i64 = sqlx::query_scalar(
        "insert into crm_lists (name, kind, count)
         values ($1, 'upload', (select count(distinct contact_id) from retention_cell
                                where contact_id is not null)::integer)
         returning id",
    )
    .bind(name)
    .fetch_one(&mut *conn)
    .await?;
    let added = sqlx::query(
        "insert into crm_list_members (list_id, contact_id)
         select distinct $1::bigint, r.contact_id from retention_cell r join contacts k on k.id = r.contact_id",
    )
    .bind(list_id)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    Ok((list_id, added as i64))
}
