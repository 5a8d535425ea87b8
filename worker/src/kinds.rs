use crate::import::contributions::{self, ContributionPlan};
use crate::import::external_mailings::{self, ExternalMailingsPlan};
use crate::import::media::{self, MediaPlan};
use crate::import::{self, ImportPlan};
use crate::{JobContext, JobError, JobResult};
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
    /// Delivers a confirmed mailing to its list.
    SendMailing { mailing_id: i64 },
    /// An ActBlue or WinRed export, or a column-mapped contributions file.
    ContributionImport(ContributionPlan),
    /// Materialises a segment's members (`Some`), or refreshes RFM scores and every segment (`None`).
    UpdateSegment { segment_id: Option<i64> },
    /// A Meta Ads Manager or Google Ads export, or a column-mapped ads file.
    MediaImport(MediaPlan),
    /// Another e-mail platform's or lemlist's report of sends made there.
    ExternalMailingsImport(ExternalMailingsPlan),
    /// A large report's file, built for download (see `crate::reports`).
    BuildReport {
        kind: store::reports::ReportKind,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
        format: store::reports::files::Format,
    },
    /// One run of a scheduled report, mailed with its file attached.
    SendReport {
        schedule_id: i64,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
    },
}

impl JobKind {
    /// The name the UI shows in banners and on the jobs page (the spec names "NGP Import").
    pub fn label(&self) -> &'static str {
        match self {
            Self::RecountLists => "Recount lists",
            Self::ListUpload(_) => "List Upload",
            Self::NgpImport(_) => "NGP Import",
            Self::ContactImport(_) => "Contact Import",
            Self::SendMailing { .. } => "Send Mailing",
            Self::ContributionImport(_) => "Contributions Import",
            Self::UpdateSegment { .. } => "Update Segment",
            Self::MediaImport(_) => "Media Import",
            Self::ExternalMailingsImport(_) => "External Mailings Import",
            Self::BuildReport { .. } => "Build Report",
            Self::SendReport { .. } => "Send Report",
        }
    }

    pub fn command(&self) -> &'static str {
        match self {
            Self::RecountLists => "recount-lists",
            Self::ListUpload(_) => "list-upload",
            Self::NgpImport(_) => "ngp-import",
            Self::ContactImport(_) => "contact-import",
            Self::SendMailing { .. } => "send-mailing",
            Self::ContributionImport(_) => "contribution-import",
            Self::UpdateSegment { .. } => "update-segment",
            Self::MediaImport(_) => "media-import",
            Self::ExternalMailingsImport(_) => "external-mailings-import",
            Self::BuildReport { .. } => "build-report",
            Self::SendReport { .. } => "send-report",
        }
    }

    pub fn payload(&self) -> serde_json::Value {
        match self {
            Self::RecountLists => json!({}),
            Self::SendMailing { mailing_id } => json!({ "mailingId": mailing_id }),
            Self::ListUpload(plan) | Self::NgpImport(plan) | Self::ContactImport(plan) => {
                serde_json::to_value(plan).unwrap_or_default()
            }
            Self::ContributionImport(plan) => serde_json::to_value(plan).unwrap_or_default(),
            Self::UpdateSegment { segment_id } => json!({ "segmentId": segment_id }),
            Self::MediaImport(plan) => serde_json::to_value(plan).unwrap_or_default(),
            Self::ExternalMailingsImport(plan) => serde_json::to_value(plan).unwrap_or_default(),
            Self::BuildReport {
                kind,
                from,
                to,
                format,
            } => json!({ "kind": kind.key(), "from": from, "to": to, "format": format.key() }),
            Self::SendReport {
                schedule_id,
                from,
                to,
            } => json!({ "scheduleId": schedule_id, "from": from, "to": to }),
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
            "contribution-import" => Ok(Self::ContributionImport(serde_json::from_value(payload)?)),
            "update-segment" => Ok(Self::UpdateSegment {
                segment_id: payload.get("segmentId").and_then(serde_json::Value::as_i64),
            }),
            "media-import" => Ok(Self::MediaImport(serde_json::from_value(payload)?)),
            "external-mailings-import" => Ok(Self::ExternalMailingsImport(serde_json::from_value(
                payload,
            )?)),
            "send-mailing" => payload
                .get("mailingId")
                .and_then(serde_json::Value::as_i64)
                .map(|mailing_id| Self::SendMailing { mailing_id })
                .ok_or_else(|| {
                    JobError::UnknownCommand("send-mailing without mailingId".to_owned())
                }),
            "build-report" | "send-report" => report_from_row(command, &payload),
            other => Err(JobError::UnknownCommand(other.to_owned())),
        }
    }

    /// Runs the job for its client. Must be idempotent: delivery is at least once. Database jobs run in one
    /// transaction; a send commits recipient by recipient so it can resume.
    pub async fn run(&self, ctx: &JobContext<'_>) -> Result<JobResult, JobError> {
        let plan = match self {
            Self::SendMailing { mailing_id } => return crate::send::run(ctx, *mailing_id).await,
            Self::UpdateSegment { segment_id } => {
                return crate::segments::run(ctx, *segment_id).await
            }
            Self::BuildReport {
                kind,
                from,
                to,
                format,
            } => return crate::reports::build(ctx, *kind, *from, *to, *format).await,
            Self::SendReport {
                schedule_id,
                from,
                to,
            } => return crate::reports::send(ctx, *schedule_id, *from, *to).await,
            Self::ContributionImport(plan) => {
                let mut tx = ctx.tenancy.begin(ctx.client).await?;
                let result = contributions::run(&mut tx, plan).await?;
                tx.commit().await?;
                return Ok(result);
            }
            Self::MediaImport(plan) => {
                let mut tx = ctx.tenancy.begin(ctx.client).await?;
                let result = media::run(&mut tx, plan).await?;
                tx.commit().await?;
                return Ok(result);
            }
            Self::ExternalMailingsImport(plan) => {
                let mut tx = ctx.tenancy.begin(ctx.client).await?;
                let result = external_mailings::run(&mut tx, plan).await?;
                tx.commit().await?;
                return Ok(result);
            }
            Self::RecountLists => None,
            Self::ListUpload(plan) | Self::NgpImport(plan) | Self::ContactImport(plan) => {
                Some(plan)
            }
        };
        let mut tx = ctx.tenancy.begin(ctx.client).await?;
        let result = match plan {
            None => recount_lists(&mut tx).await?,
            Some(plan) => import::run(&mut tx, plan).await?,
        };
        tx.commit().await?;
        Ok(result)
    }
}

