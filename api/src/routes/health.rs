use super::ApiTags;
use crate::state::SharedState;
use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};

pub struct HealthApi;

#[derive(Debug, Object)]
pub struct Health {
    /// "ok" or "down"
    pub postgres: String,
    /// "ok" or "down"
    pub redis: String,
}

#[derive(ApiResponse)]
pub enum HealthResponse {
    /// Postgres and Redis answer.
    #[oai(status = 200)]
    Ok(Json<Health>),
    /// At least one of them does not.
    #[oai(status = 503)]
    Degraded(Json<Health>),
}

#[OpenApi(tag = "ApiTags::Health")]
impl HealthApi {
    /// Whether the api can reach Postgres and Redis.
    #[oai(path = "/healthz", method = "get", operation_id = "health")]
    async fn health(&self, state: Data<&SharedState>) -> HealthResponse {
        let postgres = state.tenancy.ping().await;
        let mut conn = state.redis.clone();
        let redis = redis::cmd("PING")
            .query_async::<String>(&mut conn)
            .await
            .is_ok();
        let word = |up: bool| if up { "ok" } else { "down" }.to_owned();
        let body = Json(Health {
            postgres: word(postgres),
            redis: word(redis),
        });
        if postgres && redis {
            HealthResponse::Ok(body)
        } else {
            HealthResponse::Degraded(body)
        }
    }
}
