//! The files "Build Report" jobs made: one `report_files` row each, its bytes in `report_file_chunks` of 1 MB, so
//! keeping and serving a file never holds more than a chunk.

use super::super::{ReportError, ReportKind};
use super::{file_name, Format};
use chrono::NaiveDate;
use futures_util::stream::BoxStream;
use futures_util::StreamExt;
use sqlx::PgConnection;
use std::io::Read;

const CHUNK: usize = 1 << 20;

/// What a stored file is; its bytes are read with [`chunks`].
#[derive(Debug, sqlx::FromRow)]
pub struct StoredFile {
    pub id: i64,
    pub file_name: String,
    pub format: String,
    pub rows: i64,
}

/// Keeps the file a job built, read from `file` a chunk at a time; a second call for the same job keeps the first.
/// Returns the file's id.
#[allow(clippy::too_many_arguments)]
pub async fn save(
    conn: &mut PgConnection,
    job_id: i64,
    kind: ReportKind,
    from: NaiveDate,
    to: NaiveDate,
    format: Format,
    rows: i64,
    file: std::fs::File,
) -> Result<i64, ReportError> {
    let (id, fresh): (i64, bool) = sqlx::query_as(
        "insert into report_files (job_id, kind, format, from_date, to_date, file_name, rows)
         values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (job_id) do update set job_id = excluded.job_id
         returning id, xmax = 0",
    )
    .bind(job_id)
    .bind(kind.key())
    .bind(format.key())
    .bind(from)
    .bind(to)
    .bind(file_name(kind, from, to, format))
    .bind(rows)
    .fetch_one(&mut *conn)
    .await?;
    if !fresh {
        return Ok(id);
    }
    let mut reader = std::io::BufReader::with_capacity(CHUNK, file);
    let mut seq = 0i32;
    loop {
        let (back, chunk) = tokio::task::spawn_blocking(move || {
            let chunk = read_chunk(&mut reader);
            (reader, chunk)
        })
        .await
        .map_err(|e| ReportError::File(e.to_string()))?;
        reader = back;
        let chunk = chunk?;
        if chunk.is_empty() {
            break;
        }
        sqlx::query("insert into report_file_chunks (file_id, seq, bytes) values ($1, $2, $3)")
            .bind(id)
            .bind(seq)
            .bind(chunk)
            .execute(&mut *conn)
            .await?;
        seq += 1;
    }
    Ok(id)
}

/// Up to a chunk's bytes; empty at the end of the file.
fn read_chunk(reader: &mut impl Read) -> Result<Vec<u8>, ReportError> {
    let mut chunk = Vec::with_capacity(CHUNK);
    reader
        .take(CHUNK as u64)
        .read_to_end(&mut chunk)
        .map_err(|e| ReportError::File(e.to_string()))?;
    Ok(chunk)
}

pub async fn load(conn: &mut PgConnection, id: i64) -> Result<Option<StoredFile>, ReportError> {
    Ok(sqlx::query_as::<_, StoredFile>(
        "select id, file_name, format, rows from report_files where id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?)
}

/// The file's bytes in order, a chunk at a time as the database sends them.
pub fn chunks(conn: &mut PgConnection, id: i64) -> BoxStream<'_, Result<Vec<u8>, ReportError>> {
    sqlx::query_scalar::<_, Vec<u8>>(
        "select bytes from report_file_chunks where file_id = $1 order by seq",
    )
    .bind(id)
    .fetch(conn)
    .map(|chunk| chunk.map_err(ReportError::from))
    .boxed()
}
