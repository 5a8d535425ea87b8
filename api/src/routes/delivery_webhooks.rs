//! Relays' delivery webhooks: each client's settings per provider (secrets are taken, never shown again), and the
//! public endpoint every relay posts to, `/api/webhooks/delivery/{provider}/{client short name}`.

use super::ApiTags;
use crate::auth::{ClientAuth, EDIT_ROLE};
use crate::delivery_webhooks::{self as hooks, Provider};
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::{Binary, Json};
use poem_openapi::{ApiResponse, Object, OpenApi};
use store::deliverability::webhooks::{self, Change};
use tenancy::TenantTx;

pub struct DeliveryWebhooksApi;

const MIN_PASSWORD: usize = 12;

/// One relay's webhook for the current client. Secrets are only said to be set.
#[derive(Debug, Object)]
pub struct DeliveryWebhook {
    /// ses, sendgrid, postmark or mailgun
    pub provider: String,
    pub enabled: bool,
    /// The path to give the relay, after this server's address.
    pub path: String,
    #[oai(nullable, rename = "postmarkUsername")]
    pub postmark_username: Option<String>,
    #[oai(rename = "postmarkPasswordSet")]
    pub postmark_password_set: bool,
    #[oai(rename = "mailgunSigningKeySet")]
    pub mailgun_signing_key_set: bool,
    /// The verification key as entered (it is public).
    #[oai(nullable, rename = "sendgridPublicKey")]
    pub sendgrid_public_key: Option<String>,
    #[oai(rename = "sesTopicArns")]
    pub ses_topic_arns: Vec<String>,
}

/// An SNS subscription confirmation SES's topic sent.
#[derive(Debug, Object)]
pub struct SesSubscription {
    #[oai(rename = "topicArn")]
    pub topic_arn: String,
    /// Visit this address to confirm the subscription (done automatically unless certificates are pinned).
    #[oai(rename = "subscribeUrl")]
    pub subscribe_url: String,
    #[oai(rename = "receivedAt")]
    pub received_at: DateTime<Utc>,
    #[oai(nullable, rename = "confirmedAt")]
    pub confirmed_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Object)]
pub struct DeliveryWebhooks {
    pub providers: Vec<DeliveryWebhook>,
    #[oai(rename = "sesSubscriptions")]
    pub ses_subscriptions: Vec<SesSubscription>,
    /// The operator pinned the SNS certificates: subscriptions are confirmed by hand.
    #[oai(rename = "sesCertificatesPinned")]
    pub ses_certificates_pinned: bool,
}

/// A change to one relay's webhook; a field left out stays as it is, an empty text clears it.
#[derive(Debug, Object)]
pub struct DeliveryWebhookUpdate {
    pub enabled: Option<bool>,
    #[oai(rename = "postmarkUsername", validator(max_length = 200))]
    pub postmark_username: Option<String>,
    #[oai(rename = "postmarkPassword", validator(max_length = 200))]
    pub postmark_password: Option<String>,
    #[oai(rename = "mailgunSigningKey", validator(max_length = 500))]
    pub mailgun_signing_key: Option<String>,
    #[oai(rename = "sendgridPublicKey", validator(max_length = 2000))]
    pub sendgrid_public_key: Option<String>,
    #[oai(rename = "sesTopicArns", validator(max_items = 20))]
    pub ses_topic_arns: Option<Vec<String>>,
}

/// What a webhook call wrote.
#[derive(Debug, Object)]
pub struct DeliveryWebhookReceipt {
    /// Events stored by this call (0 for a replay).
    pub stored: i64,
    /// Addresses these events suppressed.
    pub suppressed: i64,
}

#[derive(ApiResponse)]
pub enum DeliveryWebhookAnswer {
    /// Written durably.
    #[oai(status = 200)]
    Written(Json<DeliveryWebhookReceipt>),
}

fn provider_of(word: &str) -> Result<Provider, ApiError> {
    Provider::parse(word).ok_or_else(|| ApiError::NotFound("No such webhook provider".to_owned()))
}

async fn read(
    state: &SharedState,
    tx: &mut TenantTx,
    short: &str,
) -> Result<DeliveryWebhooks, ApiError> {
    let stored = webhooks::all(tx).await?;
    let providers = Provider::ALL
        .into_iter()
        .map(|p| {
            let s = stored
                .iter()
                .find(|s| s.provider == p.as_str())
                .cloned()
                .unwrap_or_default();
            DeliveryWebhook {
                provider: p.as_str().to_owned(),
                enabled: s.enabled,
                path: format!("/api/webhooks/delivery/{}/{short}", p.as_str()),
                postmark_username: s.postmark_username,
                postmark_password_set: s.postmark_password_hash.is_some(),
                mailgun_signing_key_set: s.mailgun_signing_key.is_some(),
                sendgrid_public_key: s.sendgrid_public_key,
                ses_topic_arns: s.ses_topic_arns,
            }
        })
        .collect();
    let ses_subscriptions = webhooks::subscriptions(tx)
        .await?
        .into_iter()
        .map(|s| SesSubscription {
            topic_arn: s.topic_arn,
            subscribe_url: s.subscribe_url,
            received_at: s.received_at,
            confirmed_at: s.confirmed_at,
        })
        .collect();
    Ok(DeliveryWebhooks {
        providers,
        ses_subscriptions,
        ses_certificates_pinned: state.delivery_hooks.sns.pinned(),
    })
}

/// A text field of the update: `None` untouched, `Some(None)` cleared (empty), `Some(Some(t))` set.
fn field(v: &Option<String>) -> Option<Option<String>> {
    v.as_deref()
        .map(str::trim)
        .map(|t| (!t.is_empty()).then(|| t.to_owned()))
}

