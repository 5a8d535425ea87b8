//! Demo media: Meta and Google campaigns › ad groups › ads with a daily history, tied to the demo's `fb_…`
//! refcodes and its Facebook and Google sign-up origin codes. Seeded once; running it again changes nothing.

use crate::error::ApiError;
use store::demo::media as m;

pub async fn seed_media(tx: &mut tenancy::TenantTx) -> Result<(), ApiError> {
    if m::ads_count(tx).await? > 0 {
        return Ok(());
    }
    m::insert_ads(tx).await?;
    m::insert_ad_days(tx).await?;
    m::link_codes(tx).await?;
    m::insert_election_day(tx).await?;
    Ok(())
}
