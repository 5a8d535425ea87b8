//! The webhook's HTTP Basic credentials, checked without stalling the api. argon2 is slow on purpose, so it runs
//! off the async runtime and at most `SLOTS` webhook checks hash at once; the client and credential lookups take
//! at most `SLOTS` connections too, so a burst of webhooks queues here instead of in the pool, where sign-ins and
//! every other request wait their turn. A credential that verified is remembered for `VERIFIED_FOR` under its keyed hash
//! (never the password itself): a burst from ActBlue costs one argon2 check, not one per request. Failures are
//! counted per address by the sign-in limiter, which then refuses that address with 429 (Retry-After) for the
//! rest of its window instead of hashing.

use crate::auth::in_client;
use crate::error::ApiError;
use crate::identity::limits::{Action, Attempt};
use crate::state::AppState;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use poem::Request;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tenancy::Client;
use tokio::sync::Semaphore;

/// How long a verified credential is taken without hashing again. A password changed on the System page takes
/// effect at once in this process (`forget`), and within this time in others.
pub const VERIFIED_FOR: Duration = Duration::from_secs(60);
/// Webhook credential checks hashing at once, and webhook lookups using a connection at once, per process.
const SLOTS: usize = 2;

/// Whose HTTP Basic credentials a webhook presents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basic {
    /// ActBlue's contribution webhook (app settings).
    Actblue,
    /// Postmark's delivery webhook (its row of `delivery_webhooks`, when enabled).
    Postmark,
}

impl Basic {
    fn purpose(self) -> &'static str {
        match self {
            Basic::Actblue => "actblue-webhook",
            Basic::Postmark => "postmark-webhook",
        }
    }
}
/// What a refused address is told to wait (its failures are counted over the sign-in limit window).
const REFUSED_RETRY_SECS: u64 = 60;

/// Remembers verified credentials and bounds the checks that hash.
pub struct Gate {
    verified: Mutex<HashMap<Vec<u8>, (i64, Instant)>>,
    hashing: Semaphore,
    lookups: Semaphore,
}

impl Default for Gate {
    fn default() -> Self {
        Self {
            verified: Mutex::new(HashMap::new()),
            hashing: Semaphore::new(SLOTS),
            lookups: Semaphore::new(SLOTS),
        }
    }
}

fn wrong_credentials() -> ApiError {
    ApiError::Unauthorized("Wrong webhook credentials".to_owned())
}

/// `(username, password)` from an `Authorization: Basic …` header.
pub fn basic_credentials(req: &Request) -> Option<(String, String)> {
    let header = req.headers().get("authorization")?.to_str().ok()?;
    let (scheme, encoded) = header.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = String::from_utf8(STANDARD.decode(encoded.trim()).ok()?).ok()?;
    let (user, password) = decoded.split_once(':')?;
    Some((user.to_owned(), password.to_owned()))
}

fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

impl Gate {
    /// The enabled client `short` names when `given` are its webhook credentials; 401 otherwise (also for no
    /// such client), 429 when the address has failed too often.
    pub async fn admit(
        &self,
        state: &AppState,
        which: Basic,
        short: &str,
        given: Option<(String, String)>,
        address: &str,
    ) -> Result<Client, ApiError> {
        let client = if short.len() <= 31 {
            // Mostly a cache hit; a miss (the first request of a burst) reads the registry on one connection.
            let _lookup = self.lookups.acquire().await.map_err(ApiError::internal)?;
            state.tenancy.enabled_client_by_short(short).await?
        } else {
            None
        };
        let key = match (&client, &given) {
            (Some(c), Some((user, password))) => Some(
                state
                    .hasher
                    .hash(which.purpose(), &format!("{}\0{user}\0{password}", c.id)),
            ),
            _ => None,
        };
        if let Some(client) = self.known(&client, &key) {
            return Ok(client);
        }
        let slot = self.hashing.acquire().await.map_err(ApiError::internal)?;
        // Another request may have verified the same credential while this one waited for a slot.
        if let Some(client) = self.known(&client, &key) {
            return Ok(client);
        }
        // Only a request about to hash asks the limiter: a burst of real webhooks does not queue up on Redis.
        let attempt = Attempt {
            action: Action::Webhook,
            email: None,
            user: None,
            address,
        };
        // No account is named, so only the address's own failures can refuse it; there is no account delay.
        let _ = state.limits.check(attempt).await.map_err(|e| match e {
            ApiError::TooManyRequests(message) => ApiError::RetryLater {
                message,
                after_secs: REFUSED_RETRY_SECS,
            },
            other => other,
        })?;
        let (user, hash) = match &client {
            Some(c) => {
                let _lookup = self.lookups.acquire().await.map_err(ApiError::internal)?;
                stored(state, which, c).await?
            }
            None => (None, None),
        };
        let password = given.as_ref().map(|(_, p)| p.clone()).unwrap_or_default();
        // The hash is checked whatever else is wrong, so timing tells nothing about which part was.
        let password_ok = tokio::task::spawn_blocking(move || {
            crate::auth::verify_password(&password, hash.as_deref())
        })
        .await
        .map_err(ApiError::internal)?;
        drop(slot);
        let user_ok = match (&given, &user) {
            (Some((g, _)), Some(u)) => same(g, u),
            _ => false,
        };
        match (client, key) {
            (Some(client), Some(key)) if password_ok && user_ok => {
                self.remember(key, client.id);
                Ok(client)
            }
            _ => {
                state.limits.failed(attempt).await?;
                Err(wrong_credentials())
            }
        }
    }

    fn known(&self, client: &Option<Client>, key: &Option<Vec<u8>>) -> Option<Client> {
        let (client, key) = (client.as_ref()?, key.as_ref()?);
        let verified = self.verified.lock().ok()?;
        let (_, at) = verified.get(key)?;
        (at.elapsed() < VERIFIED_FOR).then(|| client.clone())
    }

    fn remember(&self, key: Vec<u8>, client_id: i64) {
        if let Ok(mut verified) = self.verified.lock() {
            verified.retain(|_, (_, at)| at.elapsed() < VERIFIED_FOR);
            verified.insert(key, (client_id, Instant::now()));
        }
    }

    /// Forgets the client's verified credentials (its webhook credentials changed).
    pub fn forget(&self, client_id: i64) {
        if let Ok(mut verified) = self.verified.lock() {
            verified.retain(|_, (id, _)| *id != client_id);
        }
    }
}

/// The client's webhook user name and password hash, if set (and, for a delivery webhook, turned on).
async fn stored(
    state: &AppState,
    which: Basic,
    client: &Client,
) -> Result<(Option<String>, Option<String>), ApiError> {
    let row = in_client(&state.tenancy, client, async |tx| match which {
        Basic::Actblue => Ok(store::revenue::webhook::credentials(tx).await?),
        Basic::Postmark => Ok(store::deliverability::webhooks::get(tx, "postmark")
            .await?
            .filter(|s| s.enabled)
            .map(|s| (s.postmark_username, s.postmark_password_hash))),
    })
    .await?;
    Ok(row.unwrap_or((None, None)))
}
