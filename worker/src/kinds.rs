use crate::import::{self, ImportPlan};
use crate::{JobError, JobResult};
use serde_json::json;
use sqlx::PgConnection;

/// Every kind of background job, with its payload. Stored as `command` + `payload` on the job row.
#[derive(Debug, Clone, PartialEq)]
pub enum JobKind {
    /// Recomputes every CRM list's member count from the contacts it selects.
    RecountLists,
    /// A file uploaded into a new CRM list.
    ListUpload(ImportPlan),
    /// An NGP saved list.
    NgpImport(ImportPlan),
    /// A contact file with a user's column mapping.
    ContactImport(ImportPlan),
}

impl JobKind {
    /// The name the UI shows in banners and on the jobs page (the spec names "NGP Import").
    pub fn label(&self) -> &'static str {
        match self {
            Self::RecountLists => "Recount lists",
            Self::ListUpload(_) => "List Upload",
            Self::NgpImport(_) => "NGP Import",
            Self::ContactImport(_) => "Contact Import",
        }
    }

    pub fn command(&self) -> &'static str {
        match self {
            Self::RecountLists => "recount-lists",
            Self::ListUpload(_) => "list-upload",
            Self::NgpImport(_) => "ngp-import",
            Self::ContactImport(_) => "contact-import",
        }
    }

    pub fn payload(&self) -> serde_json::Value {
        match self {
            Self::RecountLists => json!({}),
            Self::ListUpload(plan) | Self::NgpImport(plan) | Self::ContactImport(plan) => {
                serde_json::to_value(plan).unwrap_or_default()
            }
        }
    }

    /// Reads a kind back from its row. A command this build does not know is an error, never a guess.
    pub fn from_row(command: &str, payload: serde_json::Value) -> Result<Self, JobError> {
        let plan = || serde_json::from_value::<ImportPlan>(payload.clone());
        match command {
            "recount-lists" => Ok(Self::RecountLists),
            "list-upload" => Ok(Self::ListUpload(plan()?)),
            "ngp-import" => Ok(Self::NgpImport(plan()?)),
            "contact-import" => Ok(Self::ContactImport(plan()?)),
            other => Err(JobError::UnknownCommand(other.to_owned())),
        }
    }

    /// Runs the job inside the client's schema. Must be idempotent: delivery is at least once.
    pub async fn run(&self, conn: &mut PgConnection) -> Result<JobResult, JobError> {
        match self {
            Self::RecountLists => recount_lists(conn).await,
            Self::ListUpload(plan) | Self::NgpImport(plan) | Self::ContactImport(plan) => {
                import::run(conn, plan).await
            }
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
