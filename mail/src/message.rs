//! A message ready to send, and how it becomes a MIME message.

use crate::text::text_version;
use crate::MailError;
use lettre::message::header::ContentType;
use lettre::message::{Mailbox, MultiPart, SinglePart};
use lettre::Message;

/// A message ready to send.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub from_name: String,
    pub from_address: String,
    pub reply_to: Option<String>,
    pub to: String,
    pub subject: String,
    pub html: String,
    /// RFC 8058 one-click unsubscribe address; adds List-Unsubscribe and List-Unsubscribe-Post.
    pub unsubscribe_url: Option<String>,
    /// A Message-ID fixed by the caller (without angle brackets). A send that goes again after a crash gives the
    /// copy the same id, so mailbox providers that drop duplicates by Message-ID show it once. Random when None.
    pub message_id: Option<String>,
    /// The envelope sender (Return-Path) when it is not the From address: a mailing copy's VERP bounce address
    /// (see [`crate::verp`]).
    pub envelope_from: Option<String>,
    /// A test copy ("Send to my inbox"): carries `X-Compass-Test: 1`.
    pub test: bool,
}

fn mailbox(name: Option<&str>, address: &str) -> Result<Mailbox, MailError> {
    let address = address
        .parse()
        .map_err(|e| MailError::Address(format!("{address}: {e}")))?;
    Ok(Mailbox::new(
        name.map(|n| n.replace(['\r', '\n'], " ")),
        address,
    ))
}

/// The designer keeps its design in a comment at the top of the body; the saved mailing has it, the sent message
/// does not (it would travel, base64 and all, inside every copy).
pub fn without_design(html: &str) -> std::borrow::Cow<'_, str> {
    let Some(start) = html.find("<!--") else {
        return html.into();
    };
    let after = html[start + 4..].trim_start();
    if !after.starts_with("compass-designer:") {
        return html.into();
    }
    match html[start..].find("-->") {
        Some(end) => format!("{}{}", &html[..start], &html[start + end + 3..]).into(),
        None => html.into(),
    }
}

impl Outgoing {
    pub fn build(&self) -> Result<Message, MailError> {
        let html = without_design(&self.html);
        let from = mailbox(Some(&self.from_name), &self.from_address)?;
        let to = mailbox(None, &self.to)?;
        // Given the envelope, lettre does not derive it by formatting and parsing the headers again (a fifth of
        // the work of building a message).
        let sender = match &self.envelope_from {
            Some(address) => address
                .parse()
                .map_err(|e| MailError::Address(format!("{address}: {e}")))?,
            None => from.email.clone(),
        };
        let envelope = lettre::address::Envelope::new(Some(sender), vec![to.email.clone()])
            .map_err(|e| MailError::Address(e.to_string()))?;
        let mut builder = Message::builder()
            .envelope(envelope)
            .from(from)
            .to(to)
            .subject(self.subject.replace(['\r', '\n'], " "));
        if let Some(reply_to) = &self.reply_to {
            builder = builder.reply_to(mailbox(None, reply_to)?);
        }
        if let Some(id) = &self.message_id {
            builder = builder.message_id(Some(format!("<{id}>")));
        }
        if self.test {
            builder = builder.raw_header(lettre::message::header::HeaderValue::new(
                lettre::message::header::HeaderName::new_from_ascii_str("X-Compass-Test"),
                "1".to_owned(),
            ));
        }
        if let Some(url) = &self.unsubscribe_url {
            builder = builder
                .raw_header(lettre::message::header::HeaderValue::new(
                    lettre::message::header::HeaderName::new_from_ascii_str("List-Unsubscribe"),
                    format!("<{url}>"),
                ))
                .raw_header(lettre::message::header::HeaderValue::new(
                    lettre::message::header::HeaderName::new_from_ascii_str(
                        "List-Unsubscribe-Post",
                    ),
                    "List-Unsubscribe=One-Click".to_owned(),
                ));
        }
        builder
            .multipart(
                MultiPart::alternative()
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_PLAIN)
                            .body(text_version(&html)),
                    )
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_HTML)
                            .body(html.into_owned()),
                    ),
            )
            .map_err(|e| MailError::Build(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_design_comment_stays_with_the_mailing_and_is_not_sent() {
        let body = "<!-- compass-designer:eyJibG9ja3MiOltdfQ== -->\n<p>Hello</p><!-- other -->";
        assert_eq!(without_design(body), "\n<p>Hello</p><!-- other -->");
        assert_eq!(without_design("<p>Hi</p>"), "<p>Hi</p>");
        let message = Outgoing {
            from_name: "Team".into(),
            from_address: "team@example.org".into(),
            reply_to: None,
            to: "ann@example.org".into(),
            subject: "Hi".into(),
            html: body.into(),
            unsubscribe_url: None,
            message_id: None,
            envelope_from: None,
            test: false,
        };
        let raw = String::from_utf8(message.build().unwrap().formatted()).unwrap();
        assert!(!raw.contains("compass-designer"), "{raw}");
        assert!(raw.contains("Hello"));
    }

    #[test]
    fn subjects_and_names_cannot_inject_headers() {
        let message = Outgoing {
            from_name: "Team\r\nBcc: victim@example.org".into(),
            from_address: "team@example.org".into(),
            reply_to: None,
            to: "ann@example.org".into(),
            subject: "Hello\r\nBcc: victim@example.org".into(),
            html: "<p>Hi</p>".into(),
            unsubscribe_url: Some("https://example.org/u/abc".into()),
            message_id: None,
            envelope_from: None,
            test: false,
        }
        .build()
        .unwrap();
        let raw = String::from_utf8(message.formatted()).unwrap();
        assert!(!raw.lines().any(|l| l.starts_with("Bcc:")), "{raw}");
        assert!(raw.contains("List-Unsubscribe: <https://example.org/u/abc>"));
        assert!(raw.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
    }
}
