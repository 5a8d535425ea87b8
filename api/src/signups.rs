//! Form submissions are written in groups: each submission waits on a channel, a few writer tasks take whatever
//! has queued up (up to 256) and record it with one statement per client in one transaction, then answer every
//! waiting request. Under load that turns thousands of small transactions a second into a few dozen, and with
//! no load a submission is written at once (nothing waits for a batch to fill).

use crate::auth::in_client;
use crate::error::ApiError;
use crate::group_commit::next_round;
use domain::Email;
use std::collections::HashMap;
use std::sync::Arc;
use tenancy::{Client, Tenancy};
use tokio::sync::{mpsc, oneshot, Mutex};

const MAX_BATCH: usize = 256;

/// `Some(redirect_url)` when the signup was recorded; `None` when the form is unknown or disabled.
pub type SubmitOutcome = Result<Option<Option<String>>, ApiError>;

struct Pending {
    client: Client,
    form_id: i64,
    email: String,
    referrer: Option<String>,
    reply: oneshot::Sender<SubmitOutcome>,
}

pub struct SignupWriter {
    queue: mpsc::Sender<Pending>,
}

impl SignupWriter {
    /// Starts `writers` writer tasks on the current runtime.
    pub fn start(tenancy: Tenancy, writers: usize) -> Self {
        let (queue, rx) = mpsc::channel::<Pending>(8192);
        let rx = Arc::new(Mutex::new(rx));
        for _ in 0..writers.max(1) {
            tokio::spawn(write_loop(tenancy.clone(), rx.clone()));
        }
        Self { queue }
    }

    pub async fn submit(
        &self,
        client: Client,
        form_id: i64,
        email: Email,
        referrer: Option<String>,
    ) -> SubmitOutcome {
        let (reply, answer) = oneshot::channel();
        self.queue
            .send(Pending {
                client,
                form_id,
                email: email.into_string(),
                referrer,
                reply,
            })
            .await
            .map_err(|_| ApiError::internal("signup writer stopped"))?;
        answer
            .await
            .map_err(|_| ApiError::internal("signup writer dropped a submission"))?
    }
}

async fn write_loop(tenancy: Tenancy, rx: Arc<Mutex<mpsc::Receiver<Pending>>>) {
    loop {
        let round = {
            let mut rx = rx.lock().await;
            next_round(&mut rx, MAX_BATCH, |p: &Pending| p.client.id).await
        };
        let Some(groups) = round else {
            return;
        };
        for items in groups {
            let outcome = write_batch(&tenancy, &items).await;
            match outcome {
                Ok(mut redirects) => {
                    for (i, item) in items.into_iter().enumerate() {
                        let _ = item.reply.send(Ok(redirects.remove(&(i as i32))));
                    }
                }
                Err(e) => {
                    // Every submission of the batch gets the batch's answer: 503 while the database is away.
                    let message = e.to_string();
                    let unavailable = matches!(e, ApiError::Unavailable(_));
                    let cause = Arc::new(e);
                    for item in items {
                        let _ = item.reply.send(Err(if unavailable {
                            ApiError::Unavailable(message.clone())
                        } else {
                            ApiError::internal(Arc::clone(&cause))
                        }));
                    }
                }
            }
        }
    }
}

/// Writes the whole group in one statement (`store::signups::insert_batch`).
async fn write_batch(
    tenancy: &Tenancy,
    items: &[Pending],
) -> Result<HashMap<i32, Option<String>>, ApiError> {
    let Some(first) = items.first() else {
        return Ok(HashMap::new());
    };
    let forms: Vec<i64> = items.iter().map(|i| i.form_id).collect();
    let emails: Vec<&str> = items.iter().map(|i| i.email.as_str()).collect();
    let referrers: Vec<Option<&str>> = items.iter().map(|i| i.referrer.as_deref()).collect();
    let order: Vec<i32> = (0..items.len() as i32).collect();
    let rows: Vec<(i32, Option<String>)> = in_client(tenancy, &first.client, async |tx| {
        Ok(store::signups::insert_batch(tx, &forms, &emails, &referrers, &order).await?)
    })
    .await?;
    Ok(rows.into_iter().collect())
}
