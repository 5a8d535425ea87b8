//! Demo journeys: a welcome series and a recurring-failure rescue with eight weeks of history. Seeded once.

use crate::error::ApiError;
use store::demo::journeys as j;

pub async fn seed_journeys(tx: &mut tenancy::TenantTx) -> Result<(), ApiError> {
    if j::journeys_count(tx).await? > 0 {
        return Ok(());
    }
    j::insert_journeys(tx).await?;
    Ok(())
}
