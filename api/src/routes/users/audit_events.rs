//! The client's audit trail: sign-ins and changes to its users and roles.

use crate::auth::{ClientAuth, VIEW_USER};
use crate::error::ApiError;
use crate::routes::ApiTags;
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct AuditEventsApi;

#[derive(Debug, Object)]
pub struct AuditEvent {
    pub id: i64,
    pub at: DateTime<Utc>,
    #[oai(rename = "actorKind")]
    pub actor_kind: String,
    #[oai(rename = "actorEmail")]
    pub actor_email: String,
    pub action: String,
    /// JSON text describing the change.
    pub detail: String,
    pub address: String,
}

#[OpenApi(tag = "ApiTags::Users")]
impl AuditEventsApi {
    /// Recent sign-ins to this client and changes to its users and roles, newest first.
    #[oai(
        path = "/api/audit-events",
        method = "get",
        operation_id = "listAuditEvents"
    )]
    async fn audit_events(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        limit: Query<Option<i64>>,
    ) -> Result<Json<Vec<AuditEvent>>, ApiError> {
        let limit = limit.0.unwrap_or(100).clamp(1, 1000);
        let rows = auth
            .0
            .tx(&state, VIEW_USER, async |tx| {
                Ok(store::users::audit_events(tx, limit).await?)
            })
            .await?;
        Ok(Json(
            rows.into_iter()
                .map(|r| AuditEvent {
                    id: r.id,
                    at: r.at,
                    actor_kind: r.actor_kind,
                    actor_email: r.actor_email,
                    action: r.action,
                    detail: r.detail.to_string(),
                    address: r.address,
                })
                .collect(),
        ))
    }
}
