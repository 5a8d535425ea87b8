//! Migrations of `public` and of every client's schema, built for a thousand schemas.
//!
//! `public` runs through sqlx's migrator. Tenant schemas keep sqlx's bookkeeping (each schema has its own
//! `_sqlx_migrations`, same columns, same checksums, so sqlx's own tools read them), but are applied here:
//! sqlx's migrator reads one schema per connection, commits every migration on its own and takes one advisory
//! lock for the whole database, which would serialise every schema behind one another. Instead:
//!
//! - what every schema has applied is read in a few `union all` queries, so a start with nothing pending costs
//!   no connection per schema;
//! - a schema with pending migrations gets them in ONE transaction (one script, one commit), under an advisory
//!   lock of its own, so two starting processes never migrate the same schema at once and the second finds
//!   nothing left to do;
//! - up to [`PARALLEL_SCHEMAS`] schemas migrate at once, and a schema that fails is reported by name after the
//!   others have been migrated.

use crate::{Client, Tenancy, TenancyError};
use futures::stream::{self, StreamExt};
use sqlx::migrate::{Migration, Migrator};
use sqlx::{Connection, PgConnection};
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::atomic::Ordering;

static PUBLIC: Migrator = sqlx::migrate!("../migrations/public");
static TENANT: Migrator = sqlx::migrate!("../migrations/tenant");

/// Schemas migrated at the same time: a few connections, so a start does not take the database's.
pub const PARALLEL_SCHEMAS: usize = 4;

/// Schemas read per query: Postgres parses a `union all` chain recursively, so a thousand branches in one
/// statement could exceed its stack depth.
const SCHEMAS_PER_READ: usize = 200;

/// The table sqlx keeps its bookkeeping in, in each schema (same definition as sqlx's own).
const ENSURE_TABLE: &str = "create table if not exists _sqlx_migrations (
    version bigint primary key,
    description text not null,
    installed_on timestamptz not null default now(),
    success boolean not null,
    checksum bytea not null,
    execution_time bigint not null
)";

/// The tenant migrations this build knows: the embedded ones, plus any an operator adds at run time.
pub(crate) fn embedded_tenant_migrations() -> Vec<Migration> {
    TENANT
        .iter()
        .filter(|m| !m.migration_type.is_down_migration())
        .cloned()
        .collect()
}

/// What a migration pass did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct MigrationReport {
    /// Client schemas looked at.
    pub schemas: usize,
    /// Schemas that had migrations pending and got them.
    pub migrated: Vec<String>,
}

/// A schema whose migrations failed, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaFailure {
    pub schema: String,
    pub error: String,
}

impl fmt::Display for SchemaFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.schema, self.error)
    }
}

/// One schema's `_sqlx_migrations` rows: (version, checksum, success).
type Applied = Vec<(i64, Vec<u8>, bool)>;

impl Tenancy {
    /// Adds the tenant migrations of `dir` (sqlx's file naming) to those built in: an operator's rehearsal of a
    /// new migration, or a benchmark's, without rebuilding.
    pub async fn add_tenant_migrations(&mut self, dir: &Path) -> Result<(), TenancyError> {
        let extra = Migrator::new(dir).await?;
        let mut all: Vec<Migration> = self.tenant_migrations.to_vec();
        for m in extra
            .iter()
            .filter(|m| !m.migration_type.is_down_migration())
        {
            if all.iter().any(|known| known.version == m.version) {
                return Err(TenancyError::DuplicateMigration(m.version));
            }
            all.push(m.clone());
        }
        all.sort_by_key(|m| m.version);
        self.tenant_migrations = all.into();
        self.migrations_current.store(false, Ordering::Relaxed);
        Ok(())
    }

    /// Brings `public` (the registry) up to date: all that creating a client needs, whatever state the other
    /// clients' schemas are in, so the cost of a creation does not grow with the number of clients.
    pub async fn migrate_public(&self) -> Result<(), TenancyError> {
        let mut conn = self.dedicated_connection("public").await?;
        PUBLIC.run(&mut conn).await?;
        conn.close().await?;
        Ok(())
    }

    /// Brings `public` and then every client's schema up to date. Run before new code serves anyone.
    pub async fn migrate_all(&self) -> Result<MigrationReport, TenancyError> {
        self.migrate_public().await?;
        let report = self.migrate_clients(&self.list_clients().await?).await?;
        self.migrations_current.store(true, Ordering::Relaxed);
        Ok(report)
    }

