//! Amazon SES through SNS. The SNS message is verified first (its signature over the canonical string of its
//! fields, SignatureVersion 1 = SHA1withRSA, 2 = SHA256withRSA, against the signing certificate), then its topic
//! must be one the client accepts, and its `Timestamp` (when SNS published it; retries keep it) no more than an
//! hour old; only then is the SES notification in `Message` read.

use super::message_id::first_ours;
use super::{enhanced_code, refused, time_or_now, Heard, Parsed};
use crate::error::ApiError;
use crate::state::AppState;
use rsa::pkcs1v15::{Signature, VerifyingKey};
use rsa::signature::Verifier;
use rsa::RsaPublicKey;
use serde::Deserialize;
use store::deliverability::webhooks::Settings;
use store::deliverability::{Kind, Source};
use tenancy::Client;

/// The oldest message taken: SNS's retries of one message keep its Timestamp, and end within the hour.
const OLDEST_SECS: i64 = 60 * 60;
/// How far in the future a Timestamp may be (clocks drift).
const AHEAD_SECS: i64 = 15 * 60;

/// Refuses a message published more than an hour ago (a captured message played again), or far ahead of now.
fn fresh(timestamp: &str, now: chrono::DateTime<chrono::Utc>) -> Result<(), ApiError> {
    let at = chrono::DateTime::parse_from_rfc3339(timestamp.trim())
        .map_err(|_| refused("The SNS Timestamp is not a time"))?;
    let age = now.timestamp() - at.timestamp();
    if age > OLDEST_SECS {
        return Err(refused(
            "This SNS message is too old: it was published more than an hour ago",
        ));
    }
    if age < -AHEAD_SECS {
        return Err(refused(
            "This SNS message's Timestamp is more than 15 minutes in the future",
        ));
    }
    Ok(())
}

/// The SNS envelope.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Envelope {
    #[serde(rename = "Type")]
    kind: String,
    message_id: String,
    topic_arn: String,
    subject: Option<String>,
    message: String,
    timestamp: String,
    signature_version: String,
    signature: String,
    #[serde(rename = "SigningCertURL")]
    signing_cert_url: String,
    token: Option<String>,
    #[serde(rename = "SubscribeURL")]
    subscribe_url: Option<String>,
}

/// The string SNS signs: the documented fields of the message's type, each as `name\nvalue\n`, in this order.
fn canonical(e: &Envelope) -> Option<String> {
    let mut fields: Vec<(&str, &str)> = vec![("Message", &e.message), ("MessageId", &e.message_id)];
    match e.kind.as_str() {
        "Notification" => {
            if let Some(subject) = &e.subject {
                fields.push(("Subject", subject));
            }
            fields.extend([
                ("Timestamp", e.timestamp.as_str()),
                ("TopicArn", &e.topic_arn),
                ("Type", &e.kind),
            ]);
        }
        "SubscriptionConfirmation" | "UnsubscribeConfirmation" => fields.extend([
            ("SubscribeURL", e.subscribe_url.as_deref()?),
            ("Timestamp", e.timestamp.as_str()),
            ("Token", e.token.as_deref()?),
            ("TopicArn", &e.topic_arn),
            ("Type", &e.kind),
        ]),
        _ => return None,
    }
    Some(fields.iter().map(|(k, v)| format!("{k}\n{v}\n")).collect())
}

