use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::types::Json;
use sqlx::PgConnection;

/// The user who started a job. Ids of universal and client users come from different tables, so the kind is
/// part of who they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobOwner {
    pub id: i64,
    pub kind: domain::UserKind,
}

/// What a finished job reports to the user: a sentence, where to look, and the figures behind it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    pub message: String,
    pub link: Option<String>,
    pub segment_id: Option<i64>,
    pub details: serde_json::Value,
}

/// A row of the client's `jobs` table.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct JobRow {
    pub id: i64,
    pub label: String,
    pub command: String,
    pub status: String,
    pub progress: i16,
    pub success: Option<bool>,
    pub is_active: bool,
    pub result: Option<Json<JobResult>>,
    pub error: Option<String>,
    pub attempts: i32,
    pub user_id: Option<i64>,
    /// `universal` or `client`: which table `user_id` points into (null for jobs from before it was kept).
    pub user_kind: Option<String>,
    pub created: DateTime<Utc>,
    pub updated: DateTime<Utc>,
}

macro_rules! job_columns {
    () => {
        "id, label, command, status, progress, success, is_active, result, error, attempts, user_id, user_kind, created, updated"
    };
}
pub(crate) use job_columns;

impl JobRow {
    pub fn completed(&self) -> bool {
        self.status == "done"
    }

    /// One job of the client whose schema `conn` is in.
    pub async fn find(conn: &mut PgConnection, id: i64) -> Result<Option<Self>, sqlx::Error> {
        sqlx::query_as(concat!(
            "select ",
            job_columns!(),
            " from jobs where id = $1"
        ))
        .bind(id)
        .fetch_optional(conn)
        .await
    }

    /// The client's most recent jobs, newest first: everyone's, or only those `owner` started.
    pub async fn recent(
        conn: &mut PgConnection,
        owner: Option<JobOwner>,
        limit: i64,
    ) -> Result<Vec<Self>, sqlx::Error> {
        sqlx::query_as(concat!(
            "select ",
            job_columns!(),
            " from jobs where ($2::bigint is null or (user_id = $2 and user_kind = $3))
              order by created desc, id desc limit $1"
        ))
        .bind(limit)
        .bind(owner.map(|o| o.id))
        .bind(owner.map(|o| o.kind.as_str()))
        .fetch_all(conn)
        .await
    }

    /// Whether `owner` started this job.
    pub fn started_by(&self, owner: JobOwner) -> bool {
        self.user_id == Some(owner.id) && self.user_kind.as_deref() == Some(owner.kind.as_str())
    }
}