    /// Migrates these clients' schemas, a few at a time; every schema is tried, and the ones that failed are
    /// returned together by name.
    pub async fn migrate_clients(
        &self,
        clients: &[Client],
    ) -> Result<MigrationReport, TenancyError> {
        let schemas: Vec<&str> = clients.iter().map(|c| c.schema_name.as_str()).collect();
        let applied = self.applied_by_schema(&schemas).await?;
        let pending: Vec<&str> = schemas
            .iter()
            .copied()
            .filter(|s| !self.is_current(applied.get(*s).map_or(&[][..], Vec::as_slice)))
            .collect();
        let outcomes: Vec<(&str, Result<bool, TenancyError>)> = stream::iter(pending)
            .map(|schema| async move { (schema, self.migrate_schema(schema).await) })
            .buffer_unordered(PARALLEL_SCHEMAS)
            .collect()
            .await;
        let mut report = MigrationReport {
            schemas: schemas.len(),
            migrated: Vec::new(),
        };
        let mut failures = Vec::new();
        for (schema, outcome) in outcomes {
            match outcome {
                Ok(true) => report.migrated.push(schema.to_owned()),
                Ok(false) => {}
                Err(e) => {
                    tracing::error!(schema, error = %e, "schema migration failed");
                    failures.push(SchemaFailure {
                        schema: schema.to_owned(),
                        error: e.to_string(),
                    });
                }
            }
        }
        report.migrated.sort();
        if failures.is_empty() {
            Ok(report)
        } else {
            failures.sort_by(|a, b| a.schema.cmp(&b.schema));
            Err(TenancyError::SchemasFailed(failures))
        }
    }

    /// True when `public` and every client's schema hold every migration this build knows. Once true it stays
    /// true for this process (a newer build's extra migrations do not make this one's schemas stale).
    pub async fn migrations_current(&self) -> Result<bool, TenancyError> {
        if self.migrations_current.load(Ordering::Relaxed) {
            return Ok(true);
        }
        let mut tx = self.public().await?;
        let public: Vec<i64> = sqlx::query_scalar(
            "select version from _sqlx_migrations where success order by version",
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        let public_current = PUBLIC
            .iter()
            .filter(|m| !m.migration_type.is_down_migration())
            .all(|m| public.binary_search(&m.version).is_ok());
        let clients = self.list_clients().await?;
        let schemas: Vec<&str> = clients.iter().map(|c| c.schema_name.as_str()).collect();
        let applied = self.applied_by_schema(&schemas).await?;
        let current = public_current
            && schemas
                .iter()
                .all(|s| self.is_current(applied.get(*s).map_or(&[][..], Vec::as_slice)));
        if current {
            self.migrations_current.store(true, Ordering::Relaxed);
        }
        Ok(current)
    }

    /// Every listed schema's applied migrations, read a few hundred schemas per query. A schema without the
    /// table (never migrated) is absent from the answer.
    pub(crate) async fn applied_by_schema(
        &self,
        schemas: &[&str],
    ) -> Result<HashMap<String, Applied>, TenancyError> {
        let mut tx = self.public().await?;
        let with_table: Vec<String> = sqlx::query_scalar(
            "select n.nspname::text from pg_namespace n join pg_class c on c.relnamespace = n.oid
             where c.relname = '_sqlx_migrations' and n.nspname = any($1)",
        )
        .bind(schemas)
        .fetch_all(&mut *tx)
        .await?;
        let mut applied: HashMap<String, Applied> = HashMap::new();
        for chunk in with_table.chunks(SCHEMAS_PER_READ) {
            let sql = chunk
                .iter()
                .map(|s| {
                    format!(
                        "select {} as schema, version, checksum, success from {}._sqlx_migrations",
                        quote_literal(s),
                        quote_ident(s)
                    )
                })
                .collect::<Vec<_>>()
                .join(" union all ");
            let rows: Vec<(String, i64, Vec<u8>, bool)> =
                sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql} order by 1, 2")))
                    .fetch_all(&mut *tx)
                    .await?;
            for (schema, version, checksum, success) in rows {
                applied
                    .entry(schema)
                    .or_default()
                    .push((version, checksum, success));
            }
        }
        tx.commit().await?;
        Ok(applied)
    }

    /// Exactly this build's migrations, applied cleanly, with the checksums they have now.
    pub(crate) fn is_current(&self, applied: &[(i64, Vec<u8>, bool)]) -> bool {
        applied.len() == self.tenant_migrations.len()
            && applied.iter().zip(self.tenant_migrations.iter()).all(
                |((version, checksum, success), m)| {
                    *success && *version == m.version && checksum[..] == m.checksum[..]
                },
            )
    }

