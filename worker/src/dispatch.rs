//! Runs a job of each kind: what a [`JobKind`] is lives in the `jobs` crate, what it does lives here.

use crate::import::{self, contributions, external_mailings, media};
use crate::JobContext;
use jobs::{JobError, JobKind, JobResult};
use serde_json::json;
use sqlx::PgConnection;

/// Runs the job for its client. Must be idempotent: delivery is at least once. Database jobs run in one
/// transaction; a send commits recipient by recipient so it can resume.
pub(crate) async fn run(kind: &JobKind, ctx: &JobContext<'_>) -> Result<JobResult, JobError> {
    let plan = match kind {
        JobKind::SendMailing { mailing_id } => return crate::send::run(ctx, *mailing_id).await,
        JobKind::UpdateSegment { segment_id } => {
            return crate::segments::run(ctx, *segment_id).await
        }
        JobKind::BuildReport {
            kind,
            from,
            to,
            format,
        } => return crate::reports::build(ctx, *kind, *from, *to, *format).await,
        JobKind::SendReport {
            schedule_id,
            from,
            to,
        } => return crate::reports::send(ctx, *schedule_id, *from, *to).await,
        JobKind::ContributionImport(plan) => {
            let mut tx = ctx.tenancy.begin(ctx.client).await?;
            let result = contributions::run(&mut tx, plan).await?;
            tx.commit().await?;
            return Ok(result);
        }
        JobKind::MediaImport(plan) => {
            let mut tx = ctx.tenancy.begin(ctx.client).await?;
            let result = media::run(&mut tx, plan).await?;
            tx.commit().await?;
            return Ok(result);
        }
        JobKind::ExternalMailingsImport(plan) => {
            let mut tx = ctx.tenancy.begin(ctx.client).await?;
            let result = external_mailings::run(&mut tx, plan).await?;
            tx.commit().await?;
            return Ok(result);
        }
        JobKind::RefreshRetention {} => {
            let mut tx = ctx.tenancy.begin(ctx.client).await?;
            // The answers read in the last day are computed again at once: nobody waits for them tomorrow.
            let read = store::retention::warm::read_today(&mut tx).await?;
            let refreshed = store::retention::refresh(&mut tx).await?;
            store::retention::warm::recompute_all(&mut tx, &read).await?;
            tx.commit().await?;
            return Ok(JobResult {
                message: "Refreshed the retention figures.".to_owned(),
                link: Some("/revenue/retention".to_owned()),
                segment_id: None,
                details: json!({ "refreshed": refreshed }),
            });
        }
        JobKind::RefreshPortfolio {} => return crate::portfolio::refresh(ctx).await,
        JobKind::RecountLists {} => None,
        JobKind::ListUpload(plan) | JobKind::NgpImport(plan) | JobKind::ContactImport(plan) => {
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

/// One set-based statement: a query list counts the contacts whose origin code it selects, an upload list its
/// member rows. Running it twice gives the same counts.
async fn recount_lists(conn: &mut PgConnection) -> Result<JobResult, JobError> {
    let (lists, changed) = store::lists::recount_all(conn).await?;
    let noun = if lists == 1 { "list" } else { "lists" };
    Ok(JobResult {
        message: format!("Recounted {lists} {noun}; {changed} changed."),
        link: Some("/crm-lists".to_owned()),
        segment_id: None,
        details: json!({ "lists": lists, "changed": changed }),
    })
}
