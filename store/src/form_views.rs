//! What the public side of forms asks and counts: whether a form takes views and signups, and its view count.

use sqlx::PgConnection;

pub async fn form_enabled(conn: &mut PgConnection, form_id: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from forms where id = $1 and enabled)")
        .bind(form_id)
        .fetch_one(conn)
        .await
}

/// Adds `counts[i]` views to the form `ids[i]`; unknown forms are skipped.
pub async fn add_views(
    conn: &mut PgConnection,
    ids: &[i64],
    counts: &[i64],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update forms f set view_count = f.view_count + v.n
             from unnest($1::bigint[], $2::bigint[]) as v (id, n) where f.id = v.id",
    )
    .bind(ids)
    .bind(counts)
    .execute(conn)
    .await?;
    Ok(())
}
