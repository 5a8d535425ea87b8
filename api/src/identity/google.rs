//! Google sign-in: the browser hands us Google's ID token (a JWT); we check its signature against Google's
//! published keys, its issuer, its audience (our client id) and its expiry, and take the e-mail from it only when
//! Google says the address is verified.

use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{decode, decode_header, Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use std::time::{Duration, Instant};
use tokio::sync::RwLock;

pub const DEFAULT_JWKS_URL: &str = "https://www.googleapis.com/oauth2/v3/certs";
const ISSUERS: [&str; 2] = ["accounts.google.com", "https://accounts.google.com"];
/// Keys are re-read at least this often, and at most this often when a token names an unknown key.
const KEYS_TTL: Duration = Duration::from_secs(3600);
const REFETCH_AFTER: Duration = Duration::from_secs(30);

#[derive(Debug, thiserror::Error)]
pub enum GoogleError {
    #[error("the credential is not a valid Google ID token: {0}")]
    Invalid(String),
    #[error("the credential is not a valid Google ID token: {0}")]
    Token(#[from] jsonwebtoken::errors::Error),
    #[error("the Google account's e-mail is not verified")]
    Unverified,
    #[error("Google's keys could not be fetched: {0}")]
    Keys(#[from] reqwest::Error),
}

#[derive(Debug, Deserialize)]
struct IdClaims {
    email: Option<String>,
    #[serde(default)]
    email_verified: bool,
}

pub struct GoogleVerifier {
    client_id: String,
    jwks_url: String,
    http: reqwest::Client,
    keys: RwLock<Option<(Instant, JwkSet)>>,
}

impl GoogleVerifier {
    pub fn new(client_id: &str, jwks_url: &str) -> Self {
        Self {
            client_id: client_id.to_owned(),
            jwks_url: jwks_url.to_owned(),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .unwrap_or_default(),
            keys: RwLock::new(None),
        }
    }

    async fn fetch(&self) -> Result<JwkSet, GoogleError> {
        let answer = self
            .http
            .get(&self.jwks_url)
            .send()
            .await
            .and_then(|r| r.error_for_status())?;
        answer.json::<JwkSet>().await.map_err(GoogleError::Keys)
    }

    /// The key named `kid`, from the cache or a fresh copy of the key set.
    async fn key(&self, kid: &str) -> Result<DecodingKey, GoogleError> {
        let lookup = |set: &JwkSet| set.find(kid).map(DecodingKey::from_jwk);
        {
            let cached = self.keys.read().await;
            if let Some((at, set)) = cached.as_ref() {
                let fresh = at.elapsed() < KEYS_TTL;
                match lookup(set) {
                    Some(key) if fresh => return key.map_err(GoogleError::Token),
                    // Google rotates keys: an unknown kid may be new, but refetch at most every 30 s.
                    None if at.elapsed() < REFETCH_AFTER => {
                        return Err(GoogleError::Invalid("unknown signing key".to_owned()))
                    }
                    _ => {}
                }
            }
        }
        let set = self.fetch().await?;
        let key = lookup(&set);
        *self.keys.write().await = Some((Instant::now(), set));
        key.ok_or_else(|| GoogleError::Invalid("unknown signing key".to_owned()))?
            .map_err(GoogleError::Token)
    }

    /// The verified e-mail address of a Google ID token, lower-cased.
    pub async fn verify(&self, credential: &str) -> Result<String, GoogleError> {
        let header = decode_header(credential).map_err(GoogleError::Token)?;
        if header.alg != Algorithm::RS256 {
            return Err(GoogleError::Invalid("not signed with RS256".to_owned()));
        }
        let kid = header
            .kid
            .ok_or_else(|| GoogleError::Invalid("no key id".to_owned()))?;
        let key = self.key(&kid).await?;
        let mut validation = Validation::new(Algorithm::RS256);
        validation.set_audience(&[&self.client_id]);
        validation.set_issuer(&ISSUERS);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        validation.leeway = 30;
        let claims = decode::<IdClaims>(credential, &key, &validation)
            .map_err(GoogleError::Token)?
            .claims;
        match claims.email {
            Some(email) if claims.email_verified => Ok(domain::Email::normalise(&email)),
            _ => Err(GoogleError::Unverified),
        }
    }
}
