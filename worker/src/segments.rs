//! The "Update Segment" job: materialises one segment's members, or refreshes the RFM scores and then every
//! segment (the nightly run and the run after a contributions import). Each segment is swapped in its own
//! transaction (store::segments::compute), so a reader never sees half a segment. Running it twice gives the
//! same membership.

use crate::JobContext;
use jobs::{JobError, JobResult};
use serde_json::json;
use store::segments::{self, SegmentError};

fn job_error(e: SegmentError) -> JobError {
    match e {
        SegmentError::Db(e) => JobError::from(e),
        other => JobError::Unusable(Box::new(other)),
    }
}

pub async fn run(ctx: &JobContext<'_>, segment_id: Option<i64>) -> Result<JobResult, JobError> {
    match segment_id {
        Some(id) => {
            let mut tx = ctx.tenancy.begin(ctx.client).await?;
            let seg = segments::get(&mut tx, id).await.map_err(job_error)?;
            let rule = segments::parse(&seg.rule.0).map_err(|e| job_error(e.into()))?;
            if rule.uses_rfm() {
                segments::rfm::recompute(&mut tx).await?;
            }
            let done = segments::compute(&mut tx, id).await.map_err(job_error)?;
            tx.commit().await?;
            Ok(JobResult {
                message: format!("{} now holds {} contacts.", seg.name, done.size),
                link: Some(format!("/segments/detail?id={id}")),
                segment_id: Some(id),
                details: json!({ "size": done.size, "previousSize": done.previous_size }),
            })
        }
        None => {
            let mut tx = ctx.tenancy.begin(ctx.client).await?;
            let scored = segments::rfm::recompute(&mut tx).await?;
            let ids = segments::all_ids(&mut tx).await?;
            tx.commit().await?;
            for id in &ids {
                let mut tx = ctx.tenancy.begin(ctx.client).await?;
                match segments::compute(&mut tx, *id).await {
                    // Deleted meanwhile: nothing to do.
                    Err(SegmentError::NotFound) => {}
                    other => {
                        other.map_err(job_error)?;
                    }
                }
                tx.commit().await?;
            }
            Ok(JobResult {
                message: format!(
                    "Updated {} segments and {scored} donors' RFM scores.",
                    ids.len()
                ),
                link: Some("/segments".to_owned()),
                segment_id: None,
                details: json!({ "segments": ids.len(), "rfmDonors": scored }),
            })
        }
    }
}
