use super::ApiTags;
use crate::auth::ClientAuth;
use crate::error::ApiError;
use crate::state::SharedState;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;
use worker::{JobKind, JobRow};

pub use crate::schemas::{Job, JobAccepted, JobResult, JobStatus, JobUser};

pub struct JobsApi;

#[OpenApi(tag = "ApiTags::Jobs")]
impl JobsApi {
    /// The current client's jobs, newest first (at most 200).
    #[oai(path = "/api/jobs", method = "get", operation_id = "listJobs")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<Job>>, ApiError> {
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let rows = JobRow::recent(&mut tx, 200).await?;
        tx.commit().await?;
        Ok(Json(rows.into_iter().map(Job::from).collect()))
    }

    /// One job of the current client.
    #[oai(path = "/api/jobs/:id", method = "get", operation_id = "getJob")]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<Job>, ApiError> {
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let row = JobRow::find(&mut tx, id.0).await?;
        tx.commit().await?;
        row.map(|r| Json(r.into()))
            .ok_or_else(|| ApiError::NotFound("Job not found".to_owned()))
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
        let tx = state.tenancy.begin(&auth.0.client).await?;
        let row = state
            .queue
            .enqueue(tx, Some(auth.0.user_id()), &JobKind::RecountLists {})
            .await?;
        Ok(JobAccepted::Accepted(Json(row.into())))
    }
}
