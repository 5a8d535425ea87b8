//! Checks on what a mailing's editor sends: required single-line fields and references that exist.

use super::{audience, MailingInput};
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

pub(super) async fn check_refs(
    tx: &mut TenantTx,
    input: &MailingInput,
) -> Result<audience::Audience, ApiError> {
    let sender: bool = sqlx::query_scalar("select exists (select 1 from senders where id = $1)")
        .bind(input.sender_id)
        .fetch_one(&mut **tx)
        .await?;
    if !sender {
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
