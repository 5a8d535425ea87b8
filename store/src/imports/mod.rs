//! Imports: the worker's jobs that turn an uploaded file into client data. The upload itself (stored in the
//! client's schema, so any worker host can read it) is read and dropped here; each kind of file has its module
//! with the staging table and the set-based statements that merge it. Everything runs in the job's one
//! transaction: the temp tables are `on commit drop`, and a crash or retry leaves no half import.

pub mod contacts;
pub mod contributions;

use futures_core::stream::BoxStream;
use sqlx::PgConnection;

/// The upload's bytes in order, a chunk at a time as the database sends them; empty when the upload is gone.
pub fn upload_chunks(
    conn: &mut PgConnection,
    upload_id: i64,
) -> BoxStream<'_, Result<Vec<u8>, sqlx::Error>> {
    sqlx::query_scalar::<_, Vec<u8>>(
        "select data from upload_chunks where upload_id = $1 order by seq",
    )
    .bind(upload_id)
    .fetch(conn)
}

/// Drops the upload (its chunks go with it) once its rows are merged, in the same transaction.
pub async fn delete_upload(conn: &mut PgConnection, upload_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("delete from uploads where id = $1")
        .bind(upload_id)
        .execute(conn)
        .await?;
    Ok(())
}
