//! Email › Experiments (`/experiments`, pagePerformance like the Performance page): a mailing's variants tested
//! on a fraction of its audience, the result with its statistics, and the winner send (docs/experiments.md).

mod detail;
mod input;
mod shape;

use super::{ApiTags, Deleted};
use crate::auth::{ClientAuth, Needs};
use crate::error::ApiError;
use crate::state::SharedState;
use detail::detail;
use input::input;
pub use input::{ExperimentInput, SampleSizeInput, SendWinnerInput};
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;
use shape::*;
use store::experiments::{self as store_x, ExperimentError};

const PAGE_PERFORMANCE: &str = "pagePerformance";

pub struct ExperimentsApi;

impl From<ExperimentError> for ApiError {
    fn from(e: ExperimentError) -> Self {
        match e {
            ExperimentError::NotFound | ExperimentError::MailingNotFound => {
                ApiError::NotFound(e.to_string())
            }
            ExperimentError::Invalid(m) => ApiError::BadRequest(m),
            ExperimentError::Conflict(m) => ApiError::Conflict(m),
            ExperimentError::Db(e) => e.into(),
        }
    }
}

#[OpenApi(tag = "ApiTags::Performance")]
impl ExperimentsApi {
    /// Experiments, newest first.
    #[oai(
        path = "/api/experiments",
        method = "get",
        operation_id = "listExperiments"
    )]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<ExperimentSummary>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, PAGE_PERFORMANCE, async |tx| {
                Ok(store_x::list(tx).await?)
            })
            .await?;
        Ok(Json(rows.into_iter().map(summary).collect()))
    }

    /// Creates a draft experiment of an unsent mailing with at least two variants.
    #[oai(
        path = "/api/experiments",
        method = "post",
        operation_id = "createExperiment"
    )]
    async fn create(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<ExperimentInput>,
    ) -> Result<Json<ExperimentDetail>, ApiError> {
        let new = input(body.0);
        let answer = auth
            .0
            .tx(&state, PAGE_PERFORMANCE, async |tx| {
                let id = store_x::create(tx, &new).await?;
                detail(tx, id).await
            })
            .await?;
        Ok(Json(answer))
    }

    /// Mailings an experiment can test: unsent, with at least two variants, without an experiment.
    #[oai(
        path = "/api/experiments/mailings",
        method = "get",
        operation_id = "listExperimentMailings"
    )]
    async fn mailings(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<ExperimentMailing>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, PAGE_PERFORMANCE, async |tx| {
                Ok(store_x::candidate_mailings(tx).await?)
            })
            .await?;
        Ok(Json(
            rows.into_iter()
                .map(|(id, name, variants)| ExperimentMailing { id, name, variants })
                .collect(),
        ))
    }

    /// The sample-size check of a planned test: the cell size against the size needed to detect the lift.
    #[oai(
        path = "/api/experiments/sample-size",
        method = "post",
        operation_id = "checkExperimentSampleSize"
    )]
    async fn check_sample_size(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<SampleSizeInput>,
    ) -> Result<Json<SampleSizeCheck>, ApiError> {
        auth.0.check(PAGE_PERFORMANCE)?;
        let b = body.0;
        store_x::check_plan(
            b.test_fraction,
            b.baseline_rate,
            b.expected_lift,
            b.alpha,
            b.power,
        )?;
        let s = auth
            .0
            .tx(&state, PAGE_PERFORMANCE, async |tx| {
                Ok(store_x::sample_size(
                    tx,
                    b.mailing_id,
                    b.test_fraction,
                    b.baseline_rate,
                    b.expected_lift,
                    b.alpha,
                    b.power,
                )
                .await?)
            })
            .await?;
        Ok(Json(sample_size(
            &s,
            b.baseline_rate,
            b.expected_lift,
            b.alpha,
            b.power,
        )))
    }

    /// An experiment: its settings, each variant's figures so far, the result and the winner send.
    #[oai(
        path = "/api/experiments/:id",
        method = "get",
        operation_id = "getExperiment"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<ExperimentDetail>, ApiError> {
        let answer = auth
            .0
            .tx(&state, PAGE_PERFORMANCE, async |tx| detail(tx, id.0).await)
            .await?;
        Ok(Json(answer))
    }

    /// Deletes a draft experiment (409 once it has started).
    #[oai(
        path = "/api/experiments/:id",
        method = "delete",
        operation_id = "deleteExperiment"
    )]
    async fn delete(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Deleted, ApiError> {
        auth.0
            .tx(&state, PAGE_PERFORMANCE, async |tx| {
                Ok(store_x::delete_draft(tx, id.0).await?)
            })
            .await?;
        Ok(Deleted::Deleted)
    }

    /// Starts the test: the cells are drawn and their send is queued.
    #[oai(
        path = "/api/experiments/:id/start",
        method = "post",
        operation_id = "startExperiment"
    )]
    async fn start(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<ExperimentDetail>, ApiError> {
        auth.0
            .enqueue(&state, PAGE_PERFORMANCE, async |tx| {
                let mailing_id = store_x::start(tx, id.0).await?;
                Ok(jobs::JobKind::SendMailing { mailing_id })
            })
            .await?;
        let answer = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| detail(tx, id.0).await)
            .await?;
        Ok(Json(answer))
    }

    /// Sends the winner to the rest of the audience (an experiment held for a person, or one whose test found no
    /// significant difference: then `variant` names the one to send).
    #[oai(
        path = "/api/experiments/:id/send-winner",
        method = "post",
        operation_id = "sendExperimentWinner"
    )]
    async fn send_winner(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        body: Json<SendWinnerInput>,
    ) -> Result<Json<ExperimentDetail>, ApiError> {
        let chosen = body.0.variant.map(|v| v.to_lowercase());
        auth.0
            .enqueue(&state, PAGE_PERFORMANCE, async |tx| {
                let mailing_id = store_x::begin_winner_send(tx, id.0, chosen.as_deref()).await?;
                Ok(jobs::JobKind::SendMailing { mailing_id })
            })
            .await?;
        let answer = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| detail(tx, id.0).await)
            .await?;
        Ok(Json(answer))
    }

    /// Selection data: experiment names, newest first.
    #[oai(
        path = "/api/selection/experiment-names",
        method = "get",
        operation_id = "listExperimentNames"
    )]
    async fn names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<ExperimentOption>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, crate::auth::PAGE_PERFORMANCE, async |tx| {
                Ok(store_x::names(tx).await?)
            })
            .await?;
        Ok(Json(
            rows.into_iter()
                .map(|(id, label)| ExperimentOption {
                    id: id.to_string(),
                    label,
                })
                .collect(),
        ))
    }

    /// Selection data: the types of experiment (what the variants differ in).
    #[oai(
        path = "/api/selection/experiment-types",
        method = "get",
        operation_id = "listExperimentTypes"
    )]
    async fn types(&self, _auth: ClientAuth) -> Result<Json<Vec<ExperimentOption>>, ApiError> {
        // The answer holds no client data, but the token is checked all the same: its 401 is declared.
        Ok(Json(
            store_x::KINDS
                .iter()
                .map(|(id, label)| ExperimentOption {
                    id: (*id).to_owned(),
                    label: (*label).to_owned(),
                })
                .collect(),
        ))
    }
}
