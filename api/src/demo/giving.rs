//! The demo's giving: three years of gifts and this one so far, each naming the donor's US state and ZIP.

use crate::error::ApiError;
use store::demo::giving as g;

/// Three years of giving and this one so far, set-based, with the sector's donor retention (about 25 % of new
/// donors and 45 % of repeat donors give again the next year; `store::demo::giving::insert_gifts`). Each origin
/// code brings donors at its own rate (from about one contact in sixteen to one in two); days cluster at month ends
/// and more at quarter ends; a sixth of the gifts are monthly
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
