//! Mailgun's webhooks: `signature` {timestamp, token, signature} where signature = hex HMAC-SHA256(signing key,
//! timestamp + token). A timestamp more than 15 minutes away is refused, and so is a token already used for
//! another event (the same event sent again is a retry, and changes nothing).

use super::message_id::ours;
use super::{enhanced_code, refused, unix_or_now, Heard, Parsed};
use crate::error::ApiError;
use crate::state::AppState;
use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::Sha256;
use std::collections::HashMap;
use store::deliverability::webhooks::Settings;
use store::deliverability::{Kind, Source};
use tenancy::Client;

/// How far a signature's timestamp may be from now.
const FRESH_SECS: i64 = 15 * 60;

/// The owner the signing key is sealed to: a key copied to another client's row does not open.
pub fn key_owner(client_id: i64) -> String {
    format!("mailgun-webhook:{client_id}")
}

#[derive(Debug, Deserialize)]
struct Body {
    signature: Signature,
    #[serde(rename = "event-data")]
    event_data: EventData,
}

#[derive(Debug, Deserialize)]
struct Signature {
    timestamp: String,
    token: String,
    signature: String,
}

#[derive(Debug, Deserialize)]
struct EventData {
    id: String,
    event: String,
    timestamp: Option<f64>,
    severity: Option<String>,
    reason: Option<String>,
    recipient: Option<String>,
    #[serde(rename = "delivery-status", default)]
    delivery_status: DeliveryStatus,
    #[serde(default)]
    message: Message,
}

#[derive(Debug, Default, Deserialize)]
struct DeliveryStatus {
    code: Option<serde_json::Value>,
    message: Option<String>,
    description: Option<String>,
    #[serde(rename = "enhanced-code")]
    enhanced_code: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct Message {
    #[serde(default)]
    headers: HashMap<String, serde_json::Value>,
}

pub(super) fn read(
    state: &AppState,
    client: &Client,
    settings: &Settings,
    body: &[u8],
) -> Result<Parsed, ApiError> {
    let key = settings
        .mailgun_signing_key
        .as_deref()
        .and_then(|sealed| state.totp.open(sealed, &key_owner(client.id)))
        .ok_or_else(|| refused("This webhook has no signing key"))?;
    let b: Body =
        serde_json::from_slice(body).map_err(|_| refused("Not a signed Mailgun webhook"))?;
    let s = &b.signature;
    let expected =
        hex::decode(s.signature.trim()).map_err(|_| refused("Wrong Mailgun signature"))?;
    let mut mac = Hmac::<Sha256>::new_from_slice(key.as_bytes()).map_err(ApiError::internal)?;
    mac.update(s.timestamp.as_bytes());
    mac.update(s.token.as_bytes());
    // verify_slice compares in constant time.
    mac.verify_slice(&expected)
        .map_err(|_| refused("Wrong Mailgun signature"))?;
    let at: i64 = s
        .timestamp
        .trim()
        .parse()
        .map_err(|_| refused("Wrong Mailgun signature"))?;
    if (chrono::Utc::now().timestamp() - at).abs() > FRESH_SECS {
        return Err(refused("This Mailgun signature is too old"));
    }
    let e = &b.event_data;
    Ok(Parsed {
        events: heard(client, e)
            .and_then(|h| h.into_event(Source::Mailgun))
            .into_iter()
            .collect(),
        mailgun_token: Some((s.token.clone(), e.id.clone())),
        ..Parsed::default()
    })
}

fn heard<'a>(client: &Client, e: &'a EventData) -> Option<Heard<'a>> {
    let kind = match (e.event.as_str(), e.severity.as_deref()) {
        ("failed", Some("permanent")) => Kind::HardBounce,
        ("failed", _) => Kind::SoftBounce,
        ("complained", _) => Kind::Complained,
        ("delivered", _) => Kind::Delivered,
        ("unsubscribed", _) => Kind::Unsubscribed,
        _ => return None,
    };
    let d = &e.delivery_status;
    let diagnostic = [
        d.message.as_deref(),
        d.description.as_deref(),
        e.reason.as_deref(),
    ]
    .into_iter()
    .flatten()
    .find(|t| !t.trim().is_empty())
    .map(str::to_owned);
    let status = d
        .enhanced_code
        .clone()
        .or_else(|| diagnostic.as_deref().and_then(enhanced_code))
        .or_else(|| {
            d.code.as_ref().map(|c| match c {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            })
        });
    let message_id = e
        .message
        .headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("message-id"))
        .and_then(|(_, v)| v.as_str());
    Some(Heard {
        id: e.id.clone(),
        kind,
        email: e.recipient.as_deref()?,
        status,
        diagnostic,
        at: unix_or_now(e.timestamp),
        ours: message_id.and_then(|id| ours(id, client.id)),
    })
}
