use crate::{Client, TenancyError};
use sqlx::{PgConnection, PgPool, Postgres, Transaction};
use std::ops::{Deref, DerefMut};

/// One transaction in one client's schema. Dropping it without [`TenantTx::commit`] rolls back.
///
/// Its first statement sets `search_path` to the client's schema with a bound parameter and `is_local = true`,
/// so the setting ends with the transaction and the pooled connection goes back clean.
pub struct TenantTx {
    tx: Transaction<'static, Postgres>,
    client: Client,
}

impl TenantTx {
    pub(crate) async fn begin(pool: &PgPool, client: Client) -> Result<Self, TenancyError> {
        let mut tx = pool.begin().await?;
        set_local_search_path(&mut tx, &client.schema_name).await?;
        Ok(Self { tx, client })
    }

    /// The client whose schema this transaction sees.
    pub fn client(&self) -> &Client {
        &self.client
    }

    pub async fn commit(self) -> Result<(), TenancyError> {
        self.tx.commit().await?;
        Ok(())
    }
}

impl Deref for TenantTx {
    type Target = PgConnection;
    fn deref(&self) -> &PgConnection {
        &self.tx
    }
}

impl DerefMut for TenantTx {
    fn deref_mut(&mut self) -> &mut PgConnection {
        &mut self.tx
    }
}

/// One transaction in the `public` schema (clients registry, universal users).
pub struct PublicTx {
    tx: Transaction<'static, Postgres>,
}

impl PublicTx {
    pub(crate) async fn begin(pool: &PgPool) -> Result<Self, TenancyError> {
        let mut tx = pool.begin().await?;
        set_local_search_path(&mut tx, "public").await?;
        Ok(Self { tx })
    }

    pub async fn commit(self) -> Result<(), TenancyError> {
        self.tx.commit().await?;
        Ok(())
    }
}

impl Deref for PublicTx {
    type Target = PgConnection;
    fn deref(&self) -> &PgConnection {
        &self.tx
    }
}

impl DerefMut for PublicTx {
    fn deref_mut(&mut self) -> &mut PgConnection {
        &mut self.tx
    }
}

async fn set_local_search_path(conn: &mut PgConnection, schema: &str) -> Result<(), TenancyError> {
    sqlx::query("select set_config('search_path', $1, true)")
        .bind(schema)
        .execute(conn)
        .await?;
    Ok(())
}
