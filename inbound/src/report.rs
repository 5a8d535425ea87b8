//! Reading a message sent back to a bounce address: what it says happened, per recipient.
//!
//! A feedback report (RFC 5965) is read by `mail-auth`; a delivery status notification (RFC 3464, or its RFC 6533
//! global form) by its `message/delivery-status` part, whose per-recipient fields say the action, the enhanced
//! status and the diagnostic; anything else by the first status code its text names (the common bounces that
//! are not DSNs, Exim's "Mail delivery failed" among them): a 5 is hard, a 4 soft.

use mail_auth::report::{Feedback, FeedbackType};
use mail_parser::{MessageParser, MimeHeaders};
use store::deliverability::{Kind, Source};

/// What one report says about one recipient.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heard {
    pub source: Source,
    pub kind: Kind,
    /// The recipient the report names (Final-Recipient, Original-Rcpt-To), when it names one.
    pub recipient: Option<String>,
    /// The enhanced status code, e.g. `5.1.1`, or a basic reply code when that is all the text gives.
    pub status_code: Option<String>,
    pub diagnostic: Option<String>,
}

/// A message read: its Message-ID (without angle brackets) and what it says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub message_id: Option<String>,
    pub heard: Vec<Heard>,
}

pub fn read(raw: &[u8]) -> Report {
    let Some(message) = MessageParser::default().parse(raw) else {
        return Report::default();
    };
    let message_id = message.message_id().map(str::to_owned);
    let mut heard = Vec::new();
    let mut is_feedback = false;
    for part in &message.parts {
        let Some(content_type) = part.content_type() else {
            continue;
        };
        if !content_type.ctype().eq_ignore_ascii_case("message") {
            continue;
        }
        let subtype = content_type.subtype().unwrap_or("").to_ascii_lowercase();
        match subtype.as_str() {
            "delivery-status" | "global-delivery-status" => {
                if let Some(text) = part.text_contents() {
                    heard.extend(delivery_status(text));
                } else {
                    heard.extend(delivery_status(&String::from_utf8_lossy(part.contents())));
                }
            }
            "feedback-report" => is_feedback = true,
            _ => {}
        }
    }
    if is_feedback {
        if let Ok(feedback) = Feedback::parse_rfc5322(raw) {
            heard.extend(complaint(&feedback));
        }
    } else if heard.is_empty() {
        let text = message
            .body_text(0)
            .map(|t| t.into_owned())
            .unwrap_or_else(|| String::from_utf8_lossy(raw).into_owned());
        heard.extend(plain_bounce(&text));
    }
    Report { message_id, heard }
}

/// A feedback report's complaint; "not-spam" reports are not complaints.
fn complaint(feedback: &Feedback<'_>) -> Option<Heard> {
    let kind = match feedback.feedback_type() {
        FeedbackType::NotSpam => return None,
        FeedbackType::Abuse => "abuse",
        FeedbackType::AuthFailure => "auth-failure",
        FeedbackType::Fraud => "fraud",
        FeedbackType::Virus => "virus",
        FeedbackType::Other => "other",
    };
    let by = feedback
        .user_agent()
        .or(feedback.reporting_mta())
        .map(|u| format!(" ({u})"))
        .unwrap_or_default();
    Some(Heard {
        source: Source::Arf,
        kind: Kind::Complained,
        recipient: feedback.original_rcpt_to().map(address),
        status_code: None,
        diagnostic: Some(format!("Feedback-Type: {kind}{by}")),
    })
}

/// The per-recipient blocks of a `message/delivery-status` body (the first block is the per-message one).
fn delivery_status(text: &str) -> Vec<Heard> {
    let blocks = fields_blocks(text);
    blocks
        .iter()
        .skip(1)
        .filter_map(|fields| {
            let field = |name: &str| {
                fields
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name))
                    .map(|(_, v)| v.as_str())
            };
            let action = field("Action")?.trim().to_ascii_lowercase();
            let status = field("Status")
                .and_then(|s| s.split_whitespace().next())
                .filter(|s| is_enhanced_status(s))
                .map(str::to_owned);
            let first = status.as_deref().and_then(|s| s.chars().next());
            let kind = match (action.as_str(), first) {
                ("failed", Some('4')) => Kind::SoftBounce,
                ("failed", _) => Kind::HardBounce,
                ("delayed", _) => Kind::Deferred,
                ("delivered" | "relayed" | "expanded", _) => Kind::Delivered,
                _ => return None,
            };
            let recipient = field("Final-Recipient")
                .or(field("Original-Recipient"))
                .map(address);
            Some(Heard {
                source: Source::Dsn,
                kind,
                recipient,
                status_code: status,
                diagnostic: field("Diagnostic-Code").map(|d| {
                    // "smtp; 550 5.1.1 …": the type is not news to anyone reading it.
                    d.split_once(';')
                        .map_or(d, |(_, rest)| rest)
                        .trim()
                        .to_owned()
                }),
            })
        })
        .collect()
}

