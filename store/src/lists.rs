//! CRM lists. A query list holds the contacts whose origin code it selects; an upload list holds its member rows.
//! The tenant view `crm_list_contacts (list_id, contact_id)` is that rule, once; everything that needs a list's
//! contacts (counts, exports, a mailing's audience, segments) reads it.

use sqlx::PgConnection;

/// How many contacts the list `list_id` holds now (subscribed or not).
pub async fn member_count(conn: &mut PgConnection, list_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(*) from crm_list_contacts where list_id = $1")
        .bind(list_id)
        .fetch_one(conn)
        .await
}

/// Whether a list of this name exists already (names compare without case, as the unique index does).
pub async fn name_taken(conn: &mut PgConnection, name: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from crm_lists where lower(name) = lower($1))")
        .bind(name)
        .fetch_one(conn)
        .await
}