/// The report jobs' payloads: a missing or unknown field is an error, never a guess.
fn report_from_row(command: &str, payload: &serde_json::Value) -> Result<JobKind, JobError> {
    let bad = || JobError::UnknownCommand(format!("{command} with a bad payload"));
    let text = |name: &str| payload.get(name).and_then(serde_json::Value::as_str);
    let date = |name: &str| {
        text(name)
            .and_then(|d| d.parse::<chrono::NaiveDate>().ok())
            .ok_or_else(bad)
    };
    let (from, to) = (date("from")?, date("to")?);
    if command == "send-report" {
        let schedule_id = payload
            .get("scheduleId")
            .and_then(serde_json::Value::as_i64)
            .ok_or_else(bad)?;
        return Ok(JobKind::SendReport {
            schedule_id,
            from,
            to,
        });
    }
    let kind = store::reports::ReportKind::parse(text("kind").ok_or_else(bad)?)?;
    let format = store::reports::files::Format::parse(text("format").ok_or_else(bad)?)?;
    Ok(JobKind::BuildReport {
        kind,
        from,
        to,
        format,
    })
}

/// One set-based statement: a query list counts the contacts whose origin code it selects, an upload list its
/// member rows. Running it twice gives the same counts.
async fn recount_lists(conn: &mut PgConnection) -> Result<JobResult, JobError> {
    let (lists, changed): (i64, i64) = sqlx::query_as(
        "with counted as (
             select l.id, (select count(*) from crm_list_contacts lc where lc.list_id = l.id)::integer as n
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
