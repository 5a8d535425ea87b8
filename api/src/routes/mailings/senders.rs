//! Sender identities: the From and Reply-To of mailings.

use super::{required, Created};
use crate::auth::{ClientAuth, Needs, EDIT_ROLE};
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
#[derive(Debug, Object)]
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
#[derive(Debug, Object)]
pub struct SenderOption {
    pub id: i64,
    pub label: String,
}

impl From<store::senders::Sender> for Sender {
    fn from(s: store::senders::Sender) -> Self {
        Self {
            id: s.id,
            name: s.name,
            from_address: s.from_address,
            reply_to: s.reply_to,
            created: s.created,
        }
    }
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
        let rows = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                Ok(store::senders::labels(tx).await?)
            })
            .await?;
        Ok(Json(
            rows.into_iter()
                .map(|(id, label)| SenderOption { id, label })
                .collect(),
        ))
    }

    /// Sender identities.
    #[oai(path = "/api/sender", method = "get", operation_id = "listSenders")]
    async fn senders(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<Sender>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                Ok(store::senders::senders(tx).await?)
            })
            .await?;
        Ok(Json(rows.into_iter().map(Sender::from).collect()))
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
        auth.0.check(EDIT_ROLE)?;
        let name = required(&input.0.name, "Sender name")?;
        let from = valid_address(&input.0.from_address)?;
        let reply_to = input
            .0
            .reply_to
            .as_deref()
            .filter(|r| !r.trim().is_empty())
            .map(valid_address)
            .transpose()?;
        let row = auth
            .0
            .tx(&state, EDIT_ROLE, async |tx| {
                Ok(store::senders::insert(tx, &name, &from, reply_to.as_deref()).await?)
            })
            .await?;
        let row = Sender::from(row);
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
