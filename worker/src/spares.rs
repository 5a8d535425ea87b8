//! Keeps spare client schemas ready (see `tenancy`'s `spares`), so that an operator creating a client waits for
//! a rename instead of every tenant migration. Several workers take turns (`Tenancy::top_up_spares` holds an
//! advisory lock), so together they keep the target, not a set each.

use std::time::Duration;
use tenancy::Tenancy;

/// Tops up to `target` spares at once and then every `every`, until the task is dropped.
pub async fn run(tenancy: Tenancy, target: usize, every: Duration) {
    let mut tick = tokio::time::interval(every);
    loop {
        tick.tick().await;
        match tenancy.top_up_spares(target).await {
            Ok(0) => {}
            Ok(made) => tracing::info!(made, target, "spare client schemas made"),
            Err(e) => {
                tracing::warn!(error = %telemetry::Chain(&e), "making spare client schemas failed")
            }
        }
    }
}
