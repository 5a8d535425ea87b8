use crate::cache::ClientKey;
use crate::{ClientShort, PublicTx, Tenancy, TenancyError};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// A row of `public.clients`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Client {
    pub id: i64,
    pub short_name: String,
    pub name: String,
    pub schema_name: String,
    pub enabled: bool,
    pub created: DateTime<Utc>,
}

/// The registry's columns, named so a query never depends on the table's column order.
macro_rules! client_columns {
    () => {
        "id, short_name, name, schema_name, enabled, created"
    };
}

impl Tenancy {
    /// Registers a client, creates its schema (or renames a spare) and brings it to the current tenant migrations.
    pub async fn create_client(
        &self,
        short: &ClientShort,
        name: &str,
    ) -> Result<Client, TenancyError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 200 {
            return Err(TenancyError::InvalidClientName);
        }
        let schema = short.schema_name();
        // Registry row, schema and migrations commit together: a failure leaves no client behind, and no other
        // process sees (or migrates) the schema before it is complete.
        let mut tx = self.pool.begin().await?;
        sqlx::query("select set_config('search_path', 'public', true)")
            .execute(&mut *tx)
            .await?;
        let inserted = sqlx::query_as::<_, Client>(concat!(
            "insert into clients (short_name, name, schema_name) values ($1, $2, $3) ",
            "on conflict (short_name) do nothing returning ",
            client_columns!()
        ))
        .bind(short.as_str())
        .bind(name)
        .bind(&schema)
        .fetch_optional(&mut *tx)
        .await?;
        let client = inserted.ok_or_else(|| TenancyError::DuplicateClient(short.to_string()))?;
        // A spare made ahead of time is renamed (see `spares`); without one the schema is made and migrated here.
        if !self.take_spare(&mut tx, &schema).await? {
            // `schema` passed ClientShort's validation and matches the table's check: it is a plain identifier.
            sqlx::query(sqlx::AssertSqlSafe(format!("create schema {schema}")))
                .execute(&mut *tx)
                .await?;
        }
        self.migrate_new_schema(&mut tx, &schema).await?;
        tx.commit().await?;
        tracing::info!(client = %client.short_name, schema = %client.schema_name, "client created");
        Ok(client)
    }

    pub async fn list_clients(&self) -> Result<Vec<Client>, TenancyError> {
        let mut tx = self.public().await?;
        let clients = sqlx::query_as::<_, Client>(concat!(
            "select ",
            client_columns!(),
            " from clients order by id"
        ))
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(clients)
    }

    /// Changes a client's display name.
    pub async fn rename_client(&self, id: i64, name: &str) -> Result<Client, TenancyError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 200 {
            return Err(TenancyError::InvalidClientName);
        }
        let mut tx = self.public().await?;
        let client = sqlx::query_as::<_, Client>(concat!(
            "update clients set name = $2 where id = $1 returning ",
            client_columns!()
        ))
        .bind(id)
        .bind(name)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| TenancyError::UnknownClient(id.to_string()))?;
        tx.commit().await?;
        self.clients.forget(id);
        Ok(client)
    }

    /// Enables or disables a client: a disabled client's requests and jobs are refused (by other processes
    /// within [`crate::CLIENT_CACHE_TTL`]).
    pub async fn set_client_enabled(&self, id: i64, enabled: bool) -> Result<Client, TenancyError> {
        let mut tx = self.public().await?;
        let client = sqlx::query_as::<_, Client>(concat!(
            "update clients set enabled = $2 where id = $1 returning ",
            client_columns!()
        ))
        .bind(id)
        .bind(enabled)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| TenancyError::UnknownClient(id.to_string()))?;
        tx.commit().await?;
        self.clients.forget(id);
        Ok(client)
    }

    /// The enabled client with this id, if there is one.
    pub async fn enabled_client(&self, id: i64) -> Result<Option<Client>, TenancyError> {
        if let Some(client) = self.clients.get(&ClientKey::Id(id)) {
            return Ok(Some(client).filter(|c| c.enabled));
        }
        let mut tx = self.public().await?;
        let client = find_client(&mut tx, "id = $1", id).await?;
        tx.commit().await?;
        Ok(self.remember(client))
    }

    /// The enabled client with this short name, if there is one.
    pub async fn enabled_client_by_short(
        &self,
        short: &str,
    ) -> Result<Option<Client>, TenancyError> {
        if let Some(client) = self.clients.get(&ClientKey::Short(short.to_owned())) {
            return Ok(Some(client).filter(|c| c.enabled));
        }
        let mut tx = self.public().await?;
        let client = find_client(&mut tx, "short_name = $1", short).await?;
        tx.commit().await?;
        Ok(self.remember(client))
    }

    fn remember(&self, client: Option<Client>) -> Option<Client> {
        if let Some(c) = &client {
            self.clients.put(c);
        }
        client.filter(|c| c.enabled)
    }
}

async fn find_client<'a, T>(
    tx: &mut PublicTx,
    filter: &str,
    value: T,
) -> Result<Option<Client>, TenancyError>
where
    T: 'a + Send + sqlx::Encode<'a, sqlx::Postgres> + sqlx::Type<sqlx::Postgres>,
{
    Ok(sqlx::query_as::<_, Client>(sqlx::AssertSqlSafe(format!(
        concat!("select ", client_columns!(), " from clients where {}"),
        filter
    )))
    .bind(value)
    .fetch_optional(&mut **tx)
    .await?)
}
