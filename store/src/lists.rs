//! CRM lists. A query list holds the contacts whose origin code it selects; an upload list holds its member rows.
//! The tenant view `crm_list_contacts (list_id, contact_id)` is that rule, once; everything that needs a list's
//! contacts (counts, exports, a mailing's audience, segments) reads it.

use sqlx::PgConnection;

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
    let pattern = format!(
        "%{}%",
        search
            .trim()
            .to_lowercase()
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    );
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
