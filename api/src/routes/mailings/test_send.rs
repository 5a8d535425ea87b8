//! One copy of a mailing sent at once to the signed-in user, built by the same code as every recipient's copy
//! (tracked links, refcodes, unsubscribe, Message-ID) and marked as a test: "[Test] " before the subject and an
//! `X-Compass-Test: 1` header, DKIM-signed like the real copies. Its links are signed for no contact, so its opens and clicks go to the test-only
//! record and never count in the mailing's figures.

use super::input::required;
use super::{TestSendInput, TestSendResult};
use crate::auth::{ClientAuth, Needs};
use crate::error::ApiError;
use crate::state::SharedState;
use mail::render::{render, Letter, TEST_CONTACT};

/// Sends the copy; merge tags take the user's own values.
pub(super) async fn send(
    state: &SharedState,
    auth: &ClientAuth,
    input: &TestSendInput,
) -> Result<TestSendResult, ApiError> {
    required(&input.name, "Name")?;
    let subject = required(&input.subject_line, "Subject line")?;
    let preview = input
        .preview_text
        .as_deref()
        .unwrap_or("")
        .trim()
        .to_owned();
    if preview.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(
            "Preview text must be a single line".to_owned(),
        ));
    }
    let mailing_id = input.mailing_id.unwrap_or(0);
    let ((from_name, from_address, reply_to), body, signers) = auth
        .0
        .tx(state, Needs::Nothing, async |tx| {
            if input.mailing_id.is_some() && !store::mailings::exists(tx, mailing_id).await? {
                return Err(ApiError::NotFound("Mailing not found".to_owned()));
            }
            let sender = store::senders::address(tx, input.sender_id)
                .await?
                .ok_or_else(|| ApiError::BadRequest("Unknown sender".to_owned()))?;
            let body = mail::links::refcode_test_links(
                tx,
                mailing_id,
                input.send_time,
                "a",
                &input.body_html,
            )
            .await?;
            let signers =
                crate::routes::sender_domains::signers_for(state, tx, auth.0.client.id, &sender.1)
                    .await?;
            Ok((sender, body, signers))
        })
        .await?;
    let to = auth.0.claims.user.email.clone();
    let first_name =
        crate::identity::first_name(state, &auth.0.realm(), auth.0.claims.user.id).await?;
    let letter = Letter {
        letter: "a".to_owned(),
        subject,
        preview,
        body,
        from_name,
        from_address,
        reply_to,
    };
    let values = mail::MergeValues {
        first_name,
        email: to.clone(),
    };
    let mut message = render(
        &state.links,
        auth.0.client.id,
        &letter,
        mailing_id,
        TEST_CONTACT,
        &values,
    );
    message.subject = format!("[Test] {}", message.subject);
    message.test = true;
    // Each test its own id: a mailbox that drops repeated Message-IDs would hide the second test.
    let sent_at = chrono::Utc::now().timestamp_micros();
    message.message_id = message.message_id.map(|id| format!("test{sent_at}.{id}"));
    state
        .mailer
        .send_signed(&message, &signers)
        .await
        .map_err(|e| match e {
            mail::MailError::Address(m) => ApiError::BadRequest(m),
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
