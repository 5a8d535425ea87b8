//! Postmark's webhooks (authenticated by the HTTP Basic credentials set on the System page, checked before this):
//! RecordType Bounce (its `Type` says hard or soft), SpamComplaint, Delivery and SubscriptionChange.

use super::message_id::first_ours;
use super::{enhanced_code, time_or_now, Heard, Parsed};
use crate::error::ApiError;
use serde::Deserialize;
use std::collections::HashMap;
use store::deliverability::{Kind, Source};
use tenancy::Client;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Record {
    record_type: String,
    #[serde(rename = "ID")]
    id: Option<serde_json::Value>,
    #[serde(rename = "Type")]
    bounce_type: Option<String>,
    #[serde(rename = "MessageID")]
    message_id: Option<String>,
    email: Option<String>,
    recipient: Option<String>,
    bounced_at: Option<String>,
    delivered_at: Option<String>,
    changed_at: Option<String>,
    details: Option<String>,
    description: Option<String>,
    #[serde(default)]
    metadata: HashMap<String, serde_json::Value>,
    #[serde(default)]
    headers: Vec<Header>,
    suppress_sending: Option<bool>,
    suppression_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Header {
    name: String,
    value: String,
}

/// What a bounce `Type` means (Postmark's bounce types; those that say nothing about the address are left out).
fn bounce_kind(t: &str) -> Option<Kind> {
    Some(match t {
        "HardBounce" | "BadEmailAddress" | "ManuallyDeactivated" => Kind::HardBounce,
        "Transient" | "SoftBounce" | "DnsError" | "SpamNotification" | "Unknown"
        | "VirusNotification" | "Blocked" | "SMTPApiError" | "DMARCPolicy" => Kind::SoftBounce,
        "SpamComplaint" => Kind::Complained,
        "Unsubscribe" => Kind::Unsubscribed,
        _ => return None,
    })
}

fn text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

pub(super) fn read(client: &Client, body: &[u8]) -> Result<Parsed, ApiError> {
    let r: Record = serde_json::from_slice(body)
        .map_err(|e| ApiError::BadRequest(format!("Not a Postmark webhook: {e}")))?;
    let metadata: Vec<String> = r.metadata.values().map(text).collect();
    let candidates = r
        .message_id
        .as_deref()
        .into_iter()
        .chain(metadata.iter().map(String::as_str))
        .chain(
            r.headers
                .iter()
                .filter(|h| h.name.eq_ignore_ascii_case("message-id"))
                .map(|h| h.value.as_str()),
        );
    let ours = first_ours(candidates, client.id);
    let id = r.id.as_ref().map(text);
    let message = r.message_id.clone().unwrap_or_default();
    let heard = match r.record_type.as_str() {
        "Bounce" | "SpamComplaint" => {
            let kind = match r.record_type.as_str() {
                "SpamComplaint" => Some(Kind::Complained),
                _ => r.bounce_type.as_deref().and_then(bounce_kind),
            };
            match (kind, id, r.email.as_deref()) {
                (Some(kind), Some(id), Some(email)) => Some(Heard {
                    id: format!("{}:{id}", r.record_type),
                    kind,
                    email,
                    status: r.details.as_deref().and_then(enhanced_code),
                    diagnostic: r.details.clone().or_else(|| r.description.clone()),
                    at: time_or_now(r.bounced_at.as_deref()),
                    ours,
                }),
                _ => None,
            }
        }
        "Delivery" => r.recipient.as_deref().map(|email| Heard {
            id: format!("Delivery:{message}:{}", email.to_lowercase()),
            kind: Kind::Delivered,
            email,
            status: None,
            diagnostic: r.details.clone(),
            at: time_or_now(r.delivered_at.as_deref()),
            ours,
        }),
        // The recipient unsubscribed through Postmark's own link.
        "SubscriptionChange"
            if r.suppress_sending == Some(true)
                && r.suppression_reason.as_deref() == Some("ManualSuppression") =>
        {
            r.recipient.as_deref().map(|email| Heard {
                id: format!(
                    "SubscriptionChange:{message}:{}:{}",
                    email.to_lowercase(),
                    r.changed_at.as_deref().unwrap_or_default()
                ),
                kind: Kind::Unsubscribed,
                email,
                status: None,
                diagnostic: None,
                at: time_or_now(r.changed_at.as_deref()),
                ours,
            })
        }
        _ => None,
    };
    Ok(Parsed {
        events: heard
            .and_then(|h| h.into_event(Source::Postmark))
            .into_iter()
            .collect(),
        ..Parsed::default()
    })
}
