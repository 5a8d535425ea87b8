//! The gift table: a page of a range's gifts by filter and sort, their count, an export's rows as the database sends
//! them, and one contact's gifts and giving summary (docs/metrics.md).

use super::{Range, NET, REFUNDED};
use chrono::{DateTime, Utc};
use futures_util::stream::BoxStream;
use futures_util::StreamExt;
use sqlx::PgConnection;

/// One line of the gift table.
#[derive(Debug, sqlx::FromRow)]
pub struct GiftRow {
    pub id: i64,
    pub platform: String,
    pub line_item_id: String,
    pub paid_at: DateTime<Utc>,
    pub amount: String,
    pub fee: Option<String>,
    pub refcode: Option<String>,
    pub source_code_id: Option<i64>,
    pub fundraising_page: Option<String>,
    pub recurring: bool,
    pub recurring_months: Option<i32>,
    pub refunded: bool,
    pub refunded_at: Option<DateTime<Utc>>,
    pub email: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub contact_id: Option<i64>,
    pub mailing_id: Option<i64>,
    pub mailing_name: Option<String>,
    /// refcode, click or none: the rule that credited the gift to its mailing.
    pub attribution: String,
}

/// A gift with its time written in the client's zone (Postgres holds the zone database).
#[derive(Debug, sqlx::FromRow)]
pub struct ExportRow {
    #[sqlx(flatten)]
    pub gift: GiftRow,
    pub local_time: String,
}

/// The gift table's filters; exports take the same.
#[derive(Debug, Clone, Default)]
pub struct GiftFilter {
    pub source_code_id: Option<i64>,
    pub refunded: Option<bool>,
    pub recurring: Option<bool>,
    /// A LIKE pattern over e-mail, refcode, page and name, already escaped (`crate::like`).
    pub text: Option<String>,
}

/// What the table can be sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortColumn {
    PaidAt,
    Amount,
    Refcode,
    FundraisingPage,
    Email,
}

/// A sort of the table: a column, then the line's id the same way, so pages never overlap.
#[derive(Debug, Clone, Copy)]
pub struct Sort {
    pub column: SortColumn,
    pub descending: bool,
}

impl Sort {
    fn sql(self) -> String {
        // paid_at and amount are never null: a nulls clause there would only stop the planner from reading the
        // paid_at index backwards for the default sort (it then sorted a month of gifts for one page).
        let (column, nullable) = match self.column {
            SortColumn::PaidAt => ("c.paid_at", false),
            SortColumn::Amount => ("c.amount", false),
            SortColumn::Refcode => ("c.refcode", true),
            SortColumn::FundraisingPage => ("c.fundraising_page", true),
            SortColumn::Email => ("c.email", true),
        };
        match (self.descending, nullable) {
            (true, true) => format!("{column} desc nulls last, c.id desc"),
            (true, false) => format!("{column} desc, c.id desc"),
            (false, true) => format!("{column} asc nulls first, c.id asc"),
            (false, false) => format!("{column} asc, c.id asc"),
        }
    }
}

/// The most rows one export holds.
pub const EXPORT_LIMIT: i64 = 1_000_000;

/// Filters are fixed SQL with nullable parameters ($1, $2 = the range; $3–$6 = the filters), so no input is
/// ever spliced into the statement.
const GIFT_WHERE: &str = "where c.paid_at >= $1 and c.paid_at < $2
      and ($3::bigint is null or c.source_code_id = $3)
      and ($4::boolean is null or (c.refund_id is not null or c.refunded_at is not null) = $4)
      and ($5::boolean is null or (c.recurring_months is not null) = $5)
      and ($6::text is null or c.email ilike $6 escape '\\' or c.refcode ilike $6 escape '\\'
           or c.fundraising_page ilike $6 escape '\\'
           or (coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')) ilike $6 escape '\\')";

const GIFT_COLUMNS: &str = "c.id, c.platform, c.line_item_id, c.paid_at, c.amount::text as amount,
        c.fee::text as fee, c.refcode, c.source_code_id, c.fundraising_page,
        c.recurring_months is not null as recurring, c.recurring_months,
        (c.refund_id is not null or c.refunded_at is not null) as refunded, c.refunded_at, c.email,
        c.first_name, c.last_name, c.contact_id, c.mailing_id, m.name as mailing_name, c.attribution";
const GIFT_FROM: &str = "from contributions c left join mailings m on m.id = c.mailing_id";

/// The filtered gifts in `order` (SQL built here from [`Sort`] or a constant); `$9` is the client's zone, for the
/// local time of exports.
fn query<'q, T>(
    range: &'q Range,
    filter: &'q GiftFilter,
    order: &str,
    limit: i64,
    offset: i64,
) -> sqlx::query::QueryAs<'q, sqlx::Postgres, T, sqlx::postgres::PgArguments>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>,
{
    sqlx::query_as::<_, T>(sqlx::AssertSqlSafe(format!(
        "select {GIFT_COLUMNS}, to_char(c.paid_at at time zone $9, 'YYYY-MM-DD HH24:MI:SS') as local_time
         {GIFT_FROM} {GIFT_WHERE} order by {order} limit $7 offset $8"
    )))
    .bind(range.lo)
    .bind(range.hi)
    .bind(filter.source_code_id)
    .bind(filter.refunded)
    .bind(filter.recurring)
    .bind(&filter.text)
    .bind(limit)
    .bind(offset)
    .bind(&range.tz)
}

/// How many gifts of the range match the filters, across all pages.
pub async fn count(
    conn: &mut PgConnection,
    range: &Range,
    filter: &GiftFilter,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "select count(*) from contributions c {GIFT_WHERE}"
    )))
    .bind(range.lo)
    .bind(range.hi)
    .bind(filter.source_code_id)
    .bind(filter.refunded)
    .bind(filter.recurring)
    .bind(&filter.text)
    .fetch_one(conn)
    .await
}