/// The update checked, secrets hashed or sealed.
async fn change(
    state: &SharedState,
    client_id: i64,
    body: &DeliveryWebhookUpdate,
) -> Result<Change, ApiError> {
    let bad = |m: &str| ApiError::BadRequest(m.to_owned());
    let postmark_password_hash = match body.postmark_password.as_deref() {
        None => None,
        Some("") => Some(None),
        Some(p) if p.chars().count() < MIN_PASSWORD => {
            return Err(bad("The webhook password needs at least 12 characters"))
        }
        // argon2 is deliberately slow: keep it off the async executor.
        Some(p) => {
            let p = p.to_owned();
            Some(Some(
                tokio::task::spawn_blocking(move || crate::auth::hash_password(&p))
                    .await
                    .map_err(ApiError::internal)?
                    .map_err(ApiError::internal)?,
            ))
        }
    };
    let mailgun_signing_key = match field(&body.mailgun_signing_key) {
        Some(Some(key)) => Some(Some(
            state
                .totp
                .seal(&key, &hooks::mailgun_key_owner(client_id))
                .map_err(|_| ApiError::internal("sealing the Mailgun signing key failed"))?,
        )),
        other => other,
    };
    let sendgrid_public_key = field(&body.sendgrid_public_key);
    if let Some(Some(key)) = &sendgrid_public_key {
        if hooks::sendgrid_public_key(key).is_none() {
            return Err(bad(
                "The verification key must be SendGrid's public key (base64 or PEM)",
            ));
        }
    }
    let ses_topic_arns = match &body.ses_topic_arns {
        Some(arns) => {
            let arns: Vec<String> = arns
                .iter()
                .map(|a| a.trim().to_owned())
                .filter(|a| !a.is_empty())
                .collect();
            if arns
                .iter()
                .any(|a| !a.starts_with("arn:aws") || a.split(':').count() != 6 || a.len() > 300)
            {
                return Err(bad(
                    "A topic must be an SNS topic ARN like arn:aws:sns:us-east-1:123456789012:ses-bounces",
                ));
            }
            Some(arns)
        }
        None => None,
    };
    Ok(Change {
        enabled: body.enabled,
        postmark_username: field(&body.postmark_username),
        postmark_password_hash,
        mailgun_signing_key,
        sendgrid_public_key,
        ses_topic_arns,
    })
}

/// Whether the provider, as now stored, can authenticate anything.
fn ready(s: &webhooks::Settings, provider: Provider) -> bool {
    match provider {
        Provider::Ses => !s.ses_topic_arns.is_empty(),
        Provider::Sendgrid => s.sendgrid_public_key.is_some(),
        Provider::Postmark => s.postmark_username.is_some() && s.postmark_password_hash.is_some(),
        Provider::Mailgun => s.mailgun_signing_key.is_some(),
    }
}

#[OpenApi(tag = "ApiTags::Settings")]
impl DeliveryWebhooksApi {
    /// The current client's delivery webhooks (SES, SendGrid, Postmark, Mailgun): whether each is on, its path and
    /// its credentials (secrets only as set or not).
    #[oai(
        path = "/api/delivery-webhooks",
        method = "get",
        operation_id = "getDeliveryWebhooks"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<DeliveryWebhooks>, ApiError> {
        let short = auth.0.client.short_name.clone();
        let settings = auth
            .0
            .tx(&state, EDIT_ROLE, async |tx| read(&state, tx, &short).await)
            .await?;
        Ok(Json(settings))
    }

    /// Changes one delivery webhook's settings. Turning one on needs its credentials.
    #[oai(
        path = "/api/delivery-webhooks/:provider",
        method = "patch",
        operation_id = "updateDeliveryWebhook"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        provider: Path<String>,
        body: Json<DeliveryWebhookUpdate>,
    ) -> Result<Json<DeliveryWebhooks>, ApiError> {
        auth.0.check(EDIT_ROLE)?;
        let provider = provider_of(&provider.0)?;
        let client = auth.0.client.clone();
        let change = change(&state, client.id, &body.0).await?;
        let short = client.short_name.clone();
        let settings = auth
            .0
            .tx(&state, EDIT_ROLE, async |tx| {
                webhooks::update(tx, provider.as_str(), change).await?;
                let now = webhooks::get(tx, provider.as_str())
                    .await?
                    .unwrap_or_default();
                if now.enabled && !ready(&now, provider) {
                    return Err(ApiError::BadRequest(
                        "Set this webhook's credentials before turning it on".to_owned(),
                    ));
                }
                read(&state, tx, &short).await
            })
            .await?;
        if provider == Provider::Postmark {
            state.webhook_gate.forget(client.id);
        }
        Ok(Json(settings))
    }

    /// A relay's delivery webhook for one client (public; each relay authenticates as it documents: SES by the SNS
    /// signature and an accepted topic, SendGrid by its ECDSA signature, Postmark by HTTP Basic credentials,
    /// Mailgun by its HMAC signature). Idempotent on the relay's event id; answers once the events are written.
    #[oai(
        path = "/api/webhooks/delivery/:provider/:client_short",
        method = "post",
        operation_id = "deliveryWebhook"
    )]
    async fn receive(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        provider: Path<String>,
        client_short: Path<String>,
        body: Binary<Vec<u8>>,
    ) -> Result<DeliveryWebhookAnswer, ApiError> {
        let provider = provider_of(&provider.0)?;
        let receipt = hooks::receive(&state, provider, &client_short.0, req, &body.0).await?;
        Ok(DeliveryWebhookAnswer::Written(Json(
            DeliveryWebhookReceipt {
                stored: receipt.stored as i64,
                suppressed: receipt.suppressed as i64,
            },
        )))
    }
}
