//! Contribution uploads (ActBlue or WinRed exports, or any platform's file with a column mapping). The file is
//! stored in the client's schema like every upload, then a job imports it; the answer is the job.

use crate::auth::{ClientAuth, Needs};
use crate::error::ApiError;
use crate::routes::ApiTags;
use crate::schemas::JobAccepted;
use crate::state::SharedState;
use jobs::import::contributions::{ContributionPlan, GiftField, Platform};
use jobs::JobKind;
use poem::web::Data;
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiResponse, Multipart, Object, OpenApi};
use std::collections::BTreeMap;

use crate::auth::PAGE_CONTRIBUTIONS;

pub struct ContributionImportsApi;

#[derive(Debug, Multipart)]
pub struct ContributionUpload {
    /// .csv (mapped files also .xls or .xlsx)
    pub file: Upload,
    /// actblue, winred or mapped
    pub platform: String,
    /// For `mapped`: JSON object of file column header → field id (see GET /api/contributions/import/fields).
    pub mapping: Option<String>,
}

/// A field a contributions file column can be mapped to.
#[derive(Debug, Object)]
pub struct ContributionField {
    pub id: String,
    pub label: String,
    pub required: bool,
}

/// What the webhook answers ActBlue.
#[derive(Debug, Object)]
pub struct WebhookReceipt {
    /// Line items written by this call (0 for a replay).
    #[oai(rename = "newLineItems")]
    pub new_line_items: i64,
    /// Line items this call marked refunded, new ones included (0 for a replay).
    #[oai(rename = "refundedLineItems")]
    pub refunded_line_items: i64,
}

#[derive(ApiResponse)]
pub enum WebhookAnswer {
    /// Written durably.
    #[oai(status = 200)]
    Written(Json<WebhookReceipt>),
}

fn parse_mapping(raw: Option<&str>) -> Result<BTreeMap<String, GiftField>, ApiError> {
    crate::uploads::column_mapping(
        crate::uploads::required_mapping(raw)?,
        GiftField::from_id,
        GiftField::label,
        &[GiftField::LineItemId, GiftField::Date, GiftField::Amount],
    )
}

#[OpenApi(tag = "ApiTags::Lists")]
impl ContributionImportsApi {
    /// Imports contributions from an ActBlue or WinRed export, or from any file with a column mapping; the
    /// import runs as a job.
    #[oai(
        path = "/api/contributions/import",
        method = "post",
        operation_id = "importContributions"
    )]
    async fn import(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: ContributionUpload,
    ) -> Result<JobAccepted, ApiError> {
        auth.0.check(PAGE_CONTRIBUTIONS)?;
        let platform = Platform::from_id(&body.platform).ok_or_else(|| {
            ApiError::BadRequest("platform must be actblue, winred or mapped".to_owned())
        })?;
        let mapping = match platform {
            Platform::Mapped => parse_mapping(body.mapping.as_deref())?,
            Platform::Actblue | Platform::Winred => BTreeMap::new(),
        };
        let row = auth
            .0
            .enqueue(&state, Needs::Nothing, async |tx| {
                let (upload_id, filename) = crate::uploads::store(tx, body.file, true).await?;
                Ok(JobKind::ContributionImport(ContributionPlan {
                    upload_id,
                    filename,
                    platform,
                    mapping,
                }))
            })
            .await?;
        Ok(JobAccepted::Accepted(Json(row.into())))
    }

    /// ActBlue's contribution webhook for one client (public; HTTP Basic credentials set on the System page).
    /// Idempotent on the line item; answers once the gift is written. 429 with `Retry-After` when too many
    /// webhooks are waiting to be written, or the address sent wrong credentials too often: ActBlue retries.
    #[oai(
        path = "/api/webhooks/actblue/:client_short",
        method = "post",
        operation_id = "actblueWebhook"
    )]
    async fn actblue_webhook(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        client_short: Path<String>,
        body: Json<serde_json::Value>,
    ) -> Result<WebhookAnswer, ApiError> {
        let given = crate::actblue_webhook::basic_credentials(req);
        let address = crate::identity::sign_in::address(req);
        let client = state
            .webhook_gate
            .admit(
                &state,
                crate::actblue_webhook::Basic::Actblue,
                &client_short.0,
                given,
                &address,
            )
            .await?;
        let payload: crate::actblue_webhook::Payload = serde_json::from_value(body.0)
            .map_err(|e| ApiError::BadRequest(format!("Not an ActBlue contribution: {e}")))?;
        let written = state.gifts.submit(client, &payload).await?;
        Ok(WebhookAnswer::Written(Json(WebhookReceipt {
            new_line_items: written.new,
            refunded_line_items: written.refunded,
        })))
    }

    /// The fields a contributions file column can be mapped to.
    #[oai(
        path = "/api/contributions/import/fields",
        method = "get",
        operation_id = "listContributionImportFields"
    )]
    async fn fields(&self, auth: ClientAuth) -> Result<Json<Vec<ContributionField>>, ApiError> {
        auth.0.require(PAGE_CONTRIBUTIONS)?;
        Ok(Json(
            GiftField::ALL
                .into_iter()
                .map(|f| ContributionField {
                    id: f.id().to_owned(),
                    label: f.label().to_owned(),
                    required: matches!(
                        f,
                        GiftField::LineItemId | GiftField::Date | GiftField::Amount
                    ),
                })
                .collect(),
        ))
    }
}
