//! Sender identities: the From and Reply-To of mailings.

use super::{required, Created};
use crate::auth::{ClientAuth, EDIT_ROLE};
use crate::error::ApiError;
use crate::routes::{ApiTags, Deleted};
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct SendersApi;

/// A sender identity: the From and Reply-To of a mailing.
#[derive(Debug, Object, sqlx::FromRow)]
pub struct Sender {
    pub id: i64,
    pub name: String,
    #[oai(rename = "fromAddress")]
    pub from_address: String,
    #[oai(nullable, rename = "replyTo")]
    pub reply_to: Option<String>,
    pub created: DateTime<Utc>,
}

#[derive(Debug, Object)]
pub struct SenderInput {
    #[oai(validator(min_length = 1, max_length = 200))]
    pub name: String,
    #[oai(rename = "fromAddress", validator(max_length = 320))]
    pub from_address: String,
    #[oai(nullable, rename = "replyTo", validator(max_length = 320))]
    pub reply_to: Option<String>,
}

/// A select option.
#[derive(Debug, Object, sqlx::FromRow)]
pub struct SenderOption {
    pub id: i64,
    pub label: String,
}

fn valid_address(raw: &str) -> Result<String, ApiError> {
    domain::Email::parse(raw)
        .map(domain::Email::into_string)
        .map_err(|_| ApiError::BadRequest(format!("Not a valid email: {raw}")))
}

#[OpenApi(tag = "ApiTags::Mailings")]
impl SendersApi {
    /// Sender options for the mailing editor.
    #[oai(
        path = "/api/sender/sender-names",
        method = "get",
        operation_id = "listSenderNames"
    )]
    async fn sender_names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<SenderOption>>, ApiError> {
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let rows = sqlx::query_as::<_, SenderOption>(
            "select id, name || ' <' || from_address || '>' as label from senders order by name, id",
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(rows))
    }

    /// Sender identities.
    #[oai(path = "/api/sender", method = "get", operation_id = "listSenders")]
    async fn senders(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<Sender>>, ApiError> {
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let rows = sqlx::query_as::<_, Sender>(
            "select id, name, from_address, reply_to, created from senders order by name, id",
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(rows))
    }

    #[oai(path = "/api/sender", method = "post", operation_id = "createSender")]
    async fn create_sender(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        input: Json<SenderInput>,
    ) -> Result<Created<Sender>, ApiError> {
        // Senders are the addresses the client's mail goes out from: set up by an administrator on the System
        // page, like the app settings.
        auth.0.require(EDIT_ROLE)?;
        let name = required(&input.0.name, "Sender name")?;
        let from = valid_address(&input.0.from_address)?;
        let reply_to = input
            .0
            .reply_to
            .as_deref()
            .filter(|r| !r.trim().is_empty())
            .map(valid_address)
            .transpose()?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let row = sqlx::query_as::<_, Sender>(
            "insert into senders (name, from_address, reply_to) values ($1, $2, $3)
             returning id, name, from_address, reply_to, created",
        )
        .bind(name)
        .bind(from)
        .bind(reply_to)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Created::Created(Json(row)))
    }

    #[oai(
        path = "/api/sender/:id",
        method = "delete",
        operation_id = "deleteSender"
    )]
    async fn delete_sender(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Deleted, ApiError> {
        auth.0.require(EDIT_ROLE)?;
        crate::routes::delete_by_id(&state, &auth.0.client, "senders", id.0, "Sender not found")
            .await
    }
}
