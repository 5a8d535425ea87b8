//! Outgoing mail: merge tags, the message builder (headers can't be injected: lettre builds them from typed
//! values and our subjects and names are single lines), and one pooled SMTP transport per process.

use lettre::message::header::ContentType;
use lettre::message::{Mailbox, MultiPart, SinglePart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

pub mod links;
pub mod sink;
pub mod smtp;

pub use smtp::SmtpServer;

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("mail address: {0}")]
    Address(String),
    #[error("message: {0}")]
    Build(String),
    /// The server refused for now (4xx) or could not be reached: worth another try later.
    #[error("smtp (temporary): {0}")]
    Transient(String),
    /// The server refused for good (5xx).
    #[error("smtp (permanent): {0}")]
    Permanent(String),
    #[error("smtp configuration: {0}")]
    Config(String),
}

/// The values merge tags draw from. A missing value renders as nothing, never as the raw tag.
#[derive(Debug, Clone, Default)]
pub struct MergeValues {
    pub first_name: String,
    pub email: String,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Fills `{{First.Name}}` and `{{Email}}` (spaces inside the braces allowed); other `{{…}}` tags render empty.
pub fn merge(html: &str, values: &MergeValues) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        match rest[start..].find("}}") {
            Some(len) => {
                let tag = rest[start + 2..start + len].trim();
                match tag {
                    "First.Name" => out.push_str(&escape(&values.first_name)),
                    "Email" => out.push_str(&escape(&values.email)),
                    _ => {}
                }
                rest = &rest[start + len + 2..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

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

/// The plain-text part: tags, comments, styles and scripts dropped, block boundaries kept as spaces, the common
/// entities decoded, and each link kept as "text (address)" so a plain-text reader can follow it (and unsubscribe).
fn text_version(html: &str) -> String {
    let mut text = String::with_capacity(html.len() / 2);
    let mut rest = html;
    // The open link: its address and where its text starts in `text`.
    let mut link: Option<(String, usize)> = None;
    while let Some(lt) = rest.find('<') {
        push_decoded(&mut text, &rest[..lt]);
        rest = &rest[lt..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = comment.find("-->").map_or("", |end| &comment[end + 3..]);
            continue;
        }
        let Some(gt) = rest.find('>') else {
            rest = "";
            break;
        };
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        let name = tag_name(tag);
        if !tag.starts_with('/') && (name == "style" || name == "script") {
            let close = format!("</{name}");
            rest = find_ignore_case(rest, &close)
                .and_then(|at| rest[at..].find('>').map(|end| &rest[at + end + 1..]))
                .unwrap_or("");
            continue;
        }
        if name == "a" {
            if tag.starts_with('/') {
                if let Some((href, from)) = link.take() {
                    let label = text[from..].trim();
                    if label.is_empty() {
                        text.push_str(&href);
                    } else if label != href {
                        text.push_str(&format!(" ({href})"));
                    }
                }
            } else {
                link = attribute(tag, "href")
                    .map(|href| decoded(href.trim()))
                    .filter(|href| !href.is_empty() && !href.starts_with('#'))
                    .map(|href| (href, text.len()));
            }
        } else if is_block_tag(tag) {
            text.push(' ');
        }
    }
    push_decoded(&mut text, rest);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
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

fn tag_name(tag: &str) -> String {
    tag.trim_start_matches('/')
        .split(|c: char| c.is_whitespace() || c == '/')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

fn find_ignore_case(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// The value of `name="…"` (or '…') in a start tag.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let mut at = 0;
    while let Some(found) = find_ignore_case(&tag[at..], name) {
        let start = at + found;
        at = start + name.len();
        let before_ok = start == 0 || tag.as_bytes()[start - 1].is_ascii_whitespace();
        let after = tag[at..].trim_start();
        if !before_ok || !after.starts_with('=') {
            continue;
        }
        let value = after[1..].trim_start();
        let quote = value.chars().next()?;
        if quote == '"' || quote == '\'' {
            return value[1..].find(quote).map(|end| &value[1..1 + end]);
        }
        return value.split_whitespace().next();
    }
    None
}

fn decoded(s: &str) -> String {
    let mut out = String::new();
    push_decoded(&mut out, s);
    out
}

fn is_block_tag(tag: &str) -> bool {
    let name = tag_name(tag);
    matches!(
        name.as_str(),
        "p" | "br" | "div" | "tr" | "td" | "li" | "table" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6"
    )
}

fn push_decoded(out: &mut String, s: &str) {
    if !s.contains('&') {
        out.push_str(s);
        return;
    }
    out.push_str(
        &s.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&nbsp;", " ")
            .replace("&amp;", "&"),
    );
}

impl Outgoing {
    pub fn build(&self) -> Result<Message, MailError> {
        let html = without_design(&self.html);
        let from = mailbox(Some(&self.from_name), &self.from_address)?;
        let to = mailbox(None, &self.to)?;
        // Given the envelope, lettre does not derive it by formatting and parsing the headers again (a fifth of
        // the work of building a message).
        let envelope =
            lettre::address::Envelope::new(Some(from.email.clone()), vec![to.email.clone()])
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

/// One pooled SMTP transport for one-off messages; clone it freely.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
}

impl Mailer {
    /// See [`SmtpServer::from_url`]; `pool_size` connections at most.
    pub fn from_url(url: &str, pool_size: u32) -> Result<Self, MailError> {
        Ok(Self::new(&SmtpServer::from_url(url)?, pool_size))
    }

    pub fn new(server: &SmtpServer, pool_size: u32) -> Self {
        Self {
            transport: server.transport(pool_size),
        }
    }

    pub async fn send(&self, message: &Outgoing) -> Result<(), MailError> {
        let built = message.build()?;
        self.send_message(built).await
    }

    pub async fn send_message(&self, message: Message) -> Result<(), MailError> {
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(smtp::classify)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_part_keeps_paragraphs_apart_and_decodes_entities() {
        assert_eq!(
            text_version("<p>One.</p><p>Go to a&amp;b &lt;now&gt;</p>"),
            "One. Go to a&b <now>"
        );
        assert_eq!(text_version("Hel<b>lo</b>"), "Hello");
    }

    #[test]
    fn the_text_part_keeps_link_addresses_including_unsubscribe() {
        let html = "<!-- compass-designer:eyJibG9ja3MiOltdfQ== --><style>p { color: red }</style>\
            <p><a href=\"https://example.org/donate?a=1&amp;b=2\">Donate now</a></p>\
            <p><A HREF='https://t.example/u/abc'>Unsubscribe</A> <a href=\"https://example.org\">https://example.org</a> \
            <a href=\"#top\">Top</a></p>";
        assert_eq!(
            text_version(html),
            "Donate now (https://example.org/donate?a=1&b=2) Unsubscribe (https://t.example/u/abc) \
             https://example.org Top"
        );
    }

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
        };
        let raw = String::from_utf8(message.build().unwrap().formatted()).unwrap();
        assert!(!raw.contains("compass-designer"), "{raw}");
        assert!(raw.contains("Hello"));
    }

    #[test]
    fn merge_tags_fill_in_escaped_and_unknown_or_missing_render_empty() {
        let values = MergeValues {
            first_name: "Ann <b>".into(),
            email: "ann@example.org".into(),
        };
        assert_eq!(
            merge("Hi {{First.Name}}, {{ Email }}{{Unknown}}!", &values),
            "Hi Ann &lt;b&gt;, ann@example.org!"
        );
        assert_eq!(merge("Hi {{First.Name}}", &MergeValues::default()), "Hi ");
        assert_eq!(
            merge("no close {{First.Name", &values),
            "no close {{First.Name"
        );
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
        }
        .build()
        .unwrap();
        let raw = String::from_utf8(message.formatted()).unwrap();
        assert!(!raw.lines().any(|l| l.starts_with("Bcc:")), "{raw}");
        assert!(raw.contains("List-Unsubscribe: <https://example.org/u/abc>"));
        assert!(raw.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
    }
}
