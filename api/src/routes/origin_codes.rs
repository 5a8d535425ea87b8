use super::ApiTags;
use crate::auth::{ClientAuth, PAGE_CONTACT_ORIGIN_CODES};
use crate::error::ApiError;
use crate::schemas::OriginCode;
use crate::state::SharedState;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct OriginCodesApi;

/// An origin code with the number of contacts that first arrived through it.
#[derive(Debug, Object, sqlx::FromRow)]
pub struct OriginCodeCount {
    pub id: i64,
    pub name: String,
    pub label: String,
    #[oai(rename = "contactCount")]
    pub contact_count: i64,
    pub created: chrono::DateTime<chrono::Utc>,
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
        let pattern = format!("%{}%", escape_like(q.0.as_deref().unwrap_or("").trim()));
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let codes = sqlx::query_as::<_, OriginCode>(
            "select id, name, name as label from origin_codes where name ilike $1 escape '\\' order by name limit 50",
        )
        .bind(pattern)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(codes))
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
        auth.0.require(PAGE_CONTACT_ORIGIN_CODES)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let codes = sqlx::query_as::<_, OriginCodeCount>(
            "select o.id, o.name, o.name as label, count(c.id) as contact_count, o.created
             from origin_codes o left join contacts c on c.origin_code_id = o.id
             group by o.id order by contact_count desc, o.name",
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(codes))
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
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        // The no-op update makes `returning` give the row whether it was inserted or already there.
        let code = sqlx::query_as::<_, OriginCode>(
            "insert into origin_codes (name) values ($1)
             on conflict (name) do update set name = excluded.name
             returning id, name, name as label",
        )
        .bind(name)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(code))
    }
}

/// Makes `%`, `_` and `\` in user input match themselves in a LIKE pattern.
fn escape_like(raw: &str) -> String {
    raw.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}
