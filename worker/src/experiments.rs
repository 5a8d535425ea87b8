//! The experiments' part of the scheduler pass: moves experiments on as their sends finish, judges those whose
//! wait is over and, for a winner with auto-send, starts the winner send (the mailing's own send job, so it is
//! resumable and mails nobody twice). See `store::experiments`.

use jobs::{JobError, JobKind, JobQueue};
use tenancy::Tenancy;

/// One pass for one client; answers how many experiments it judged.
pub async fn experiments_due(
    tenancy: &Tenancy,
    queue: &JobQueue,
    client: &tenancy::Client,
) -> Result<usize, JobError> {
    let mut tx = tenancy.begin(client).await?;
    store::experiments::advance(&mut tx).await?;
    tx.commit().await?;
    let mut judged = 0;
    loop {
        let mut tx = tenancy.begin(client).await?;
        let Some((id, send_now)) = store::experiments::decide_next(&mut tx).await? else {
            tx.commit().await?;
            return Ok(judged);
        };
        judged += 1;
        if !send_now {
            tx.commit().await?;
            tracing::info!(client = %client.short_name, experiment = id, "experiment judged; held");
            continue;
        }
        let mailing_id = store::experiments::begin_winner_send(&mut tx, id, None)
            .await
            .map_err(|e| match e {
                store::experiments::ExperimentError::Db(e) => JobError::Database(e),
                other => JobError::Unusable(Box::new(other)),
            })?;
        queue
            .enqueue(tx, None, &JobKind::SendMailing { mailing_id })
            .await?;
        tracing::info!(client = %client.short_name, experiment = id, "experiment judged; winner send queued");
    }
}