    /// Applies one schema's pending migrations in one transaction under the schema's own advisory lock.
    /// `Ok(false)` when another process got there first.
    async fn migrate_schema(&self, schema: &str) -> Result<bool, TenancyError> {
        let mut tx = self.pool.begin().await?;
        // The shared `extensions` schema (pg_trgm's operator classes) comes after the client's own; objects are
        // still created in the client's schema, the first on the path.
        sqlx::query("select set_config('search_path', $1, true)")
            .bind(format!("{}, extensions", quote_ident(schema)))
            .execute(&mut *tx)
            .await?;
        sqlx::query("select pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(format!("compass.migrate.{schema}"))
            .execute(&mut *tx)
            .await?;
        let applied = read_applied(&mut tx).await?;
        let script = self.pending_script(&applied)?;
        let Some(script) = script else {
            tx.commit().await?;
            return Ok(false);
        };
        sqlx::raw_sql(sqlx::AssertSqlSafe(script))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        tracing::info!(schema, "schema migrated");
        Ok(true)
    }

    /// Puts `schema` first on the transaction's search path, creates its bookkeeping table and applies every
    /// pending migration, inside the caller's transaction (a new client's schema, made in the same transaction as
    /// its registry row, or a spare).
    pub(crate) async fn migrate_new_schema(
        &self,
        conn: &mut PgConnection,
        schema: &str,
    ) -> Result<(), TenancyError> {
        // The shared `extensions` schema (pg_trgm's operator classes) comes after the schema's own.
        sqlx::query("select set_config('search_path', $1, true)")
            .bind(format!("{}, extensions", quote_ident(schema)))
            .execute(&mut *conn)
            .await?;
        let applied = read_applied(conn).await?;
        if let Some(script) = self.pending_script(&applied)? {
            sqlx::raw_sql(sqlx::AssertSqlSafe(script))
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    }

    /// One script applying every pending migration and recording each as sqlx does, or `None` when nothing is
    /// pending. Refuses a schema whose bookkeeping disagrees with this build, as sqlx would.
    fn pending_script(&self, applied: &Applied) -> Result<Option<String>, TenancyError> {
        let known: HashMap<i64, &Migration> = self
            .tenant_migrations
            .iter()
            .map(|m| (m.version, m))
            .collect();
        for (version, checksum, success) in applied {
            if !success {
                return Err(TenancyError::MigrationState(format!(
                    "migration {version} was left partly applied"
                )));
            }
            match known.get(version) {
                None => {
                    return Err(TenancyError::MigrationState(format!(
                        "migration {version} was applied but this build does not know it"
                    )))
                }
                Some(m) if m.checksum[..] != checksum[..] => {
                    return Err(TenancyError::MigrationState(format!(
                        "migration {version} was changed after it was applied"
                    )))
                }
                Some(_) => {}
            }
        }
        let mut script = String::new();
        for m in self
            .tenant_migrations
            .iter()
            .filter(|m| !applied.iter().any(|(v, _, _)| *v == m.version))
        {
            if m.no_tx {
                return Err(TenancyError::MigrationState(format!(
                    "migration {} asks to run outside a transaction; tenant migrations run in one",
                    m.version
                )));
            }
            // execution_time -1: the migrations of one script share a commit, so none has a time of its own.
            script.push_str(&format!(
                "{}\n;\ninsert into _sqlx_migrations (version, description, success, checksum, execution_time) \
                 values ({}, {}, true, decode('{}', 'hex'), -1);\n",
                m.sql.as_str(),
                m.version,
                quote_literal(&m.description),
                hex(&m.checksum)
            ));
        }
        Ok((!script.is_empty()).then_some(script))
    }

    async fn dedicated_connection(&self, schema: &str) -> Result<PgConnection, TenancyError> {
        let mut conn = PgConnection::connect_with(&self.options).await?;
        sqlx::query("select set_config('search_path', $1, false)")
            .bind(schema)
            .execute(&mut conn)
            .await?;
        Ok(conn)
    }
}

/// Creates the schema's bookkeeping table if needed and reads it; the search path names the schema first.
async fn read_applied(conn: &mut PgConnection) -> Result<Applied, TenancyError> {
    sqlx::raw_sql(ENSURE_TABLE).execute(&mut *conn).await?;
    Ok(
        sqlx::query_as("select version, checksum, success from _sqlx_migrations order by version")
            .fetch_all(&mut *conn)
            .await?,
    )
}

pub(crate) fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

fn quote_literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
