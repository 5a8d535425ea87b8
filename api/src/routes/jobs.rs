use super::ApiTags;
use crate::auth::ClientAuth;
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};
use worker::{JobKind, JobRow};

pub struct JobsApi;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum JobStatus {
    Queued,
    Running,
    Done,
}

#[derive(Debug, Object)]
pub struct JobUser {
    #[oai(nullable)]
    pub id: Option<i64>,
}

/// What a finished job reports.
#[derive(Debug, Object)]
pub struct JobResult {
    pub message: String,
    /// Where "View Result" leads.
    #[oai(nullable)]
    pub link: Option<String>,
    #[oai(nullable, rename = "segmentId")]
    pub segment_id: Option<i64>,
    /// The figures behind the message.
    pub details: serde_json::Value,
}

/// A background job as the UI polls it.
#[derive(Debug, Object)]
pub struct Job {
    pub id: i64,
    #[oai(rename = "_id")]
    pub underscore_id: i64,
    pub label: String,
    pub command: String,
    pub status: JobStatus,
    /// 0 to 100.
    pub progress: i32,
    pub completed: bool,
    pub is_active: bool,
    /// Set once the job is done.
    #[oai(nullable)]
    pub success: Option<bool>,
    pub created: DateTime<Utc>,
    pub updated: DateTime<Utc>,
    pub user: JobUser,
    #[oai(nullable)]
    pub result: Option<JobResult>,
    #[oai(nullable)]
    pub error: Option<String>,
}

impl From<JobRow> for Job {
    fn from(row: JobRow) -> Self {
        let status = match row.status.as_str() {
            "done" => JobStatus::Done,
            "running" => JobStatus::Running,
            _ => JobStatus::Queued,
        };
        Self {
            id: row.id,
            underscore_id: row.id,
            completed: row.completed(),
            label: row.label,
            command: row.command,
            status,
            progress: i32::from(row.progress),
            is_active: row.is_active,
            success: row.success,
            created: row.created,
            updated: row.updated,
            user: JobUser { id: row.user_id },
            result: row.result.map(|r| {
                let r = r.0;
                JobResult {
                    message: r.message,
                    link: r.link,
                    segment_id: r.segment_id,
                    details: r.details,
                }
            }),
            error: row.error,
        }
    }
}

#[derive(ApiResponse)]
pub enum JobAccepted {
    /// The job is queued; poll `/api/jobs/{id}/` for its progress.
    #[oai(status = 202)]
    Accepted(Json<Job>),
}

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
            .enqueue(tx, Some(auth.0.user_id()), &JobKind::RecountLists)
            .await?;
        Ok(JobAccepted::Accepted(Json(row.into())))
    }
}
