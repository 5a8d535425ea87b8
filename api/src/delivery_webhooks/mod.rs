//! Relays' delivery webhooks (Amazon SES through SNS, SendGrid, Postmark, Mailgun): each request is authenticated
//! as its provider documents, read into delivery events, and written — the raw body as evidence, the events, and
//! what they do to the suppression list — in one transaction before the 200. A refused request writes nothing; an
//! event delivered again (same provider event id) writes nothing either, evidence included.
//!
//! The writes are group-committed by a few writer tasks (the webhooks' share of the pool; `writer`); a request
//! that cannot be written soon is answered 429 with `Retry-After`, which every one of these relays retries. Bodies
//! are capped by the api's body limit.

mod mailgun;
pub mod message_id;
mod postmark;
mod sendgrid;
mod ses;
mod sns_certs;
mod writer;

use crate::actblue_webhook::{basic_credentials, Basic};
use crate::error::ApiError;
use crate::state::AppState;
use chrono::{DateTime, TimeZone, Utc};
use poem::Request;
use std::path::Path;
use store::deliverability::webhooks;
use store::deliverability::{Kind, NewEvent, Source};
use tenancy::Tenancy;
use writer::EventWriter;

pub use mailgun::key_owner as mailgun_key_owner;
pub use sendgrid::public_key as sendgrid_public_key;
pub use sns_certs::SnsCertificates;

/// A relay whose webhook Compass takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    Ses,
    Sendgrid,
    Postmark,
    Mailgun,
}

impl Provider {
    pub const ALL: [Provider; 4] = [
        Provider::Ses,
        Provider::Sendgrid,
        Provider::Postmark,
        Provider::Mailgun,
    ];

    /// The word the URL and `delivery_webhooks.provider` use.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Ses => "ses",
            Provider::Sendgrid => "sendgrid",
            Provider::Postmark => "postmark",
            Provider::Mailgun => "mailgun",
        }
    }

    pub fn parse(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == word)
    }

    fn source(self) -> Source {
        match self {
            Provider::Ses => Source::Ses,
            Provider::Sendgrid => Source::Sendgrid,
            Provider::Postmark => Source::Postmark,
            Provider::Mailgun => Source::Mailgun,
        }
    }
}

/// What the webhooks share: the SNS certificates and the writer.
pub struct Hooks {
    pub sns: SnsCertificates,
    writer: EventWriter,
}

impl Hooks {
    /// `pinned`: a PEM file of the only SNS certificates to trust (none: fetch them from SNS). Starts `writers`
    /// writer tasks on the current runtime.
    pub fn new(
        pinned: Option<&Path>,
        tenancy: Tenancy,
        writers: usize,
    ) -> Result<Self, crate::startup::StartupError> {
        Ok(Self {
            sns: SnsCertificates::new(pinned)
                .map_err(crate::startup::StartupError::SnsCertificates)?,
            writer: EventWriter::start(tenancy, writers),
        })
    }
}

/// What one request changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Receipt {
    /// Events stored (0 for a replay).
    pub stored: u64,
    /// Addresses they suppressed.
    pub suppressed: u64,
}

/// A request read and authenticated, ready to write.
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    pub events: Vec<NewEvent>,
    /// Mailgun's token and the event it signed: a token seen with another event is a replay.
    pub mailgun_token: Option<(String, String)>,
    /// An SNS subscription to confirm: (topic ARN, SubscribeURL).
    pub subscription: Option<(String, String)>,
}

fn refused(why: &str) -> ApiError {
    ApiError::Unauthorized(why.to_owned())
}

/// A relay's event as the parsers build it.
pub(crate) struct Heard<'a> {
    pub id: String,
    pub kind: Kind,
    pub email: &'a str,
    pub status: Option<String>,
    pub diagnostic: Option<String>,
    pub at: DateTime<Utc>,
    /// The mailing and contact our Message-ID names.
    pub ours: Option<(i64, i64)>,
}

