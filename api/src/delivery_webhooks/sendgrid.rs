//! SendGrid's Event Webhook: an ECDSA P-256 signature (`X-Twilio-Email-Event-Webhook-Signature`, base64 DER) over
//! the `X-Twilio-Email-Event-Webhook-Timestamp` header followed by the raw body, checked with the public key set
//! on the System page (PEM, or base64 DER as SendGrid's settings show it). A timestamp more than 15 minutes from
//! now is refused, so a request captured once cannot be played again later.

use super::message_id::ours;
use super::{enhanced_code, refused, unix_or_now, Heard, Parsed};
use crate::error::ApiError;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::pkcs8::DecodePublicKey;
use poem::Request;
use serde::Deserialize;
use store::deliverability::webhooks::Settings;
use store::deliverability::{Kind, Source};
use tenancy::Client;

const SIGNATURE: &str = "x-twilio-email-event-webhook-signature";
const TIMESTAMP: &str = "x-twilio-email-event-webhook-timestamp";
/// How far the signed timestamp may be from now, either way (clocks drift).
const FRESH_SECS: i64 = 15 * 60;

/// The configured key, PEM or base64 DER; `None` when it is neither.
pub fn public_key(text: &str) -> Option<VerifyingKey> {
    let text = text.trim();
    if text.starts_with("-----BEGIN") {
        return VerifyingKey::from_public_key_pem(text).ok();
    }
    let der = STANDARD
        .decode(text.split_whitespace().collect::<String>())
        .ok()?;
    VerifyingKey::from_public_key_der(&der).ok()
}

#[derive(Debug, Deserialize)]
struct Event {
    email: Option<String>,
    timestamp: Option<f64>,
    #[serde(rename = "smtp-id")]
    smtp_id: Option<String>,
    event: String,
    sg_event_id: Option<String>,
    reason: Option<String>,
    response: Option<String>,
    status: Option<String>,
    #[serde(rename = "type")]
    bounce_type: Option<String>,
}

pub(super) fn read(
    client: &Client,
    settings: &Settings,
    req: &Request,
    body: &[u8],
) -> Result<Parsed, ApiError> {
    let header = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
    let key = settings
        .sendgrid_public_key
        .as_deref()
        .and_then(public_key)
        .ok_or_else(|| refused("This webhook has no verification key"))?;
    let signature = header(SIGNATURE)
        .and_then(|s| STANDARD.decode(s.trim()).ok())
        .and_then(|der| Signature::from_der(&der).ok())
        .ok_or_else(|| refused("Wrong SendGrid signature"))?;
    let timestamp = header(TIMESTAMP).ok_or_else(|| refused("Wrong SendGrid signature"))?;
    let mut signed = timestamp.as_bytes().to_vec();
    signed.extend_from_slice(body);
    // ECDSA takes (r, s) and (r, n - s) alike; the low-s form is what the verifier checks.
    let signature = signature.normalize_s().unwrap_or(signature);
    key.verify(&signed, &signature)
        .map_err(|_| refused("Wrong SendGrid signature"))?;
    let at: i64 = timestamp
        .trim()
        .parse()
        .map_err(|_| refused("The SendGrid timestamp is not a time"))?;
    if (chrono::Utc::now().timestamp() - at).abs() > FRESH_SECS {
        return Err(refused(
            "This SendGrid request is stale: its signed timestamp is more than 15 minutes from now",
        ));
    }
    let events: Vec<Event> = serde_json::from_slice(body)
        .map_err(|e| ApiError::BadRequest(format!("Not SendGrid events: {e}")))?;
    Ok(Parsed {
        events: events
            .iter()
            .filter_map(|e| heard(client, e))
            .filter_map(|h| h.into_event(Source::Sendgrid))
            .collect(),
        ..Parsed::default()
    })
}

fn heard<'a>(client: &Client, e: &'a Event) -> Option<Heard<'a>> {
    let reason = e.reason.as_deref().unwrap_or_default();
    let kind = match e.event.as_str() {
        "delivered" => Kind::Delivered,
        "deferred" => Kind::Deferred,
        // "blocked": the receiver refused this message, not the address.
        "bounce" if e.bounce_type.as_deref() == Some("blocked") => Kind::SoftBounce,
        "bounce" => Kind::HardBounce,
        "spamreport" => Kind::Complained,
        "unsubscribe" | "group_unsubscribe" => Kind::Unsubscribed,
        // SendGrid did not send: the reason says why, and only an address it knows is bad is one.
        "dropped" => match reason {
            "Bounced Address" | "Invalid" => Kind::HardBounce,
            "Spam Reporting Address" => Kind::Complained,
            "Unsubscribed Address" => Kind::Unsubscribed,
            _ => return None,
        },
        _ => return None,
    };
    let text = e.reason.clone().or_else(|| e.response.clone());
    Some(Heard {
        id: e.sg_event_id.clone()?,
        kind,
        email: e.email.as_deref()?,
        status: e
            .status
            .clone()
            .filter(|s| !s.is_empty())
            .or_else(|| text.as_deref().and_then(enhanced_code)),
        diagnostic: text,
        at: unix_or_now(e.timestamp),
        ours: e.smtp_id.as_deref().and_then(|id| ours(id, client.id)),
    })
}
