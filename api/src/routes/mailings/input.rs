//! Checks on what a mailing's editor sends: required single-line fields and references that exist.

use super::{audience, MailingInput};
use crate::auth::{ClientSession, PAGE_SEGMENTS};
use crate::error::ApiError;
use tenancy::TenantTx;

pub(super) fn required(value: &str, what: &str) -> Result<String, ApiError> {
    let v = value.trim();
    if v.is_empty() {
        return Err(ApiError::BadRequest(format!("{what} is required")));
    }
    // Subjects and names end up in mail headers: no line breaks, ever.
    if v.chars().any(|c| c.is_control()) {
        return Err(ApiError::BadRequest(format!(
            "{what} must be a single line"
        )));
    }
    Ok(v.to_owned())
}

/// Checks the sender, the audience and the variants. A segment (as the audience or left out) needs
/// pageSegments, as the segment's page does; without it an id would tell whether a segment exists.
pub(super) async fn check_refs(
    tx: &mut TenantTx,
    input: &MailingInput,
    session: &ClientSession,
) -> Result<audience::Audience, ApiError> {
    let names_segments = input.segment_id.is_some()
        || input
            .suppression_segment_ids
            .as_ref()
            .is_some_and(|s| !s.is_empty());
    if names_segments {
        session.require(PAGE_SEGMENTS)?;
    }
    if !store::senders::exists(tx, input.sender_id).await? {
        return Err(ApiError::BadRequest("Unknown sender".to_owned()));
    }
    audience::check(
        tx,
        input.list_id,
        input.segment_id,
        input.suppression_list_ids.as_ref(),
        input.suppression_segment_ids.as_ref(),
        input.variants.as_ref(),
    )
    .await
}

pub(super) fn preview_text(input: &MailingInput) -> Result<String, ApiError> {
    let v = input.preview_text.as_deref().unwrap_or("").trim();
    if v.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(
            "Preview text must be a single line".to_owned(),
        ));
    }
    Ok(v.to_owned())
}
