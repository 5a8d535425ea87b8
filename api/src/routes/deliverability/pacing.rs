//! Pacing per mailbox provider: how fast, and over how many connections, a send mails each provider's recipients.

use crate::auth::{ClientAuth, EDIT_ROLE};
use crate::error::ApiError;
use crate::routes::ApiTags;
use crate::state::SharedState;
use domain::MailboxProvider;
use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use store::deliverability::pacing;

pub struct PacingApi;

/// One mailbox provider's pacing within a send.
#[derive(Debug, Object)]
pub struct ProviderPacing {
    /// `gmail`, `yahoo`, `microsoft` or `other`.
    pub provider: String,
    /// Messages a second to this provider; 0 for no limit of its own.
    #[oai(
        rename = "perSecond",
        validator(minimum(value = "0"), maximum(value = "100000"))
    )]
    pub per_second: i32,
    /// SMTP connections a send may use for this provider at once (at most the worker's pool size).
    #[oai(validator(minimum(value = "1"), maximum(value = "64")))]
    pub connections: i32,
}

impl From<pacing::Pacing> for ProviderPacing {
    fn from(p: pacing::Pacing) -> Self {
        Self {
            provider: p.provider,
            per_second: p.per_second,
            connections: p.connections,
        }
    }
}

#[OpenApi(tag = "ApiTags::Settings")]
impl PacingApi {
    /// Each mailbox provider's pacing (for those who may change it: the System page's readers).
    #[oai(
        path = "/api/deliverability/pacing",
        method = "get",
        operation_id = "getProviderPacing"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<ProviderPacing>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, EDIT_ROLE, async |tx| Ok(pacing::all(tx).await?))
            .await?;
        Ok(Json(rows.into_iter().map(Into::into).collect()))
    }

    /// Sets the providers' pacing; a provider left out keeps its own.
    #[oai(
        path = "/api/deliverability/pacing",
        method = "put",
        operation_id = "updateProviderPacing"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<Vec<ProviderPacing>>,
    ) -> Result<Json<Vec<ProviderPacing>>, ApiError> {
        let mut rows = Vec::with_capacity(body.0.len());
        for p in body.0 {
            let Some(provider) = MailboxProvider::parse(&p.provider) else {
                return Err(ApiError::BadRequest(format!(
                    "Unknown mailbox provider {:?}",
                    p.provider
                )));
            };
            rows.push(pacing::Pacing {
                provider: provider.as_str().to_owned(),
                per_second: p.per_second,
                connections: p.connections,
            });
        }
        let rows = auth
            .0
            .tx(&state, EDIT_ROLE, async |tx| {
                pacing::update(tx, &rows).await?;
                Ok(pacing::all(tx).await?)
            })
            .await?;
        Ok(Json(rows.into_iter().map(Into::into).collect()))
    }
}
