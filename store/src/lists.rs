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
