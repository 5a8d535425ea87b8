//! Segments: named rules over a client's contacts (see [`rule`]), turned into one parameterised statement
//! ([`sql`]) and materialised into `segment_members` by the "Update Segment" job. docs/segments.md defines
//! every condition and figure.

pub mod analytics;
mod refs;
pub mod rfm;
pub mod rule;
pub mod sql;

use chrono::{DateTime, Utc};
use sqlx::{AssertSqlSafe, PgConnection};

pub use rule::{parse, RuleError};

#[derive(Debug, thiserror::Error)]
pub enum SegmentError {
    #[error("{0}")]
    Invalid(#[from] RuleError),
    #[error("Segment not found")]
    NotFound,
    #[error("{0}")]
    Conflict(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Segment {
    pub id: i64,
    pub name: String,
    pub rule: sqlx::types::Json<serde_json::Value>,
    pub standard: Option<String>,
    pub size: i32,
    pub previous_size: Option<i32>,
    pub computed: Option<DateTime<Utc>>,
    pub created: DateTime<Utc>,
    pub updated: DateTime<Utc>,
}

const COLUMNS: &str = "id, name, rule, standard, size, previous_size, computed, created, updated";

/// Every segment, standard ones first, then by name.
pub async fn list(conn: &mut PgConnection) -> Result<Vec<Segment>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from segments order by standard is null, lower(name), id"
    )))
    .fetch_all(conn)
    .await
}

pub async fn get(conn: &mut PgConnection, id: i64) -> Result<Segment, SegmentError> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from segments where id = $1"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await?
    .ok_or(SegmentError::NotFound)
}

/// `(id, name)` of every segment, by name: the "segment names" selection data.
pub async fn names(conn: &mut PgConnection) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as("select id, name from segments order by lower(name), id")
        .fetch_all(conn)
        .await
}

/// The longest segment name, in characters.
pub const NAME_MAX: usize = 200;

fn clean_name(raw: &str) -> Result<String, SegmentError> {
    let name = raw.trim();
    if name.is_empty() || name.chars().count() > NAME_MAX {
        return Err(SegmentError::Invalid(RuleError {
            path: "name".to_owned(),
            message: format!("must be 1 to {NAME_MAX} characters"),
        }));
    }
    Ok(name.to_owned())
}

/// Reads a rule and checks that every id it names exists in this client's schema.
async fn checked_rule(
    conn: &mut PgConnection,
    rule: &serde_json::Value,
) -> Result<rule::Group, SegmentError> {
    let group = parse(rule)?;
    match refs::check(conn, &group).await? {
        Some(e) => Err(SegmentError::Invalid(e)),
        None => Ok(group),
    }
}

fn name_taken(e: sqlx::Error) -> SegmentError {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            SegmentError::Conflict("A segment with this name exists".to_owned())
        }
        _ => SegmentError::Db(e),
    }
}

/// Saves a new segment (rule checked first). Its members are computed by the job.
pub async fn create(
    conn: &mut PgConnection,
    name: &str,
    rule: &serde_json::Value,
) -> Result<i64, SegmentError> {
    let name = clean_name(name)?;
    checked_rule(&mut *conn, rule).await?;
    sqlx::query_scalar("insert into segments (name, rule) values ($1, $2) returning id")
        .bind(name)
        .bind(sqlx::types::Json(rule))
        .fetch_one(conn)
        .await
        .map_err(name_taken)
}

/// Renames a segment and replaces its rule. A standard segment keeps its rule; only its name may change.
pub async fn update(
    conn: &mut PgConnection,
    id: i64,
    name: &str,
    rule: &serde_json::Value,
) -> Result<(), SegmentError> {
    let name = clean_name(name)?;
    checked_rule(&mut *conn, rule).await?;
    let done = sqlx::query(
        "update segments set name = $2,
                rule = case when standard is null then $3 else rule end, updated = now()
         where id = $1",
    )
    .bind(id)
    .bind(name)
    .bind(sqlx::types::Json(rule))
    .execute(conn)
    .await
    .map_err(name_taken)?;
    if done.rows_affected() == 0 {
        return Err(SegmentError::NotFound);
    }
    Ok(())
}

/// Deletes a user's segment; standard segments stay.
pub async fn delete(conn: &mut PgConnection, id: i64) -> Result<(), SegmentError> {
    let seg = get(conn, id).await?;
    if seg.standard.is_some() {
        return Err(SegmentError::Conflict(
            "Standard segments cannot be deleted".to_owned(),
        ));
    }
    sqlx::query("delete from segments where id = $1")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// How many contacts a rule selects now, without saving anything.
pub async fn preview_count(
    conn: &mut PgConnection,
    rule: &serde_json::Value,
) -> Result<i64, SegmentError> {
    let rule = checked_rule(&mut *conn, rule).await?;
    let (text, values) = sql::count_statement(&rule);
    Ok(
        sqlx::query_scalar_with(AssertSqlSafe(text), sql::arguments(&values)?)
            .fetch_one(conn)
            .await?,
    )
}

/// What a compute did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Computed {
    pub size: i32,
    pub previous_size: i32,
}

