use crate::auth::TokenKeys;
use crate::public::PublicForms;
use crate::signups::SignupWriter;
use jobs::JobQueue;
use redis::aio::ConnectionManager;
use std::sync::Arc;
use tenancy::Tenancy;

/// What every request may use. Handlers reach the database only through `tenancy` (a tenant or public
/// transaction), never through a bare pool.
pub struct AppState {
    pub tenancy: Tenancy,
    pub queue: JobQueue,
    pub redis: ConnectionManager,
    pub tokens: TokenKeys,
    pub public: PublicForms,
    pub signups: SignupWriter,
    pub gifts: crate::actblue_webhook::GiftWriter,
    /// The ActBlue webhook's credential checks (verified credentials remembered briefly, hashing bounded).
    pub webhook_gate: crate::actblue_webhook::Gate,
    /// Relays' delivery webhooks: the SNS certificates and the bound on writers.
    pub delivery_hooks: crate::delivery_webhooks::Hooks,
    pub mailer: mail::Mailer,
    pub links: mail::links::LinkSigner,
    pub tracking: crate::tracking::EventBuffer,
    pub provider_name: String,
    /// The Google client id and the verifier of Google ID tokens, when Google sign-in is configured.
    pub google: Option<(String, crate::identity::google::GoogleVerifier)>,
    /// client-auth mode: the one client's short name.
    pub client_auth: Option<String>,
    /// Keyed hashes of refresh tokens, codes and links.
    pub hasher: crate::identity::secrets::SecretHasher,
    pub notices: crate::identity::notices::Notices,
    /// Where phone codes go; none without a gateway (outside development mode), and phone codes then go by e-mail.
    pub sms: Option<Arc<dyn crate::identity::sms::SmsGateway>>,
    pub limits: crate::identity::limits::AuthLimits,
    /// Seals authenticator secrets at rest.
    pub totp: crate::identity::totp::SecretBox,
    /// Proxies whose `X-Forwarded-For` names the client's address.
    pub trusted_proxies: crate::identity::address::TrustedProxies,
    /// Seals the DKIM keys of sender domains; none without `DKIM_KEY_SECRET` (no domain can be added then).
    pub dkim: Option<mail::dkim::KeyBox>,
    /// The resolver of the domain check.
    pub dns: crate::dns::Dns,
}

pub type SharedState = Arc<AppState>;
