use crate::{JobError, JobResult};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgConnection;

/// Every kind of background job, with its payload. Stored as `command` + `payload` on the job row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "command", content = "payload", rename_all = "kebab-case")]
pub enum JobKind {
    /// Recomputes every CRM list's member count from the contacts it selects.
    RecountLists,
}

impl JobKind {
    /// The name the UI shows in banners and on the jobs page.
    pub fn label(&self) -> &'static str {
        match self {
            Self::RecountLists => "Recount lists",
        }
    }

    pub fn command(&self) -> &'static str {
        match self {
            Self::RecountLists => "recount-lists",
        }
    }

    pub fn payload(&self) -> serde_json::Value {
        match self {
            Self::RecountLists => json!({}),
        }
    }

    /// Reads a kind back from its row. A command this build does not know is an error, never a guess.
    pub fn from_row(command: &str, _payload: serde_json::Value) -> Result<Self, JobError> {
        match command {
            "recount-lists" => Ok(Self::RecountLists),
            other => Err(JobError::UnknownCommand(other.to_owned())),
        }
    }

    /// Runs the job inside the client's schema. Must be idempotent: delivery is at least once.
    pub async fn run(&self, conn: &mut PgConnection) -> Result<JobResult, JobError> {
        match self {
            Self::RecountLists => recount_lists(conn).await,
        }
    }
}

/// One set-based statement: a query list counts the contacts whose origin code it selects, an upload list its
/// member rows. Running it twice gives the same counts.
async fn recount_lists(conn: &mut PgConnection) -> Result<JobResult, JobError> {
    let (lists, changed): (i64, i64) = sqlx::query_as(
        "with counted as (
             select l.id,
                    case when l.kind = 'query'
                         then (select count(*) from contacts c where c.origin_code_id = any (l.origin_code_ids))
                         else (select count(*) from crm_list_members m where m.list_id = l.id)
                    end::integer as n
             from crm_lists l
         ), updated as (
             update crm_lists l set count = counted.n
             from counted where l.id = counted.id and l.count <> counted.n
             returning l.id
         )
         select (select count(*) from counted), (select count(*) from updated)",
    )
    .fetch_one(conn)
    .await?;
    let noun = if lists == 1 { "list" } else { "lists" };
    Ok(JobResult {
        message: format!("Recounted {lists} {noun}; {changed} changed."),
        link: Some("/crm-lists".to_owned()),
        segment_id: None,
        details: json!({ "lists": lists, "changed": changed }),
    })
}
