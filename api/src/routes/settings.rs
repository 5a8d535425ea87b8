use super::ApiTags;
use crate::auth::{ClientAuth, EDIT_ROLE};
use crate::error::ApiError;
use crate::state::SharedState;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use tenancy::{Client, TenantTx};

pub struct SettingsApi;

/// The current client's app settings, named as the spec names them.
#[derive(Debug, Object)]
pub struct AppSettings {
    pub id: i64,
    pub client_id: i64,
    pub client_name: String,
    pub client_short: String,
    #[oai(rename = "mediaEnabled")]
    pub media_enabled: bool,
}

/// Fields to change; absent fields stay as they are.
#[derive(Debug, Object)]
pub struct AppSettingsUpdate {
    #[oai(nullable, validator(min_length = 1, max_length = 200))]
    pub client_name: Option<String>,
    #[oai(nullable, rename = "mediaEnabled")]
    pub media_enabled: Option<bool>,
}

async fn read(tx: &mut TenantTx, client: &Client) -> Result<AppSettings, ApiError> {
    let (id, media_enabled): (i64, bool) =
        sqlx::query_as("select id, media_enabled from app_settings")
            .fetch_one(&mut **tx)
            .await?;
    Ok(AppSettings {
        id,
        client_id: client.id,
        client_name: client.name.clone(),
        client_short: client.short_name.clone(),
        media_enabled,
    })
}

#[OpenApi(tag = "ApiTags::Settings")]
impl SettingsApi {
    /// App settings of the current client.
    #[oai(path = "/api", method = "get", operation_id = "getAppSettings")]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<AppSettings>, ApiError> {
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let settings = read(&mut tx, &auth.0.client).await?;
        tx.commit().await?;
        Ok(Json(settings))
    }

    /// Updates the current client's app settings.
    #[oai(
        path = "/api/:id",
        method = "patch",
        operation_id = "updateAppSettings"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        body: Json<AppSettingsUpdate>,
    ) -> Result<Json<AppSettings>, ApiError> {
        // "edit role" is the client's administrator permission: its holder can already grant any permission, so
        // guarding the settings with it opens nothing new. Everyone may read them (the shell loads them).
        auth.0.require(EDIT_ROLE)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let updated = sqlx::query(
            "update app_settings set media_enabled = coalesce($2, media_enabled), updated = now() where id = $1",
        )
        .bind(id.0)
        .bind(body.0.media_enabled)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() == 0 {
            return Err(ApiError::NotFound("App settings not found".to_owned()));
        }
        let client = match body.0.client_name.as_deref() {
            Some(name) => state.tenancy.rename_client(auth.0.client.id, name).await?,
            None => auth.0.client.clone(),
        };
        let settings = read(&mut tx, &client).await?;
        tx.commit().await?;
        Ok(Json(settings))
    }
}
