//! Answer shapes that several areas return: a background job (every operation that starts one answers with it)
//! and an origin code (lists name theirs).

use chrono::{DateTime, Utc};
use jobs::JobRow;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object};

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
    /// `universal` or `client`: ids of the two kinds of user are counted apart.
    #[oai(nullable)]
    pub kind: Option<String>,
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
    /// Queued for more than 10 s while no worker on the queue beat in the last 15 s: the UI says "Waiting for a
    /// worker (none is running)" instead of a silent 0 %. It runs once a worker is back.
    #[oai(default, rename = "waitingForWorker")]
    pub waiting_for_worker: bool,
}

/// How long a job waits in the queue before "waiting for a worker" can be said of it.
const WAITING_AFTER: chrono::TimeDelta = chrono::TimeDelta::seconds(10);

impl Job {
    /// The job as answered when `live_workers` workers are live on its queue.
    pub fn with_workers(row: JobRow, live_workers: i64) -> Self {
        let waiting =
            live_workers == 0 && row.status == "queued" && Utc::now() - row.updated > WAITING_AFTER;
        Self {
            waiting_for_worker: waiting,
            ..row.into()
        }
    }
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
            user: JobUser {
                id: row.user_id,
                kind: row.user_kind,
            },
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
            waiting_for_worker: false,
        }
    }
}

#[derive(ApiResponse)]
pub enum JobAccepted {
    /// The job is queued; poll `/api/jobs/{id}/` for its progress.
    #[oai(status = 202)]
    Accepted(Json<Job>),
}

/// A contact origin code: how a person first entered the file.
#[derive(Debug, Clone, Object, sqlx::FromRow)]
pub struct OriginCode {
    pub id: i64,
    pub name: String,
    /// Same as name; select widgets read `label`.
    pub label: String,
}

impl From<store::origin_codes::Code> for OriginCode {
    fn from(code: store::origin_codes::Code) -> Self {
        Self {
            id: code.id,
            label: code.name.clone(),
            name: code.name,
        }
    }
}
