use super::ApiTags;
use crate::auth::{ClientAuth, ClientSession, Needs};
use crate::error::ApiError;
use crate::state::SharedState;
use jobs::{JobKind, JobOwner, JobRow};
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;

pub use crate::schemas::{Job, JobAccepted, JobResult, JobStatus, JobUser};

pub struct JobsApi;

/// Whose jobs the user may see: `None` for everyone's. A client user sees the jobs they started (a job's result
/// names lists, segments and files of its owner's work); see `ClientSession::sees_every_job`.
fn visible_to(session: &ClientSession) -> Option<JobOwner> {
    (!session.sees_every_job()).then(|| session.job_owner())
}

#[OpenApi(tag = "ApiTags::Jobs")]
impl JobsApi {
    /// The current client's jobs the user may see, newest first (at most 200): a client user's own, or every
    /// job for agency staff and holders of "view user".
    #[oai(path = "/api/jobs", method = "get", operation_id = "listJobs")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<Job>>, ApiError> {
        let owner = visible_to(&auth.0);
        let rows = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                Ok(JobRow::recent(tx, owner, 200).await?)
            })
            .await?;
        let live = live_workers(&state).await?;
        Ok(Json(
            rows.into_iter()
                .map(|row| Job::with_workers(row, live))
                .collect(),
        ))
    }

    /// One job of the current client, if the user may see it (else 404, as for a job that does not exist).
    #[oai(path = "/api/jobs/:id", method = "get", operation_id = "getJob")]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<Job>, ApiError> {
        let row = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                Ok(JobRow::find(tx, id.0).await?)
            })
            .await?;
        let owner = visible_to(&auth.0);
        let row = row
            .filter(|r| owner.is_none_or(|o| r.started_by(o)))
            .ok_or_else(|| ApiError::NotFound("Job not found".to_owned()))?;
        let live = live_workers(&state).await?;
        Ok(Json(Job::with_workers(row, live)))
    }

    /// Starts a job that recounts every CRM list of the current client.
    #[oai(
        path = "/api/crm-list/recount",
        method = "post",
        operation_id = "recountLists"
    )]
    async fn recount_lists(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<JobAccepted, ApiError> {
        let row = auth
            .0
            .enqueue(&state, Needs::Nothing, async |_| {
                Ok(JobKind::RecountLists {})
            })
            .await?;
        Ok(JobAccepted::Accepted(Json(row.into())))
    }
}

/// Workers on the api's queue that beat in the last 15 s.
async fn live_workers(state: &SharedState) -> Result<i64, ApiError> {
    Ok(jobs::liveness::live_workers(&state.tenancy, state.queue.name()).await?)
}
