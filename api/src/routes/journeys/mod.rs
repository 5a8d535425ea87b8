//! Journeys (issue 31): welcome series, thank-yous and rescues that run by themselves. A journey is a versioned
//! definition (validated on save, each refusal naming the step); the worker's engine enrols and advances contacts.
//! The Email area's operations: open to every user of the client, as mailings are, with the money left out
//! without the permissions that show revenue.

mod dto;
mod figures;

pub use dto::*;

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

    /// Starts (or resumes) the journey: its triggers enrol contacts and the engine moves them on.
    #[oai(
        path = "/api/journeys/:id/activate",
        method = "post",
        operation_id = "activateJourney"
    )]
    async fn activate(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<JourneyStatus>, ApiError> {
        auth.0
            .tx(&state, Needs::Nothing, async |tx| {
                let j = store::journeys::get(tx, id.0)
                    .await?
                    .ok_or_else(not_found)?;
                if j.status == "archived" {
                    return Err(ApiError::Conflict(
                        "An archived journey cannot be activated.".to_owned(),
                    ));
                }
                checked(tx, &j.definition, true).await?;
                store::journeys::set_status(tx, j.id, "active").await?;
                Ok(())
            })
            .await?;
        Ok(Json(JourneyStatus {
            status: "active".to_owned(),
        }))
    }

    /// Pauses the journey: no one enters and no one moves on until it is activated again.
    #[oai(
        path = "/api/journeys/:id/pause",
        method = "post",
        operation_id = "pauseJourney"
    )]
    async fn pause(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<JourneyStatus>, ApiError> {
        auth.0
            .tx(&state, Needs::Nothing, async |tx| {
                let j = store::journeys::get(tx, id.0)
                    .await?
                    .ok_or_else(not_found)?;
                if j.status != "active" {
                    return Err(ApiError::Conflict(
                        "Only an active journey can be paused.".to_owned(),
                    ));
                }
                store::journeys::set_status(tx, j.id, "paused").await?;
                Ok(())
            })
            .await?;
        Ok(Json(JourneyStatus {
            status: "paused".to_owned(),
        }))
    }

    /// Archives the journey: it stops for good and the contacts inside leave it.
    #[oai(
        path = "/api/journeys/:id/archive",
        method = "post",
        operation_id = "archiveJourney"
    )]
    async fn archive(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<JourneyStatus>, ApiError> {
        auth.0
            .tx(&state, Needs::Nothing, async |tx| {
                let j = store::journeys::get(tx, id.0)
                    .await?
                    .ok_or_else(not_found)?;
                store::journeys::set_status(tx, j.id, "archived").await?;
                store::journeys::engine::exit_all(tx, j.id, "archived").await?;
                Ok(())
            })
            .await?;
        Ok(Json(JourneyStatus {
            status: "archived".to_owned(),
        }))
    }

    /// A one-time push: every contact of the list or segment enters the active journey now (re-entry rule
    /// applies). Answers how many entered.
    #[oai(
        path = "/api/journeys/:id/enrol",
        method = "post",
        operation_id = "enrolInJourney"
    )]
    async fn enrol(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        input: Json<EnrolInput>,
    ) -> Result<Json<Enrolled>, ApiError> {
        let source = match (input.0.list_id, input.0.segment_id) {
            (Some(list), None) => store::journeys::engine::Source::List(list),
            (None, Some(segment)) => store::journeys::engine::Source::Segment(segment),
            _ => {
                return Err(ApiError::BadRequest(
                    "Choose a list or a segment to enrol.".to_owned(),
                ))
            }
        };
        let enrolled = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                let j = store::journeys::get(tx, id.0)
                    .await?
                    .ok_or_else(not_found)?;
                if j.status != "active" {
                    return Err(ApiError::Conflict(
                        "Activate the journey before enrolling contacts.".to_owned(),
                    ));
                }
                let known = store::journeys::known_refs(tx, &source.refs()).await?;
                if known != source.refs() {
                    return Err(ApiError::NotFound(
                        "The list or segment does not exist.".to_owned(),
                    ));
                }
                Ok(store::journeys::engine::enrol_source(tx, j.id, &source).await?)
            })
            .await?;
        Ok(Json(Enrolled { enrolled }))
    }

    /// Per step: contacts who reached it, e-mails sent, human opens, clicks, unsubscribes, gifts, revenue and RPM
    /// (Performance's definitions); per week: contacts who entered and how many of them gave. `version` defaults
    /// to the current one.
    #[oai(
        path = "/api/journeys/:id/figures",
        method = "get",
        operation_id = "getJourneyFigures"
    )]
    async fn figures(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        version: poem_openapi::param::Query<Option<i32>>,
    ) -> Result<Json<JourneyFigures>, ApiError> {
        figures::figures(&state, &auth.0, id.0, version.0)
            .await
            .map(Json)
    }

    /// The journeys a contact is or was in, and where.
    #[oai(
        path = "/api/contacts/:id/journeys",
        method = "get",
        operation_id = "listContactJourneys"
    )]
    async fn contact_journeys(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<Vec<ContactJourney>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, crate::auth::PAGE_CONTACTS, async |tx| {
                if store::contacts::contact(tx, id.0).await?.is_none() {
                    return Err(ApiError::NotFound("Contact not found".to_owned()));
                }
                Ok(store::journeys::of_contact(tx, id.0).await?)
            })
            .await?;
        Ok(Json(
            rows.into_iter()
                .map(|p| ContactJourney {
                    journey_id: p.journey_id,
                    name: p.name,
                    version: p.version,
                    step_id: p.step_id,
                    state: p.state,
                    entered_at: p.entered_at,
                    due_at: p.due_at,
                    exit_reason: p.exit_reason,
                })
                .collect(),
        ))
    }

    /// Tests only: moves the clock journeys read forward. Exists only when the server runs with
    /// COMPASS_TEST_CLOCK=1 (404 otherwise).
    #[oai(
        path = "/api/system/test-clock",
        method = "post",
        operation_id = "advanceTestClock"
    )]
    async fn test_clock(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        input: Json<TestClockInput>,
    ) -> Result<Json<TestClockNow>, ApiError> {
        if !store::journeys::clock::enabled() {
            return Err(ApiError::NotFound("Not found".to_owned()));
        }
        let now = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                Ok(store::journeys::clock::advance(tx, input.0.advance_hours).await?)
            })
            .await?;
        Ok(Json(TestClockNow { now }))
    }
}