/// One page of the filtered gifts.
pub async fn page(
    conn: &mut PgConnection,
    range: &Range,
    filter: &GiftFilter,
    sort: Sort,
    limit: i64,
    offset: i64,
) -> Result<Vec<GiftRow>, sqlx::Error> {
    query(range, filter, &sort.sql(), limit, offset)
        .fetch_all(conn)
        .await
}

/// Every filtered gift (at most [`EXPORT_LIMIT`]) by time, as the database sends them: an export holds a few
/// rows at a time, not the file.
pub fn export<'a>(
    conn: &'a mut PgConnection,
    range: &'a Range,
    filter: &'a GiftFilter,
) -> BoxStream<'a, Result<ExportRow, sqlx::Error>> {
    query::<ExportRow>(range, filter, "c.paid_at, c.id", EXPORT_LIMIT, 0)
        .fetch(conn)
        .boxed()
}

/// A contact's gifts, newest first (at most 500).
pub async fn of_contact(
    conn: &mut PgConnection,
    contact_id: i64,
) -> Result<Vec<GiftRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {GIFT_COLUMNS} {GIFT_FROM} where c.contact_id = $1 order by c.paid_at desc, c.id desc limit 500"
    )))
    .bind(contact_id)
    .fetch_all(conn)
    .await
}

/// A contact's giving, by the definitions of docs/metrics.md.
#[derive(Debug, sqlx::FromRow)]
pub struct ContactGiving {
    pub first_gift: Option<DateTime<Utc>>,
    pub last_gift: Option<DateTime<Utc>>,
    /// Highest previous contribution (not refunded).
    pub hpc: Option<String>,
    /// Most recent contribution (not refunded).
    pub mrc: Option<String>,
    /// The contact's net.
    pub total: String,
    pub count: i64,
    pub sustainer: bool,
    /// prospect, first-time donor, repeat donor, sustainer or lapsed
    pub category: String,
}

/// The contact categories, in the order they are decided (docs/metrics.md).
const CONTACT_CATEGORY_SQL: &str = "case
      when exists (select 1 from contributions c where c.contact_id = k.id and c.amount > 0
                     and c.recurring_months is not null
                     and not (c.refund_id is not null or c.refunded_at is not null)
                     and c.paid_at >= now() - interval '35 days') then 'sustainer'
      when g.last_gift is null then 'prospect'
      when g.last_gift <= now() - interval '13 months' then 'lapsed'
      when g.count >= 2 then 'repeat donor'
      else 'first-time donor' end";

/// The contact's giving summary; `None` when there is no such contact.
pub async fn contact_giving(
    conn: &mut PgConnection,
    contact_id: i64,
) -> Result<Option<ContactGiving>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with g as (
             select min(c.paid_at) filter (where c.amount > 0) as first_gift,
                    max(c.paid_at) filter (where c.amount > 0) as last_gift,
                    max(c.amount) filter (where c.amount > 0 and not {REFUNDED}) as hpc,
                    (array_agg(c.amount order by c.paid_at desc, c.id desc)
                       filter (where c.amount > 0 and not {REFUNDED}))[1] as mrc,
                    coalesce(sum({NET}), 0) as total,
                    count(*) filter (where c.amount > 0) as count
             from contributions c where c.contact_id = $1
         )
         select g.first_gift, g.last_gift, g.hpc::text as hpc, g.mrc::text as mrc,
                g.total::numeric(20, 2)::text as total, g.count,
                ({CONTACT_CATEGORY_SQL}) = 'sustainer' as sustainer,
                {CONTACT_CATEGORY_SQL} as category
         from contacts k cross join g where k.id = $1"
    )))
    .bind(contact_id)
    .fetch_optional(conn)
    .await
}