/// Materialises the segment's members. Run it inside the caller's transaction: the old rows go and the new ones
/// come in that one transaction, so a reader sees the whole old membership or the whole new one. The segment's
/// row is locked first, so two computes of one segment run one after the other.
pub async fn compute(conn: &mut PgConnection, id: i64) -> Result<Computed, SegmentError> {
    let (rule, previous): (sqlx::types::Json<serde_json::Value>, i32) =
        sqlx::query_as("select rule, size from segments where id = $1 for update")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or(SegmentError::NotFound)?;
    let rule = parse(&rule.0)?;
    let watched = crate::journeys::events::remember_segment(conn, id).await?;
    sqlx::query("delete from segment_members where segment_id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    let (text, values) = sql::insert_members_statement(&rule, id);
    let inserted = sqlx::query_with(AssertSqlSafe(text), sql::arguments(&values)?)
        .execute(&mut *conn)
        .await?
        .rows_affected();
    let size = i32::try_from(inserted).unwrap_or(i32::MAX);
    if watched {
        crate::journeys::events::segment_entries(conn, id).await?;
    }
    sqlx::query(
        "update segments set previous_size = case when computed is null then null else size end,
                size = $2, computed = now()
         where id = $1",
    )
    .bind(id)
    .bind(size)
    .execute(&mut *conn)
    .await?;
    Ok(Computed {
        size,
        previous_size: previous,
    })
}

/// Every segment's id, standard ones first (segments that read other segments usually read those).
pub async fn all_ids(conn: &mut PgConnection) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar("select id from segments order by standard is null, id")
        .fetch_all(conn)
        .await
}

/// A member as the sample shows it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Member {
    pub contact_id: i64,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    /// Highest previous contribution, decimal text; none for a contact who never gave.
    pub hpc: Option<String>,
    pub last_gift_at: Option<DateTime<Utc>>,
}

/// One page of members (by e-mail), and the total.
pub async fn members_page(
    conn: &mut PgConnection,
    id: i64,
    page: i64,
    page_size: i64,
) -> Result<(Vec<Member>, i64), SegmentError> {
    get(conn, id).await?;
    let total: i64 =
        sqlx::query_scalar("select count(*) from segment_members where segment_id = $1")
            .bind(id)
            .fetch_one(&mut *conn)
            .await?;
    let rows = sqlx::query_as(
        "select c.id as contact_id, c.email, c.first_name, c.last_name,
                h.hpc::text as hpc, h.last_gift_at
         from segment_members sm
         join contacts c on c.id = sm.contact_id
         left join lateral (
             select max(g.amount) as hpc, max(g.paid_at) as last_gift_at from contributions g
             where g.contact_id = c.id and g.amount > 0 and g.refunded_at is null
         ) h on true
         where sm.segment_id = $1
         order by c.email
         limit $2 offset $3",
    )
    .bind(id)
    .bind(page_size)
    .bind(page.saturating_sub(1).saturating_mul(page_size))
    .fetch_all(&mut *conn)
    .await?;
    Ok((rows, total))
}

/// Every member for the CSV export: contact id, e-mail, first and last name, by e-mail.
pub async fn members_all(
    conn: &mut PgConnection,
    id: i64,
) -> Result<Vec<(i64, String, String, String)>, SegmentError> {
    get(conn, id).await?;
    Ok(sqlx::query_as(
        "select c.id, c.email, c.first_name, c.last_name
         from segment_members sm join contacts c on c.id = sm.contact_id
         where sm.segment_id = $1 order by c.email",
    )
    .bind(id)
    .fetch_all(conn)
    .await?)
}

/// "Save as list": a new upload list holding the segment's members now. Returns the list id.
pub async fn save_as_list(
    conn: &mut PgConnection,
    id: i64,
    name: &str,
) -> Result<i64, SegmentError> {
    get(conn, id).await?;
    let name = clean_name(name)?;
    let list_id: i64 = sqlx::query_scalar(
        "insert into crm_lists (name, kind, count)
         values ($1, 'upload', (select count(*) from segment_members where segment_id = $2)::integer)
         returning id",
    )
    .bind(name)
    .bind(id)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query(
        "insert into crm_list_members (list_id, contact_id)
         select $1, sm.contact_id from segment_members sm
         join contacts c on c.id = sm.contact_id
         where sm.segment_id = $2",
    )
    .bind(list_id)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(list_id)
}

/// The contact ids a rule selects now, in id order (tests and small previews).
pub async fn preview_members(
    conn: &mut PgConnection,
    rule: &serde_json::Value,
) -> Result<Vec<i64>, SegmentError> {
    let rule = parse(rule)?;
    let (text, values) = sea_query::Query::select()
        .expr(sea_query::Expr::cust("m.id"))
        .from_subquery(sql::members_select(&rule), sea_query::Alias::new("m"))
        .order_by_expr(sea_query::Expr::cust("m.id"), sea_query::Order::Asc)
        .build(sea_query::PostgresQueryBuilder);
    Ok(
        sqlx::query_scalar_with(AssertSqlSafe(text), sql::arguments(&values)?)
            .fetch_all(conn)
            .await?,
    )
}
