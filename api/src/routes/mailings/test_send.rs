//! One rendered copy of a mailing sent at once to the signed-in user.

use super::input::required;
use super::{TestSendInput, TestSendResult};
use crate::auth::ClientAuth;
use crate::error::ApiError;
use crate::state::SharedState;

/// Sends the copy; merge tags take the user's own values.
pub(super) async fn send(
    state: &SharedState,
    auth: &ClientAuth,
    input: &TestSendInput,
) -> Result<TestSendResult, ApiError> {
    required(&input.name, "Name")?;
    let subject = required(&input.subject_line, "Subject line")?;
    let mut tx = state.tenancy.begin(&auth.0.client).await?;
    let sender: Option<(String, String, Option<String>)> =
        sqlx::query_as("select name, from_address, reply_to from senders where id = $1")
            .bind(input.sender_id)
            .fetch_optional(&mut *tx)
            .await?;
    tx.commit().await?;
    let (from_name, from_address, reply_to) =
        sender.ok_or_else(|| ApiError::BadRequest("Unknown sender".to_owned()))?;
    let to = auth.0.claims.user.email.clone();
    let first_name =
        crate::identity::first_name(state, &auth.0.realm(), auth.0.claims.user.id).await?;
    // Merged exactly as the real send merges them: subject and body.
    let values = worker::mail::MergeValues {
        first_name,
        email: to.clone(),
    };
    let html = worker::mail::merge(&input.body_html, &values);
    let message = worker::mail::Outgoing {
        from_name,
        from_address,
        reply_to,
        to: to.clone(),
        subject: format!("[Test] {}", worker::mail::merge(&subject, &values)),
        html,
        unsubscribe_url: None,
        message_id: None,
    };
    state.mailer.send(&message).await.map_err(|e| match e {
        worker::mail::MailError::Address(m) => ApiError::BadRequest(m),
        other => {
            tracing::warn!(error = %other, "test send failed");
            ApiError::Unavailable(
                "The mail server did not accept the message; try again shortly".to_owned(),
            )
        }
    })?;
    Ok(TestSendResult {
        message: "Draft sent".to_owned(),
        to,
    })
}
