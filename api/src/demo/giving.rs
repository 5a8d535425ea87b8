//! The demo's giving: two years of gifts, each naming the donor's US state and ZIP.

use crate::error::ApiError;
use store::demo::giving as g;

/// Two years of giving, set-based. Each origin code brings donors at its own rate (from about one contact in
/// sixteen to one in two); a donor gives from the day they arrived (one in four stops at some point); days spread
/// over the two years and cluster at month ends and more at quarter ends; a sixth of the gifts are monthly
/// recurring; about 1% are refunded; every gift names the donor's US state and ZIP; three gifts in four carry a
/// refcode of a form, an ad, SMS or the homepage. A mailing's refcode is only on
/// gifts its recipients made after it reached them (here and in the programme's flights): a mailing not sent has
/// none. Idempotent.
pub(super) async fn seed_gifts(tx: &mut tenancy::TenantTx, gifts: i64) -> Result<(), ApiError> {
    let existing = g::contributions_count(tx).await?;
    if existing > 0 || gifts <= 0 {
        return Ok(());
    }
    g::insert_source_codes(tx).await?;
    g::insert_gifts(tx, gifts).await?;
    g::insert_newsletter_gifts(tx).await?;
    store::demo::analyze(tx, "contributions").await?;
    Ok(())
}
