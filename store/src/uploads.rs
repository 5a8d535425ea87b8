//! Uploaded files kept in the client's schema, in chunks, for the import jobs that read them.

use sqlx::PgConnection;

/// Registers an upload; returns its id. Its content follows with [`add_chunk`].
pub async fn insert(
    conn: &mut PgConnection,
    filename: &str,
    size: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("insert into uploads (filename, size) values ($1, $2) returning id")
        .bind(filename)
        .bind(size)
        .fetch_one(conn)
        .await
}

/// Stores the upload's chunk number `seq` (from 0).
pub async fn add_chunk(
    conn: &mut PgConnection,
    upload_id: i64,
    seq: i32,
    data: Vec<u8>,
) -> Result<(), sqlx::Error> {
    sqlx::query("insert into upload_chunks (upload_id, seq, data) values ($1, $2, $3)")
        .bind(upload_id)
        .bind(seq)
        .bind(data)
        .execute(conn)
        .await?;
    Ok(())
}
