//! Spare client schemas, made ahead of time so that creating a client is a rename.
//!
//! Beside a thousand schemas a new schema's migrations take about 0.4 s: `alter table … add column … default` costs
//! about 30 ms there (1 ms on an empty database) and the migrations hold six. A spare is a schema named
//! `spare_<hex>` with every tenant migration, listed in `public.spare_schemas`. Creating a client takes the oldest
//! (its row locked `for update skip locked`, so two creations never take the same one), renames it and points its
//! functions' `search_path` (captured by `set search_path from current` when they were made) at the new name.
//! With no spare ready, or only spares of another build's migrations, the schema is made as before.
//!
//! The worker keeps [`DEFAULT_SPARE_SCHEMAS`] ready (`SPARE_SCHEMAS`), checking every minute, one process at a
//! time (an advisory lock); `api clients prepare-spares` makes them by hand.

use crate::migrate::quote_ident;
use crate::{Tenancy, TenancyError};
use sqlx::{AssertSqlSafe, PgConnection};

/// Spares the worker keeps ready: a few clients created within a minute all get one.
pub const DEFAULT_SPARE_SCHEMAS: usize = 2;

/// The top-up's advisory lock: the sign bit set, which no `try_exclusive` key of a client id below 2^31 has.
const SPARES_LOCK: i64 = i64::MIN | 0x5350_4152;

impl Tenancy {
    /// Makes one spare schema holding every tenant migration; returns its name.
    pub async fn add_spare_schema(&self) -> Result<String, TenancyError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("select set_config('search_path', 'public', true)")
            .execute(&mut *tx)
            .await?;
        let schema: String = sqlx::query_scalar(
            "insert into spare_schemas (schema_name)
             values ('spare_' || substr(md5(random()::text || clock_timestamp()::text), 1, 16))
             returning schema_name",
        )
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query(AssertSqlSafe(format!(
            "create schema {}",
            quote_ident(&schema)
        )))
        .execute(&mut *tx)
        .await?;
        self.migrate_new_schema(&mut tx, &schema).await?;
        tx.commit().await?;
        tracing::info!(schema, "spare schema made");
        Ok(schema)
    }

    /// Drops the spares this build cannot use, then makes spares until `target` are ready; returns how many it
    /// made.
    pub async fn top_up_spares(&self, target: usize) -> Result<usize, TenancyError> {
        // One process tops up at a time, so several workers starting together make `target` spares, not one set
        // each; the others skip this round.
        let Some(_lock) = self.try_lock(SPARES_LOCK).await? else {
            return Ok(0);
        };
        self.top_up_spares_locked(target).await
    }

    async fn top_up_spares_locked(&self, target: usize) -> Result<usize, TenancyError> {
        let mut tx = self.public().await?;
        let spares: Vec<String> =
            sqlx::query_scalar("select schema_name from spare_schemas order by created")
                .fetch_all(&mut *tx)
                .await?;
        tx.commit().await?;
        let names: Vec<&str> = spares.iter().map(String::as_str).collect();
        let applied = self.applied_by_schema(&names).await?;
        let mut ready = 0;
        for spare in names {
            if self.is_current(applied.get(spare).map_or(&[][..], Vec::as_slice)) {
                ready += 1;
            } else {
                let mut tx = self.pool.begin().await?;
                let dropped = take_row(&mut tx, Some(spare)).await?;
                if let Some(schema) = dropped {
                    drop_schema(&mut tx, &schema).await?;
                }
                tx.commit().await?;
            }
        }
        let mut made = 0;
        while ready + made < target {
            self.add_spare_schema().await?;
            made += 1;
        }
        Ok(made)
    }

    /// Inside a client's creation transaction: renames a ready spare to `schema` and answers true, or answers
    /// false when none is ready. Spares this build cannot use are dropped on the way.
    pub(crate) async fn take_spare(
        &self,
        conn: &mut PgConnection,
        schema: &str,
    ) -> Result<bool, TenancyError> {
        while let Some(spare) = take_row(conn, None).await? {
            // Removed by hand, or left by a failed drop: its row goes with this transaction.
            let exists: bool = sqlx::query_scalar(
                "select to_regclass(format('%I._sqlx_migrations', $1::text)) is not null",
            )
            .bind(&spare)
            .fetch_one(&mut *conn)
            .await?;
            if !exists {
                continue;
            }
            let applied: Vec<(i64, Vec<u8>, bool)> = sqlx::query_as(AssertSqlSafe(format!(
                "select version, checksum, success from {}._sqlx_migrations order by version",
                quote_ident(&spare)
            )))
            .fetch_all(&mut *conn)
            .await?;
            if !self.is_current(&applied) {
                drop_schema(conn, &spare).await?;
                continue;
            }
            sqlx::query(AssertSqlSafe(format!(
                "alter schema {} rename to {}",
                quote_ident(&spare),
                quote_ident(schema)
            )))
            .execute(&mut *conn)
            .await?;
            repoint_functions(conn, &spare, schema).await?;
            tracing::info!(spare, schema, "spare schema taken");
            return Ok(true);
        }
        Ok(false)
    }
}

/// Deletes the row of `spare` (or of the oldest spare) unless another transaction holds it; the row stays locked,
/// and gone, until the caller's transaction ends.
async fn take_row(
    conn: &mut PgConnection,
    spare: Option<&str>,
) -> Result<Option<String>, TenancyError> {
    Ok(sqlx::query_scalar(
        "delete from public.spare_schemas
         where schema_name = (select schema_name from public.spare_schemas
                              where $1::text is null or schema_name = $1
                              order by created, schema_name limit 1 for update skip locked)
         returning schema_name",
    )
    .bind(spare)
    .fetch_optional(&mut *conn)
    .await?)
}

async fn drop_schema(conn: &mut PgConnection, schema: &str) -> Result<(), TenancyError> {
    sqlx::query(AssertSqlSafe(format!(
        "drop schema if exists {} cascade",
        quote_ident(schema)
    )))
    .execute(&mut *conn)
    .await?;
    tracing::info!(schema, "spare schema of another build dropped");
    Ok(())
}

/// `set search_path from current` stored the spare's name in each such function's settings; a function left
/// pointing at it would find no tables. Every `search_path` setting of the schema's functions gets the new name.
async fn repoint_functions(
    conn: &mut PgConnection,
    from: &str,
    to: &str,
) -> Result<(), TenancyError> {
    let settings: Vec<(String, String)> = sqlx::query_as(
        "select p.oid::regprocedure::text, substr(c, length('search_path=') + 1)
         from pg_proc p cross join lateral unnest(p.proconfig) c
         where p.pronamespace = to_regnamespace($1) and c like 'search_path=%'",
    )
    .bind(quote_ident(to))
    .fetch_all(&mut *conn)
    .await?;
    for (function, path) in settings {
        let path = path
            .split(',')
            .map(|part| {
                let name = part.trim().trim_matches('"');
                if name == from {
                    quote_ident(to)
                } else {
                    part.trim().to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join(", ");
        // `function` is Postgres's own rendering of the signature, `path` the stored list with one name replaced
        // by a quoted identifier.
        sqlx::query(AssertSqlSafe(format!(
            "alter function {function} set search_path = {path}"
        )))
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
