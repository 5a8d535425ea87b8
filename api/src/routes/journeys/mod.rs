//! Journeys (issue 31): welcome series, thank-yous and rescues that run by themselves. A journey is a versioned
//! definition (validated on save, each refusal naming the step); the worker's engine enrols and advances contacts.
//! The Email area's operations: open to every user of the client, as mailings are, with the money left out
//! without the permissions that show revenue.

mod dto;
mod figures;
mod runs;

pub use dto::*;
pub use runs::JourneyRunsApi;

use super::ApiTags;
use crate::auth::{ClientAuth, Needs};
use crate::error::ApiError;
use crate::routes::mailings::MONEY_PERMISSIONS;
use crate::state::SharedState;
use domain::journey::Definition;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;
use sqlx::PgConnection;

pub struct JourneysApi;

fn not_found() -> ApiError {
    ApiError::NotFound("Journey not found".to_owned())
}

fn name_of(input: &JourneyInput) -> Result<String, ApiError> {
    let name = input.name.trim();
    if name.is_empty() {
        return Err(ApiError::BadRequest("Name is required".to_owned()));
    }
    Ok(name.to_owned())
}

fn parse(definition: &serde_json::Value) -> Result<Definition, ApiError> {
    serde_json::from_value(definition.clone())
        .map_err(|e| ApiError::BadRequest(format!("The journey's definition is not valid: {e}.")))
}

/// Parses and validates a definition against this client's templates, lists, segments and forms.
async fn checked(
    tx: &mut PgConnection,
    definition: &serde_json::Value,
    activating: bool,
) -> Result<serde_json::Value, ApiError> {
    let parsed = parse(definition)?;
    let known = store::journeys::known_refs(tx, &parsed.referenced()).await?;
    parsed
        .validate(&known, activating)
        .map_err(|e| ApiError::BadRequest(e.0))?;
    // Stored as the engine reads it: unknown fields dropped, defaults written out.
    serde_json::to_value(&parsed).map_err(|e| ApiError::Internal(Box::new(e)))
}

#[OpenApi(tag = "ApiTags::Journeys")]
impl JourneysApi {
    /// Every journey with its entered, active, finished and converted contacts and the revenue of its e-mails.
    #[oai(path = "/api/journeys", method = "get", operation_id = "listJourneys")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<JourneySummary>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                Ok(store::journeys::list(tx).await?)
            })
            .await?;
        let money = auth.0.may(&MONEY_PERMISSIONS);
        Ok(Json(
            rows.into_iter()
                .map(|j| JourneySummary {
                    id: j.id,
                    name: j.name,
                    status: j.status,
                    version: j.version,
                    entered: j.entered,
                    active: j.active,
                    finished: j.finished,
                    converted: j.converted,
                    revenue_cents: money.then_some(j.revenue_cents),
                })
                .collect(),
        ))
    }

    /// Creates a draft journey (version 1).
    #[oai(
        path = "/api/journeys",
        method = "post",
        operation_id = "createJourney"
    )]
    async fn create(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        input: Json<JourneyInput>,
    ) -> Result<JourneyCreated, ApiError> {
        let name = name_of(&input.0)?;
        let id = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                let definition = checked(tx, &input.0.definition, false).await?;
                Ok(store::journeys::create(tx, &name, &definition).await?)
            })
            .await?;
        Ok(JourneyCreated::Created(Json(JourneyId { id })))
    }

    /// The programme-wide frequency cap and quiet hours.
    #[oai(
        path = "/api/journeys/limits",
        method = "get",
        operation_id = "getJourneyLimits"
    )]
    async fn limits(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<JourneyLimits>, ApiError> {
        let l = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                Ok(store::journeys::get_limits(tx).await?)
            })
            .await?;
        Ok(Json(JourneyLimits {
            per_day: l.per_day,
            per_week: l.per_week,
            quiet_start_hour: l.quiet_start_hour,
            quiet_end_hour: l.quiet_end_hour,
        }))
    }

    /// Sets the frequency cap (e-mails per contact per day and per week, journeys and regular sends together)
    /// and the quiet hours (client's time zone) during which no journey e-mail goes out. Needs "edit role".
    #[oai(
        path = "/api/journeys/limits",
        method = "put",
        operation_id = "updateJourneyLimits"
    )]
    async fn put_limits(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        input: Json<JourneyLimits>,
    ) -> Result<Json<JourneyLimits>, ApiError> {
        let i = input.0;
        if i.quiet_start_hour.is_some() != i.quiet_end_hour.is_some() {
            return Err(ApiError::BadRequest(
                "Quiet hours need both a start and an end hour.".to_owned(),
            ));
        }
        if i.quiet_start_hour.is_some() && i.quiet_start_hour == i.quiet_end_hour {
            return Err(ApiError::BadRequest(
                "Quiet hours cannot start and end at the same hour.".to_owned(),
            ));
        }
        let limits = store::journeys::Limits {
            per_day: i.per_day,
            per_week: i.per_week,
            quiet_start_hour: i.quiet_start_hour,
            quiet_end_hour: i.quiet_end_hour,
        };
        // Programme-wide: it holds back every sender's mail, so it is the administrator's, as the app settings are.
        auth.0
            .tx(&state, crate::auth::EDIT_ROLE, async |tx| {
                Ok(store::journeys::put_limits(tx, &limits).await?)
            })
            .await?;
        Ok(Json(i))
    }

    /// A journey with its current definition and its versions.
    #[oai(
        path = "/api/journeys/:id",
        method = "get",
        operation_id = "getJourney"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<JourneyDetail>, ApiError> {
        let (j, versions) = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                let j = store::journeys::get(tx, id.0)
                    .await?
                    .ok_or_else(not_found)?;
                let versions = store::journeys::versions(tx, id.0).await?;
                Ok((j, versions))
            })
            .await?;
        Ok(Json(JourneyDetail {
            id: j.id,
            name: j.name,
            status: j.status,
            version: j.version,
            definition: j.definition,
            versions: versions
                .into_iter()
                .map(|v| JourneyVersion {
                    version: v.version,
                    created_at: v.created_at,
                    active: v.active > 0,
                })
                .collect(),
        }))
    }

    /// Saves a journey: a draft is edited in place; a journey that has ever been active gets a new version, and
    /// contacts already inside finish the version they entered.
    #[oai(
        path = "/api/journeys/:id",
        method = "put",
        operation_id = "updateJourney"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        input: Json<JourneyInput>,
    ) -> Result<Json<JourneyVersionNumber>, ApiError> {
        let name = name_of(&input.0)?;
        let version = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                let j = store::journeys::get(tx, id.0)
                    .await?
                    .ok_or_else(not_found)?;
                if j.status == "archived" {
                    return Err(ApiError::Conflict(
                        "An archived journey cannot be changed.".to_owned(),
                    ));
                }
                let definition = checked(tx, &input.0.definition, j.status == "active").await?;
                Ok(store::journeys::update(tx, &j, &name, &definition).await?)
            })
            .await?;
        Ok(Json(JourneyVersionNumber { version }))
    }
}
