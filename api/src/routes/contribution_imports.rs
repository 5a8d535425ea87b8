//! Contribution uploads (ActBlue or WinRed exports, or any platform's file with a column mapping). The file is
//! stored in the client's schema like every upload, then a job imports it; the answer is the job.

use super::imports::store;
use super::jobs::{Job, JobAccepted};
use super::ApiTags;
use crate::auth::ClientAuth;
use crate::error::ApiError;
use crate::state::SharedState;
use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::types::multipart::Upload;
use poem_openapi::{Multipart, Object, OpenApi};
use std::collections::BTreeMap;
use worker::import::contributions::{ContributionPlan, GiftField, Platform};
use worker::JobKind;

const PAGE_CONTRIBUTIONS: &str = "pageContributions";

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

fn parse_mapping(raw: Option<&str>) -> Result<BTreeMap<String, GiftField>, ApiError> {
    let raw = raw
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .ok_or_else(|| ApiError::BadRequest("A mapped import needs a column mapping".to_owned()))?;
    let pairs: BTreeMap<String, String> = serde_json::from_str(raw).map_err(|_| {
        ApiError::BadRequest("mapping must be a JSON object of column → field".to_owned())
    })?;
    let mut mapping = BTreeMap::new();
    for (column, field) in pairs {
        if field.is_empty() {
            continue;
        }
        let field = GiftField::from_id(&field)
            .ok_or_else(|| ApiError::BadRequest(format!("Unknown field {field:?}")))?;
        if mapping.values().any(|f| *f == field) {
            return Err(ApiError::BadRequest(format!(
                "{} is mapped twice",
                field.label()
            )));
        }
        mapping.insert(column, field);
    }
    for required in [GiftField::LineItemId, GiftField::Date, GiftField::Amount] {
        if !mapping.values().any(|f| *f == required) {
            return Err(ApiError::BadRequest(format!(
                "Map a column to {}",
                required.label()
            )));
        }
    }
    Ok(mapping)
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
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let (upload_id, filename) = store(&mut tx, body.file, true).await?;
        let plan = ContributionPlan {
            upload_id,
            filename,
            platform,
            mapping,
        };
        let row = state
            .queue
            .enqueue(
                tx,
                Some(auth.0.user_id()),
                &JobKind::ContributionImport(plan),
            )
            .await?;
        Ok(JobAccepted::Accepted(Json(Job::from(row))))
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
