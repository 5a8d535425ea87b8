//! Contribution uploads (ActBlue or WinRed exports, or any platform's file with a column mapping). The file is
//! stored in the client's schema like every upload, then a job imports it; the answer is the job.

use crate::auth::ClientAuth;
use crate::error::ApiError;
use crate::routes::ApiTags;
use crate::schemas::JobAccepted;
use crate::state::SharedState;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use poem::web::Data;
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiResponse, Multipart, Object, OpenApi};
use std::collections::BTreeMap;
use worker::import::contributions::{ContributionPlan, GiftField, Platform};
use worker::JobKind;

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

fn wrong_credentials() -> ApiError {
    ApiError::Unauthorized("Wrong webhook credentials".to_owned())
}

/// `(username, password)` from an `Authorization: Basic …` header.
fn basic_credentials(req: &Request) -> Option<(String, String)> {
    let header = req.headers().get("authorization")?.to_str().ok()?;
    let (scheme, encoded) = header.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = String::from_utf8(STANDARD.decode(encoded.trim()).ok()?).ok()?;
    let (user, password) = decoded.split_once(':')?;
    Some((user.to_owned(), password.to_owned()))
}

fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
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
        auth.0.require(PAGE_CONTRIBUTIONS)?;
        let platform = Platform::from_id(&body.platform).ok_or_else(|| {
            ApiError::BadRequest("platform must be actblue, winred or mapped".to_owned())
        })?;
        let mapping = match platform {
            Platform::Mapped => parse_mapping(body.mapping.as_deref())?,
            Platform::Actblue | Platform::Winred => BTreeMap::new(),
        };
        let tx = state.tenancy.begin(&auth.0.client).await?;
        crate::uploads::store_and_enqueue(
            &state,
            tx,
            auth.0.user_id(),
            body.file,
            true,
            |upload_id, filename| {
                JobKind::ContributionImport(ContributionPlan {
                    upload_id,
                    filename,
                    platform,
                    mapping,
                })
            },
        )
        .await
    }

    /// ActBlue's contribution webhook for one client (public; HTTP Basic credentials set on the System page).
    /// Idempotent on the line item; answers once the gift is written.
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
        let client = if client_short.0.len() <= 31 {
            state
                .tenancy
                .enabled_client_by_short(&client_short.0)
                .await?
        } else {
            None
        };
        let given = basic_credentials(req);
        let stored: Option<(Option<String>, Option<String>)> = match &client {
            Some(client) => {
                let mut tx = state.tenancy.begin(client).await?;
                let row = sqlx::query_as(
                    "select actblue_webhook_username, actblue_webhook_password_hash from app_settings limit 1",
                )
                .fetch_optional(&mut *tx)
                .await?;
                tx.commit().await?;
                row
            }
            None => None,
        };
        let (user, hash) = stored.unwrap_or((None, None));
        // The hash is checked whatever else is wrong, so timing tells nothing about which part was.
        let password_ok = crate::auth::verify_password(
            given.as_ref().map(|(_, p)| p.as_str()).unwrap_or(""),
            hash.as_deref(),
        );
        let user_ok = match (&given, &user) {
            (Some((g, _)), Some(u)) => same(g, u),
            _ => false,
        };
        let Some(client) = client.filter(|_| password_ok && user_ok) else {
            return Err(wrong_credentials());
        };
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
