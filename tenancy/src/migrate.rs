use crate::{Client, Tenancy, TenancyError};
use sqlx::migrate::Migrator;
use sqlx::{Connection, PgConnection};

static PUBLIC: Migrator = sqlx::migrate!("../migrations/public");
static TENANT: Migrator = sqlx::migrate!("../migrations/tenant");

impl Tenancy {
    /// Brings `public` and then every client's schema up to date. Run before new code serves anyone.
    pub async fn migrate_all(&self) -> Result<(), TenancyError> {
        let mut conn = self.dedicated_connection("public").await?;
        PUBLIC.run(&mut conn).await?;
        conn.close().await?;
        for client in self.list_clients().await? {
            self.migrate_tenant(&client).await?;
        }
        Ok(())
    }

    /// Runs the tenant migrations in one client's schema.
    ///
    /// sqlx's migrations table name is unqualified, so on a connection whose search path is only the client's
    /// schema, each schema keeps its own `_sqlx_migrations`. The connection is private and closed afterwards,
    /// so its session-wide search path never reaches the pool.
    pub(crate) async fn migrate_tenant(&self, client: &Client) -> Result<(), TenancyError> {
        // The shared `extensions` schema (pg_trgm's operator classes) comes after the client's own; objects are
        // still created in the client's schema, the first on the path.
        let path = format!("{}, extensions", client.schema_name);
        let mut conn = self.dedicated_connection(&path).await?;
        TENANT.run(&mut conn).await?;
        conn.close().await?;
        Ok(())
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
