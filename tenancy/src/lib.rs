//! Tenancy: the clients registry in `public`, one Postgres schema per client, and the only doors into them.
//!
//! Callers never get the bare pool. They ask for a [`TenantTx`] (a transaction whose search path is one client's
//! schema) or a [`PublicTx`] (the registry). Both set the search path with `set_config(…, true)`, which is local to
//! the transaction, so a pooled connection never carries one tenant's path into the next request.

mod cache;
mod error;
mod migrate;
mod registry;
mod short_name;
mod spares;
mod tx;

pub use cache::CLIENT_CACHE_TTL;
pub use error::TenancyError;
pub use migrate::{MigrationReport, SchemaFailure, PARALLEL_SCHEMAS};
pub use registry::Client;
pub use short_name::ClientShort;
pub use spares::DEFAULT_SPARE_SCHEMAS;
pub use tx::{PublicTx, TenantTx};

use sqlx::migrate::Migration;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::PgPool;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A lock held while it lives; dropping it closes its connection, which releases the lock.
pub struct ExclusiveLock {
    _conn: sqlx::PgConnection,
}

/// Handle to the database as seen through tenancy. Cheap to clone.
#[derive(Clone)]
pub struct Tenancy {
    pool: PgPool,
    options: PgConnectOptions,
    tenant_migrations: Arc<[Migration]>,
    /// Set once every schema is known to hold `tenant_migrations`, so readiness checks stop asking.
    migrations_current: Arc<AtomicBool>,
    clients: Arc<cache::ClientCache>,
}

impl Tenancy {
    /// Connects a pool of `max_connections` to `database_url`.
    pub async fn connect(database_url: &str, max_connections: u32) -> Result<Self, TenancyError> {
        // JIT compilation pays off on queries that run for seconds; every statement here is an interactive page
        // or a rollup trigger that should take milliseconds, and the planner's row guesses for trigger transition
        // tables routinely cross the JIT thresholds: a 30,000-gift insert spent 1.2 s of its 5.5 s compiling
        // one rollup statement.
        let options = PgConnectOptions::from_str(database_url)?.options([("jit", "off")]);
        let pool = PgPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options.clone())
            .await?;
        Ok(Self {
            pool,
            options,
            tenant_migrations: migrate::embedded_tenant_migrations().into(),
            migrations_current: Arc::default(),
            clients: Arc::default(),
        })
    }

    /// A transaction in the given client's schema. The client must come from the registry.
    pub async fn begin(&self, client: &Client) -> Result<TenantTx, TenancyError> {
        TenantTx::begin(&self.pool, client.clone()).await
    }

    /// A transaction in the `public` schema, for the registry and universal users.
    pub async fn public(&self) -> Result<PublicTx, TenancyError> {
        PublicTx::begin(&self.pool).await
    }

    /// Takes the lock `(client, key)` for as long as the returned guard lives, or `None` when another process
    /// holds it.
    pub async fn try_exclusive(
        &self,
        client: &Client,
        key: i64,
    ) -> Result<Option<ExclusiveLock>, TenancyError> {
        // The same key as Postgres's `key # (client << 32)`, which earlier builds computed in SQL.
        self.try_lock(key ^ (client.id << 32)).await
    }

    /// Takes the advisory lock `key`, or `None` when another process holds it. The lock lives on a connection of
    /// its own, outside the pool: if the process dies, the connection closes and the lock is released by the
    /// server, so a crash never leaves it stuck.
    pub(crate) async fn try_lock(&self, key: i64) -> Result<Option<ExclusiveLock>, TenancyError> {
        use sqlx::Connection;
        let mut conn = sqlx::PgConnection::connect_with(&self.options).await?;
        let taken: bool = sqlx::query_scalar("select pg_try_advisory_lock($1)")
            .bind(key)
            .fetch_one(&mut conn)
            .await?;
        Ok(taken.then_some(ExclusiveLock { _conn: conn }))
    }

    /// A listener for `NOTIFY` on `channel`, on a connection of its own. Notifications carry no client data;
    /// they only say that something is worth looking at through the usual doors.
    pub async fn listen(&self, channel: &str) -> Result<sqlx::postgres::PgListener, TenancyError> {
        // A pool of one of its own (the listener reconnects through it): a listener holds its connection for as
        // long as it lives, and each one taken from the shared pool left the jobs a connection fewer. A worker
        // with a small pool and two listeners starved (its beat and claims timed out waiting for a connection).
        let own = PgPoolOptions::new()
            .max_connections(1)
            .connect_lazy_with(self.options.clone());
        let mut listener = sqlx::postgres::PgListener::connect_with(&own).await?;
        listener.listen(channel).await?;
        Ok(listener)
    }

    /// True when the database answers.
    pub async fn ping(&self) -> bool {
        sqlx::query_scalar::<_, i32>("select 1")
            .fetch_one(&self.pool)
            .await
            .is_ok()
    }
}

#[cfg(test)]
mod tests;