/// `rfc822; Ann@Example.org` -> `ann@example.org`.
fn address(value: &str) -> String {
    let value = value.split_once(';').map_or(value, |(_, a)| a);
    value.trim().trim_matches(['<', '>']).to_lowercase()
}

/// Header-style fields in blocks separated by blank lines; a line starting with white space continues a field.
fn fields_blocks(text: &str) -> Vec<Vec<(String, String)>> {
    let mut blocks: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for line in text.lines() {
        if line.trim().is_empty() {
            if blocks.last().is_some_and(|b| !b.is_empty()) {
                blocks.push(Vec::new());
            }
            continue;
        }
        let Some(block) = blocks.last_mut() else {
            continue;
        };
        if line.starts_with([' ', '\t']) {
            if let Some((_, value)) = block.last_mut() {
                value.push(' ');
                value.push_str(line.trim());
            }
        } else if let Some((name, value)) = line.split_once(':') {
            block.push((name.trim().to_owned(), value.trim().to_owned()));
        }
    }
    blocks.retain(|b| !b.is_empty());
    blocks
}

/// `5.1.1`: class 2, 4 or 5, then one to three digits, then one to three digits (RFC 3463).
fn is_enhanced_status(s: &str) -> bool {
    let mut parts = s.split('.');
    let (Some(class), Some(subject), Some(detail), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    matches!(class, "2" | "4" | "5")
        && [subject, detail]
            .iter()
            .all(|p| (1..=3).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
}

/// A bounce that is not a DSN: the first line naming an enhanced status (`5.1.1`) or, failing that, an SMTP
/// reply code (`550`) decides, hard for a 5 and soft for a 4; that line is the diagnostic.
fn plain_bounce(text: &str) -> Option<Heard> {
    let words = |line: &str| {
        line.split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '[' | ']' | ',' | ';'))
            .filter(|w| !w.is_empty())
            .map(|w| w.trim_end_matches([':', '.', '-']).to_owned())
            .collect::<Vec<_>>()
    };
    let find = |accept: &dyn Fn(&str) -> bool| {
        text.lines().find_map(|line| {
            words(line)
                .into_iter()
                .find(|w| accept(w))
                .map(|code| (code, line.trim().to_owned()))
        })
    };
    let enhanced = |w: &str| is_enhanced_status(w) && !w.starts_with('2');
    let basic = |w: &str| {
        w.len() == 3
            && w.bytes().all(|b| b.is_ascii_digit())
            && matches!(&w[..2], "42" | "45" | "55")
    };
    let (code, line) = find(&enhanced).or_else(|| find(&basic))?;
    Some(Heard {
        source: Source::Dsn,
        kind: if code.starts_with('5') {
            Kind::HardBounce
        } else {
            Kind::SoftBounce
        },
        recipient: None,
        status_code: Some(code),
        diagnostic: Some(line),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_codes_are_read_as_rfc_3463_writes_them() {
        assert!(is_enhanced_status("5.1.1"));
        assert!(is_enhanced_status("4.2.22"));
        assert!(!is_enhanced_status("5.1"));
        assert!(!is_enhanced_status("3.1.1"));
        assert!(!is_enhanced_status("5.1.1.1"));
        assert!(!is_enhanced_status("1.2.3.4"));
    }

    #[test]
    fn a_plain_bounce_is_hard_or_soft_by_its_code() {
        let hard =
            plain_bounce("The following address failed:\n  550 5.1.1 <a@b.c>: User unknown\n")
                .unwrap();
        assert_eq!(
            (hard.kind, hard.status_code.as_deref()),
            (Kind::HardBounce, Some("5.1.1"))
        );
        assert_eq!(
            hard.diagnostic.as_deref(),
            Some("550 5.1.1 <a@b.c>: User unknown")
        );
        let soft = plain_bounce("host said: 452 mailbox full, try later").unwrap();
        assert_eq!(
            (soft.kind, soft.status_code.as_deref()),
            (Kind::SoftBounce, Some("452"))
        );
        assert_eq!(plain_bounce("Thanks for writing! Call 555-0100."), None);
        assert_eq!(plain_bounce("version 2.0.1 released"), None);
    }

    #[test]
    fn dsn_fields_continue_over_folded_lines() {
        let heard = delivery_status(
            "Reporting-MTA: dns; mx.example.net\n\nFinal-Recipient: rfc822; Ann@Example.org\nAction: failed\n\
             Status: 5.1.1\nDiagnostic-Code: smtp; 550 5.1.1 user\n  unknown\n",
        );
        assert_eq!(
            heard,
            [Heard {
                source: Source::Dsn,
                kind: Kind::HardBounce,
                recipient: Some("ann@example.org".into()),
                status_code: Some("5.1.1".into()),
                diagnostic: Some("550 5.1.1 user unknown".into()),
            }]
        );
    }
}