fn signed_by(key: &RsaPublicKey, version: &str, message: &[u8], signature: &Signature) -> bool {
    match version {
        "1" => VerifyingKey::<sha1::Sha1>::new(key.clone())
            .verify(message, signature)
            .is_ok(),
        "2" => VerifyingKey::<sha2::Sha256>::new(key.clone())
            .verify(message, signature)
            .is_ok(),
        _ => false,
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Notification {
    notification_type: Option<String>,
    event_type: Option<String>,
    #[serde(default)]
    mail: Mail,
    bounce: Option<Bounce>,
    complaint: Option<Complaint>,
    delivery: Option<Delivery>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Mail {
    message_id: Option<String>,
    #[serde(default)]
    headers: Vec<Header>,
    #[serde(default)]
    common_headers: CommonHeaders,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CommonHeaders {
    message_id: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Header {
    name: String,
    value: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Bounce {
    bounce_type: String,
    #[serde(default)]
    bounced_recipients: Vec<BouncedRecipient>,
    timestamp: Option<String>,
    feedback_id: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct BouncedRecipient {
    email_address: String,
    status: Option<String>,
    diagnostic_code: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Complaint {
    #[serde(default)]
    complained_recipients: Vec<Recipient>,
    timestamp: Option<String>,
    feedback_id: Option<String>,
    complaint_feedback_type: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Recipient {
    email_address: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Delivery {
    timestamp: Option<String>,
    #[serde(default)]
    recipients: Vec<String>,
    smtp_response: Option<String>,
}

pub(super) async fn read(
    state: &AppState,
    client: &Client,
    settings: &Settings,
    body: &[u8],
) -> Result<Parsed, ApiError> {
    let envelope: Envelope =
        serde_json::from_slice(body).map_err(|_| refused("Not a signed SNS message"))?;
    let signed = canonical(&envelope).ok_or_else(|| refused("Not a signed SNS message"))?;
    let signature = base64::Engine::decode(
        &base64::engine::general_purpose::STANDARD,
        &envelope.signature,
    )
    .ok()
    .and_then(|b| Signature::try_from(b.as_slice()).ok())
    .ok_or_else(|| refused("Wrong SNS signature"))?;
    let keys = state
        .delivery_hooks
        .sns
        .keys(&envelope.signing_cert_url)
        .await;
    let verified = keys.iter().any(|k| {
        signed_by(
            k,
            &envelope.signature_version,
            signed.as_bytes(),
            &signature,
        )
    });
    if !verified {
        return Err(refused("Wrong SNS signature"));
    }
    fresh(&envelope.timestamp, chrono::Utc::now())?;
    if !settings
        .ses_topic_arns
        .iter()
        .any(|t| t == &envelope.topic_arn)
    {
        return Err(refused("This SNS topic is not accepted"));
    }
    match envelope.kind.as_str() {
        "SubscriptionConfirmation" => Ok(Parsed {
            subscription: envelope
                .subscribe_url
                .clone()
                .map(|url| (envelope.topic_arn.clone(), url)),
            ..Parsed::default()
        }),
        "Notification" => {
            // A notification that is not SES's (a test message) is taken and kept as nothing.
            let notification: Notification =
                serde_json::from_str(&envelope.message).unwrap_or_default();
            Ok(Parsed {
                events: events(client, &envelope, &notification),
                ..Parsed::default()
            })
        }
        _ => Ok(Parsed::default()),
    }
}

fn events(
    client: &Client,
    envelope: &Envelope,
    n: &Notification,
) -> Vec<store::deliverability::NewEvent> {
    let header_ids = n
        .mail
        .headers
        .iter()
        .filter(|h| h.name.eq_ignore_ascii_case("message-id"))
        .map(|h| h.value.as_str());
    let ours = first_ours(
        n.mail
            .common_headers
            .message_id
            .as_deref()
            .into_iter()
            .chain(header_ids),
        client.id,
    );
    let kind = n.notification_type.as_deref().or(n.event_type.as_deref());
    let mut heard = Vec::new();
    match kind {
        Some("Bounce") => {
            if let Some(b) = &n.bounce {
                let kind = match b.bounce_type.as_str() {
                    "Permanent" => Kind::HardBounce,
                    // Transient and Undetermined: the address may work later.
                    _ => Kind::SoftBounce,
                };
                let base = b.feedback_id.as_deref().unwrap_or(&envelope.message_id);
                for r in &b.bounced_recipients {
                    heard.push(Heard {
                        id: format!("{base}:{}", r.email_address.to_lowercase()),
                        kind,
                        email: &r.email_address,
                        status: r
                            .status
                            .clone()
                            .or_else(|| r.diagnostic_code.as_deref().and_then(enhanced_code)),
                        diagnostic: r.diagnostic_code.clone(),
                        at: time_or_now(b.timestamp.as_deref()),
                        ours,
                    });
                }
            }
        }
        Some("Complaint") => {
            if let Some(c) = &n.complaint {
                // A recipient saying "not spam" takes nothing back it had said.
                if c.complaint_feedback_type.as_deref() != Some("not-spam") {
                    let base = c.feedback_id.as_deref().unwrap_or(&envelope.message_id);
                    for r in &c.complained_recipients {
                        heard.push(Heard {
                            id: format!("{base}:{}", r.email_address.to_lowercase()),
                            kind: Kind::Complained,
                            email: &r.email_address,
                            status: None,
                            diagnostic: c.complaint_feedback_type.clone(),
                            at: time_or_now(c.timestamp.as_deref()),
                            ours,
                        });
                    }
                }
            }
        }
        Some("Delivery") => {
            if let Some(d) = &n.delivery {
                let base = n.mail.message_id.as_deref().unwrap_or(&envelope.message_id);
                for r in &d.recipients {
                    heard.push(Heard {
                        id: format!("delivery:{base}:{}", r.to_lowercase()),
                        kind: Kind::Delivered,
                        email: r,
                        status: None,
                        diagnostic: d.smtp_response.clone(),
                        at: time_or_now(d.timestamp.as_deref()),
                        ours,
                    });
                }
            }
        }
        _ => {}
    }
    heard
        .into_iter()
        .filter_map(|h| h.into_event(Source::Ses))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn a_message_older_than_an_hour_or_from_the_future_is_refused() {
        let now = chrono::Utc
            .with_ymd_and_hms(2026, 11, 26, 12, 0, 0)
            .single()
            .unwrap();
        assert!(fresh("2026-11-26T11:00:00.000Z", now).is_ok());
        assert!(fresh("2026-11-26T12:14:00Z", now).is_ok());
        assert!(fresh("2026-11-26T10:59:59.000Z", now).is_err());
        assert!(fresh("2026-11-26T12:16:00.000Z", now).is_err());
        assert!(fresh("yesterday", now).is_err());
    }
}
