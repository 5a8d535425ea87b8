//! CRM lists. A query list holds the contacts whose origin code it selects; an upload list holds its member rows.
//! The tenant view `crm_list_contacts (list_id, contact_id)` is that rule, once; everything that needs a list's
//! contacts (counts, exports, a mailing's audience, segments) reads it.

use chrono::{DateTime, Utc};
use futures_core::stream::BoxStream;
use sqlx::PgConnection;

/// A list with its origin codes as (id, name), by name.
#[derive(Debug, sqlx::FromRow)]
pub struct List {
    pub id: i64,
    pub name: String,
    pub count: i32,
    pub created: DateTime<Utc>,
    /// `query` or `upload`.
    pub kind: String,
    pub origin_codes: sqlx::types::Json<Vec<(i64, String)>>,
}

/// Lists with their origin codes, newest first; `id` filters to one list when given.
pub async fn lists(conn: &mut PgConnection, id: Option<i64>) -> Result<Vec<List>, sqlx::Error> {
    sqlx::query_as(
        "select l.id, l.name, l.count, l.created, l.kind,
                coalesce((select json_agg(json_build_array(o.id, o.name) order by o.name)
                          from origin_codes o where o.id = any (l.origin_code_ids)), '[]') as origin_codes
         from crm_lists l where $1::bigint is null or l.id = $1
         order by l.created desc, l.id desc",
    )
    .bind(id)
    .fetch_all(conn)
    .await
}

/// The kind of the list `id` (`query` or `upload`), or None when there is no such list.
pub async fn kind(conn: &mut PgConnection, id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("select kind from crm_lists where id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// Adds a query list selecting `origin_code_ids` (distinct, all known); its count is still 0.
pub async fn insert_query_list(
    conn: &mut PgConnection,
    name: &str,
    origin_code_ids: &[i64],
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "insert into crm_lists (name, kind, origin_code_ids) values ($1, 'query', $2) returning id",
    )
    .bind(name)
    .bind(origin_code_ids)
    .fetch_one(conn)
    .await
}

/// A member as the list's CSV has it: e-mail, first and last name, origin code.
pub type ExportRow = (String, String, String, Option<String>);

/// The list's members by e-mail, read as they are sent on.
pub fn export_rows(
    conn: &mut PgConnection,
    list_id: i64,
) -> BoxStream<'_, Result<ExportRow, sqlx::Error>> {
    sqlx::query_as(
        "select c.email, c.first_name, c.last_name, o.name
         from crm_list_contacts lc
         join contacts c on c.id = lc.contact_id
         left join origin_codes o on o.id = c.origin_code_id
         where lc.list_id = $1
         order by c.email",
    )
    .bind(list_id)
    .fetch(conn)
}

/// Recounts every list in one set-based statement; returns (lists, lists whose count changed). Running it twice
/// gives the same counts.
pub async fn recount_all(conn: &mut PgConnection) -> Result<(i64, i64), sqlx::Error> {
    sqlx::query_as(
        "with counted as (
             select l.id, (select count(*) from crm_list_contacts lc where lc.list_id = l.id)::integer as n
             from crm_lists l
         ), updated as (
             update crm_lists l set count = counted.n
             from counted where l.id = counted.id and l.count <> counted.n
             returning l.id
         )
         select (select count(*) from counted), (select count(*) from updated)",
    )
    .fetch_one(conn)
    .await
}

/// Stores the number of contacts the list `list_id` holds now (subscribed or not) as its count.
pub async fn refresh_count(conn: &mut PgConnection, list_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update crm_lists set count = (select count(*) from crm_list_contacts where list_id = $1)::integer
         where id = $1",
    )
    .bind(list_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether a list of this name exists already (names compare without case, as the unique index does).
pub async fn name_taken(conn: &mut PgConnection, name: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from crm_lists where lower(name) = lower($1))")
        .bind(name)
        .fetch_one(conn)
        .await
}

/// One member of a list as its page shows it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Member {
    pub contact_id: i64,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    #[sqlx(try_from = "String")]
    pub subscription: domain::SubscriptionStatus,
}

/// A page of a list's members, by e-mail; `search` matches e-mail or name (any case, as a plain substring).
/// Returns the page and how many members match in all.
pub async fn members(
    conn: &mut PgConnection,
    list_id: i64,
    search: &str,
    offset: i64,
    limit: i64,
) -> Result<(Vec<Member>, i64), sqlx::Error> {
    let pattern = crate::like::containing(&search.trim().to_lowercase());
    let total: i64 = sqlx::query_scalar(
        "select count(*) from crm_list_contacts lc join contacts c on c.id = lc.contact_id
         where lc.list_id = $1
           and ($2 = '%%' or c.email like $2 or lower(c.first_name || ' ' || c.last_name) like $2)",
    )
    .bind(list_id)
    .bind(&pattern)
    .fetch_one(&mut *conn)
    .await?;
    let rows = sqlx::query_as::<_, Member>(
        "select c.id as contact_id, c.email, c.first_name, c.last_name, c.subscription
         from crm_list_contacts lc join contacts c on c.id = lc.contact_id
         where lc.list_id = $1
           and ($2 = '%%' or c.email like $2 or lower(c.first_name || ' ' || c.last_name) like $2)
         order by c.email limit $3 offset $4",
    )
    .bind(list_id)
    .bind(&pattern)
    .bind(limit)
    .bind(offset)
    .fetch_all(&mut *conn)
    .await?;
    Ok((rows, total))
}

/// Takes a contact off an upload list (the contact stays) and recounts the list. False when the contact was not
/// a member. Query lists have no member rows: their members follow from their origin codes.
pub async fn remove_member(
    conn: &mut PgConnection,
    list_id: i64,
    contact_id: i64,
) -> Result<bool, sqlx::Error> {
    let removed =
        sqlx::query("delete from crm_list_members where list_id = $1 and contact_id = $2")
            .bind(list_id)
            .bind(contact_id)
            .execute(&mut *conn)
            .await?
            .rows_affected();
    if removed > 0 {
        sqlx::query(
            "update crm_lists set count = (select count(*) from crm_list_members where list_id = $1) where id = $1",
        )
        .bind(list_id)
        .execute(&mut *conn)
        .await?;
    }
    Ok(removed > 0)
}