impl Heard<'_> {
    pub fn into_event(self, source: Source) -> Option<NewEvent> {
        // Postgres text takes no NUL; a relay's text never needs one.
        let clean = |s: String| -> String { s.chars().filter(|c| *c != '\0').collect() };
        let email = clean(self.email.trim().to_lowercase());
        if email.is_empty() || !email.contains('@') {
            return None;
        }
        Some(NewEvent {
            source,
            source_event_id: Some(clean(self.id.chars().take(300).collect())),
            kind: self.kind,
            status_code: self.status.map(|s| clean(s.chars().take(40).collect())),
            diagnostic: self
                .diagnostic
                .map(|s| clean(s.chars().take(2000).collect())),
            email,
            mailing_id: self.ours.map(|(m, _)| m),
            contact_id: self.ours.map(|(_, c)| c),
            occurred_at: self.at,
            evidence_id: None,
        })
    }
}

/// An RFC 3339 time, or now.
pub(crate) fn time_or_now(raw: Option<&str>) -> DateTime<Utc> {
    raw.and_then(|t| DateTime::parse_from_rfc3339(t.trim()).ok())
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_else(Utc::now)
}

/// Unix seconds (with a fraction, as Mailgun sends them), or now.
pub(crate) fn unix_or_now(secs: Option<f64>) -> DateTime<Utc> {
    secs.filter(|s| s.is_finite() && *s > 0.0)
        .and_then(|s| Utc.timestamp_millis_opt((s * 1000.0) as i64).single())
        .unwrap_or_else(Utc::now)
}

/// A bounce's status code from a text that may carry one (`5.1.1`, `550 5.1.1 …`).
pub(crate) fn enhanced_code(text: &str) -> Option<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | ';' | ','))
        .find(|w| {
            let parts: Vec<&str> = w.split('.').collect();
            parts.len() == 3
                && matches!(parts[0], "2" | "4" | "5")
                && parts[1..]
                    .iter()
                    .all(|p| !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(str::to_owned)
}

/// Authenticates, reads and writes one webhook request of `provider` for the client `short` names.
pub async fn receive(
    state: &AppState,
    provider: Provider,
    short: &str,
    req: &Request,
    body: &[u8],
) -> Result<Receipt, ApiError> {
    let client = match provider {
        Provider::Postmark => {
            let address = crate::identity::sign_in::address(req);
            state
                .webhook_gate
                .admit(
                    state,
                    Basic::Postmark,
                    short,
                    basic_credentials(req),
                    &address,
                )
                .await?
        }
        _ => match short.len() <= 31 {
            true => state.tenancy.enabled_client_by_short(short).await?,
            false => None,
        }
        .ok_or_else(|| refused("Unknown webhook"))?,
    };
    let settings = crate::auth::in_client(&state.tenancy, &client, async |tx| {
        Ok(webhooks::get(tx, provider.as_str()).await?)
    })
    .await?
    .filter(|s| s.enabled)
    .ok_or_else(|| refused("This webhook is off"))?;
    let parsed = match provider {
        Provider::Ses => ses::read(state, &client, &settings, body).await?,
        Provider::Sendgrid => sendgrid::read(&client, &settings, req, body)?,
        Provider::Postmark => postmark::read(&client, body)?,
        Provider::Mailgun => mailgun::read(state, &client, &settings, body)?,
    };
    let content_type = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("application/octet-stream")
        .chars()
        .take(200)
        .collect::<String>();
    let confirm = parsed.subscription.clone();
    let receipt = state
        .delivery_hooks
        .writer
        .submit(writer::Request {
            client: client.clone(),
            source: provider.source(),
            content_type,
            body: body.to_vec(),
            parsed,
        })
        .await?;
    if let Some((topic, url)) = confirm {
        state
            .delivery_hooks
            .sns
            .confirm_later(state, &client, topic, url);
    }
    Ok(receipt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_enhanced_status_code() {
        assert_eq!(
            enhanced_code("smtp; 550 5.1.1 user unknown").as_deref(),
            Some("5.1.1")
        );
        assert_eq!(enhanced_code("4.4.7").as_deref(), Some("4.4.7"));
        assert_eq!(enhanced_code("mailbox full"), None);
        assert_eq!(enhanced_code("version 1.2.3"), None);
    }
}
