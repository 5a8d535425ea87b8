//! One more try for a Redis call that failed. After a Redis restart the first call on the old connection fails
//! (broken pipe) and the connection manager reconnects; the second call goes over the new connection, so the
//! caller who happened to come first is not the one who pays for the restart.

use std::fmt::Display;
use std::future::Future;

/// Runs `call`, and once more if it fails; answers the second failure.
pub async fn once_more<T, E, F, Fut>(mut call: F) -> Result<T, E>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
    E: Display,
{
    match call().await {
        Ok(value) => Ok(value),
        Err(e) => {
            tracing::warn!(error = %e, "redis call failed; trying once more");
            call().await
        }
    }
}
