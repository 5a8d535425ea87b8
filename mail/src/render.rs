//! One recipient's copy of a mailing, as the send builds it and as "Send to my inbox" builds its test copy: merge
//! tags filled, preview text, tracked links, unsubscribe link and header, and a Message-ID.

use super::links::{LinkSigner, Recipient};
use super::{merge, MergeValues, Outgoing};

/// The contact id test copies' links are signed for: no contact has it, so their opens and clicks go to the
/// test-only record and never into a mailing's figures.
pub const TEST_CONTACT: i64 = 0;

/// One variant of a mailing as it is sent: its letter, subject, preview text, body (donation links already carry
/// the variant's refcode) and sender.
#[derive(Debug, Clone)]
pub struct Letter {
    pub letter: String,
    pub subject: String,
    pub preview: String,
    pub body: String,
    pub from_name: String,
    pub from_address: String,
    pub reply_to: Option<String>,
}

/// The copy of `letter` for one recipient.
pub fn render(
    links: &LinkSigner,
    client_id: i64,
    letter: &Letter,
    mailing_id: i64,
    contact_id: i64,
    values: &MergeValues,
) -> Outgoing {
    let recipient = Recipient {
        client_id,
        mailing_id,
        contact_id,
    };
    Outgoing {
        from_name: letter.from_name.clone(),
        from_address: letter.from_address.clone(),
        reply_to: letter.reply_to.clone(),
        to: values.email.clone(),
        // The unsubscribe link belongs in the body; in a subject it is nothing.
        subject: merge(&letter.subject, values).replace("{{Unsubscribe}}", ""),
        html: links.instrument(
            &with_preview(
                &merge(&letter.preview, values).replace("{{Unsubscribe}}", ""),
                &merge(&letter.body, values),
            ),
            recipient,
        ),
        unsubscribe_url: Some(links.unsubscribe_url(recipient)),
        message_id: Some(format!(
            "m{mailing_id}.c{contact_id}.k{client_id}@{}",
            letter
                .from_address
                .rsplit_once('@')
                .map_or("compass.invalid", |(_, domain)| domain)
        )),
        envelope_from: None,
        test: false,
    }
}

/// The body with its preview text first, hidden: mail clients show it beside the subject in the inbox.
pub fn with_preview(preview: &str, body: &str) -> String {
    let preview = preview.trim();
    if preview.is_empty() {
        return body.to_owned();
    }
    let escaped = preview
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!("<div style=\"display:none;max-height:0;overflow:hidden\">{escaped}</div>{body}")
}
