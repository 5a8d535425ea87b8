use super::ApiTags;
use crate::auth::{ClientAuth, Needs, PAGE_CONTACT_ORIGIN_CODES};
use crate::error::ApiError;
use crate::schemas::OriginCode;
use crate::state::SharedState;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct OriginCodesApi;

/// An origin code with the number of contacts that first arrived through it.
#[derive(Debug, Object)]
pub struct OriginCodeCount {
    pub id: i64,
    pub name: String,
    pub label: String,
    #[oai(rename = "contactCount")]
    pub contact_count: i64,
    pub created: chrono::DateTime<chrono::Utc>,
}

impl From<store::origin_codes::CodeCount> for OriginCodeCount {
    fn from(c: store::origin_codes::CodeCount) -> Self {
        Self {
            id: c.id,
            label: c.name.clone(),
            name: c.name,
            contact_count: c.contact_count,
            created: c.created,
        }
    }
}

#[derive(Debug, Object)]
pub struct OriginCodeName {
    #[oai(validator(min_length = 1, max_length = 200))]
    pub name: String,
}

#[OpenApi(tag = "ApiTags::Lists")]
impl OriginCodesApi {
    /// Origin codes whose name contains `q` (all when absent), at most 50, by name.
    #[oai(
        path = "/api/external-origin-code/search",
        method = "get",
        operation_id = "searchOriginCodes"
    )]
    async fn search(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        q: Query<Option<String>>,
    ) -> Result<Json<Vec<OriginCode>>, ApiError> {
        let pattern = store::like::containing(q.0.as_deref().unwrap_or("").trim());
        let codes = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                Ok(store::origin_codes::search(tx, &pattern).await?)
            })
            .await?;
        Ok(Json(codes.into_iter().map(OriginCode::from).collect()))
    }

    /// Every origin code with its contact count, largest first.
    #[oai(
        path = "/api/external-origin-code",
        method = "get",
        operation_id = "listOriginCodes"
    )]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<OriginCodeCount>>, ApiError> {
        let codes = auth
            .0
            .tx(&state, PAGE_CONTACT_ORIGIN_CODES, async |tx| {
                Ok(store::origin_codes::with_counts(tx).await?)
            })
            .await?;
        Ok(Json(codes.into_iter().map(OriginCodeCount::from).collect()))
    }

    /// The origin code with this name, created when missing.
    #[oai(
        path = "/api/external-origin-code/get-or-create-crm",
        method = "post",
        operation_id = "getOrCreateOriginCode"
    )]
    async fn get_or_create(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<OriginCodeName>,
    ) -> Result<Json<OriginCode>, ApiError> {
        let name = body.0.name.trim();
        if name.is_empty() {
            return Err(ApiError::BadRequest(
                "Origin code name is required".to_owned(),
            ));
        }
        let code = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                Ok(store::origin_codes::get_or_create(tx, name).await?)
            })
            .await?;
        let code = OriginCode::from(code);
        Ok(Json(code))
    }
}
