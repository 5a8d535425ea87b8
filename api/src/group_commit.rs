//! What the api's group-committing writers share (form signups, ActBlue gifts, relays' delivery events): each
//! request waits on a channel while a writer task takes whatever has queued up and writes it per client in one
//! transaction, so a burst costs a few transactions instead of one per request.

use crate::error::ApiError;
use std::time::Duration;
use tokio::sync::mpsc;

/// Tries of a group that meets a deadlock, a serialization failure or a busy pool.
const TRIES: u32 = 4;

/// Waits for the first request, then takes whatever else has queued up (at most `max` in all), grouped by the
/// client `client_of` names, each group in the order its requests came. `None` once the queue is closed.
pub async fn next_round<T>(
    rx: &mut mpsc::Receiver<T>,
    max: usize,
    client_of: fn(&T) -> i64,
) -> Option<Vec<Vec<T>>> {
    let mut batch = vec![rx.recv().await?];
    while batch.len() < max {
        match rx.try_recv() {
            Ok(next) => batch.push(next),
            Err(_) => break,
        }
    }
    let mut groups: Vec<(i64, Vec<T>)> = Vec::new();
    for item in batch {
        let client = client_of(&item);
        match groups.iter_mut().find(|(c, _)| *c == client) {
            Some((_, group)) => group.push(item),
            None => groups.push((client, vec![item])),
        }
    }
    Some(groups.into_iter().map(|(_, group)| group).collect())
}

/// Runs `write` again, after a short pause, while it fails with a passing condition ([`transient`]).
pub async fn retrying<T, F, W>(what: &str, mut write: W) -> Result<T, ApiError>
where
    W: FnMut() -> F,
    F: std::future::Future<Output = Result<T, ApiError>>,
{
    let mut tries = 1;
    loop {
        match write().await {
            Err(e) if tries < TRIES && transient(&e) => {
                tracing::warn!(error = %telemetry::Chain(&e), tries, "{what} write retried");
                tokio::time::sleep(Duration::from_millis(50 << tries)).await;
                tries += 1;
            }
            outcome => return outcome,
        }
    }
}

/// A deadlock, a serialization failure or no connection to be had: the same write may well succeed again.
pub fn transient(e: &ApiError) -> bool {
    let ApiError::Internal(cause) = e else {
        return matches!(e, ApiError::Unavailable(_));
    };
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(cause.as_ref());
    while let Some(err) = next {
        if let Some(sqlx::Error::Database(db)) = err.downcast_ref::<sqlx::Error>() {
            return db.code().is_some_and(|c| matches!(&*c, "40P01" | "40001"));
        }
        next = err.source();
    }
    false
}
