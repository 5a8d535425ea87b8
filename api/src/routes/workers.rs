//! The worker processes of the api's queue, for the System page (issue 28): whether each is live, its last beat
//! and poll, and what it runs. A client sees its own running jobs by id and only a count of other clients'.

use super::ApiTags;
use crate::auth::{ClientAuth, EDIT_ROLE};
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct WorkersApi;

/// A worker process.
#[derive(Debug, Object)]
pub struct WorkerStatus {
    pub name: String,
    pub host: String,
    pub started: DateTime<Utc>,
    /// Beat in the last 15 s: the worker takes jobs.
    pub live: bool,
    #[oai(rename = "lastBeat")]
    pub last_beat: DateTime<Utc>,
    /// The last time its queue poll ran; a poll that stops for 15 s is restarted, then the process exits.
    #[oai(rename = "lastPoll")]
    pub last_poll: DateTime<Utc>,
    /// Jobs it runs now, of every client.
    #[oai(rename = "runningJobs")]
    pub running_jobs: i64,
    /// Those of the current client.
    #[oai(rename = "jobIds")]
    pub job_ids: Vec<i64>,
}

#[OpenApi(tag = "ApiTags::Jobs")]
impl WorkersApi {
    /// The worker processes of this installation, live ones first (at most 100).
    #[oai(path = "/api/workers", method = "get", operation_id = "listWorkers")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<WorkerStatus>>, ApiError> {
        auth.0.require(EDIT_ROLE)?;
        let client_id = auth.0.client.id;
        let rows = jobs::liveness::workers(&state.tenancy, state.queue.name()).await?;
        Ok(Json(
            rows.into_iter()
                .map(|row| WorkerStatus {
                    running_jobs: i64::try_from(row.running.0.len()).unwrap_or(i64::MAX),
                    job_ids: row
                        .running
                        .0
                        .iter()
                        .filter(|r| r.client_id == client_id)
                        .map(|r| r.job_id)
                        .collect(),
                    name: row.name,
                    host: row.host,
                    started: row.started,
                    live: row.live,
                    last_beat: row.beat,
                    last_poll: row.polled,
                })
                .collect(),
        ))
    }
}
