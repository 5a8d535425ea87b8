//! What the receiving server said during the send, kept as delivery events.

use crate::JobContext;
use jobs::JobError;
use store::deliverability::{Kind, NewEvent, Source};

/// What the receiving server said during the send, as a delivery event: a refusal suppresses the address and
/// marks the contact bounced, as any hard bounce does; a deferral is kept for the rates per mailbox provider.
pub(super) async fn heard(
    ctx: &JobContext<'_>,
    mailing_id: i64,
    contact_id: i64,
    kind: Kind,
    reply: &str,
) -> Result<(), JobError> {
    let mut tx = ctx.tenancy.begin(ctx.client).await?;
    store::deliverability::record(
        &mut tx,
        &[NewEvent {
            source: Source::Smtp,
            source_event_id: None,
            kind,
            status_code: enhanced_status(reply),
            diagnostic: Some(reply.to_owned()),
            email: String::new(),
            mailing_id: Some(mailing_id),
            contact_id: Some(contact_id),
            occurred_at: chrono::Utc::now(),
            evidence_id: None,
        }],
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The enhanced status code (`5.1.1`) in a server's reply, when it gives one.
fn enhanced_status(reply: &str) -> Option<String> {
    reply
        .split(|c: char| c.is_whitespace() || c == ':' || c == ',')
        .find(|word| {
            let parts: Vec<&str> = word.split('.').collect();
            parts.len() == 3
                && matches!(parts[0], "2" | "4" | "5")
                && parts[1..]
                    .iter()
                    .all(|p| !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(str::to_owned)
}
