//! A journey's life after saving: activate, pause, archive, a manual enrolment, the figures, a contact's
//! journeys, and the test clock.

use super::*;
use crate::auth::{ClientAuth, Needs};

pub struct JourneyRunsApi;

#[OpenApi(tag = "ApiTags::Journeys")]
impl JourneyRunsApi {
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
