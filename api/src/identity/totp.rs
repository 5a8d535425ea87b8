//! Authenticator apps (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of clock skew either way), and their
//! secrets sealed at rest.

use super::secrets::random_bytes;
use super::Realm;
use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::engine::general_purpose::STANDARD_NO_PAD;
use base64::Engine;
use qrcode::render::svg;
use qrcode::QrCode;
use totp_rs::{Algorithm, Secret, TOTP};

const ISSUER: &str = "Compass";
const STEP: u64 = 30;

/// A new base32 secret (160 bits, as RFC 4226 recommends).
pub fn new_secret() -> String {
    Secret::Raw(random_bytes(20)).to_encoded().to_string()
}

fn totp(secret_b32: &str, account: &str) -> Option<TOTP> {
    let bytes = Secret::Encoded(secret_b32.to_owned()).to_bytes().ok()?;
    TOTP::new(
        Algorithm::SHA1,
        6,
        1,
        STEP,
        bytes,
        Some(ISSUER.to_owned()),
        account.to_owned(),
    )
    .ok()
}

/// The `otpauth://` address an authenticator app reads from the QR code.
pub fn otpauth_uri(secret_b32: &str, account: &str) -> Option<String> {
    totp(secret_b32, account).map(|t| t.get_url())
}

/// The QR code of `uri` as an SVG document.
pub fn qr_svg(uri: &str) -> Option<String> {
    let code = QrCode::new(uri.as_bytes()).ok()?;
    Some(
        code.render::<svg::Color<'_>>()
            .min_dimensions(200, 200)
            .quiet_zone(true)
            .build(),
    )
}

/// The time step `code` belongs to, if it is valid now and newer than `last_step` (a code is accepted once).
pub fn accepted_step(secret_b32: &str, code: &str, last_step: i64, now_secs: u64) -> Option<i64> {
    let totp = totp(secret_b32, "user")?;
    let current = now_secs / STEP;
    let mut accepted = None;
    // Check every candidate step so the time taken does not tell which one matched.
    for step in [current.saturating_sub(1), current, current + 1] {
        let expected = totp.generate(step * STEP);
        if constant_time_eq(expected.as_bytes(), code.as_bytes()) && step as i64 > last_step {
            accepted = Some(step as i64);
        }
    }
    accepted
}

/// The code an app shows at `secs` (tests and tools).
pub fn code_at(secret_b32: &str, secs: u64) -> Option<String> {
    totp(secret_b32, "user").map(|t| t.generate(secs))
}

/// Marks a sealed value; a stored secret without it is plain text from before secrets were sealed.
const SEALED: &str = "v1:";
const NONCE_LEN: usize = 12;

#[derive(Debug, thiserror::Error)]
#[error("the authenticator secret could not be sealed")]
pub struct SealError;

/// Seals authenticator secrets for the database with AES-256-GCM: `v1:` and the base64 of a random 96-bit nonce
/// followed by the ciphertext and tag. The account the secret belongs to is the associated data, so a sealed
/// value copied onto another account does not open.
#[derive(Clone)]
pub struct SecretBox {
    cipher: Aes256Gcm,
}

/// Whose secret a sealed value is: realm, client and user.
pub fn owner(realm: &Realm, user_id: i64) -> String {
    match realm {
        Realm::Universal => format!("universal:{user_id}"),
        Realm::Client(c) => format!("client:{}:{user_id}", c.id),
    }
}

impl SecretBox {
    /// `key` is the TOTP key of [`crate::auth::Keys`].
    pub fn new(key: &[u8; 32]) -> Self {
        Self {
            cipher: Aes256Gcm::new(key.into()),
        }
    }

    pub fn seal(&self, secret: &str, owner: &str) -> Result<String, SealError> {
        let nonce = random_bytes(NONCE_LEN);
        let sealed = self
            .cipher
            .encrypt(
                &Nonce::from(<[u8; NONCE_LEN]>::try_from(nonce.as_slice()).map_err(|_| SealError)?),
                Payload {
                    msg: secret.as_bytes(),
                    aad: owner.as_bytes(),
                },
            )
            .map_err(|_| SealError)?;
        let mut bytes = nonce;
        bytes.extend_from_slice(&sealed);
        Ok(format!("{SEALED}{}", STANDARD_NO_PAD.encode(bytes)))
    }

    /// The secret in a stored value; a value from before sealing is taken as it is (the api seals those when it
    /// starts, so one can only come from an older api still running). `None` when it does not open.
    pub fn open(&self, stored: &str, owner: &str) -> Option<String> {
        let Some(encoded) = stored.strip_prefix(SEALED) else {
            return Some(stored.to_owned());
        };
        let bytes = STANDARD_NO_PAD.decode(encoded).ok()?;
        if bytes.len() <= NONCE_LEN {
            return None;
        }
        let (nonce, sealed) = bytes.split_at(NONCE_LEN);
        let plain = self
            .cipher
            .decrypt(
                &Nonce::from(<[u8; NONCE_LEN]>::try_from(nonce).ok()?),
                Payload {
                    msg: sealed,
                    aad: owner.as_bytes(),
                },
            )
            .ok()?;
        String::from_utf8(plain).ok()
    }
}

/// Postgres's "undefined_table".
const UNDEFINED_TABLE: &str = "42P01";

#[derive(Debug, thiserror::Error)]
pub enum SealPlaintextError {
    #[error(transparent)]
    Tenancy(#[from] tenancy::TenancyError),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Seal(#[from] SealError),
}

/// Seals the secrets stored in plain text by earlier versions, in `public` and in every client's schema. Run at
/// start-up, so an upgraded deployment keeps none in plain text; each schema is one short transaction.
pub async fn seal_plaintext(
    tenancy: &tenancy::Tenancy,
    secrets: &SecretBox,
) -> Result<u64, SealPlaintextError> {
    let mut sealed = seal_in(&Realm::Universal, tenancy, secrets).await?;
    for client in tenancy.list_clients().await? {
        sealed += seal_in(&Realm::Client(client), tenancy, secrets).await?;
    }
    if sealed > 0 {
        tracing::info!(accounts = sealed, "sealed plain-text authenticator secrets");
    }
    Ok(sealed)
}

async fn seal_in(
    realm: &Realm,
    tenancy: &tenancy::Tenancy,
    secrets: &SecretBox,
) -> Result<u64, SealPlaintextError> {
    let mut tx = realm.begin(tenancy).await?;
    let rows: Vec<(i64, Option<String>, Option<String>)> =
        match store::accounts::unsealed_totp_secrets(&mut tx, realm.users()).await {
            Ok(rows) => rows,
            // A client registered by another process a moment ago may not have its tables yet: it has no secrets.
            Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some(UNDEFINED_TABLE) => {
                return Ok(0)
            }
            Err(e) => return Err(e.into()),
        };
    let count = rows.len() as u64;
    for (id, active, pending) in rows {
        let owner = owner(realm, id);
        let seal = |value: Option<String>| match value {
            Some(v) if !v.starts_with(SEALED) => secrets.seal(&v, &owner).map(Some),
            other => Ok(other),
        };
        let (active, pending) = (seal(active)?, seal(pending)?);
        store::accounts::set_totp_secrets(&mut tx, realm.users(), id, active, pending).await?;
    }
    tx.commit().await?;
    Ok(count)
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_accepted_once_and_only_near_its_time() {
        let secret = new_secret();
        let now = 1_800_000_000;
        let code = code_at(&secret, now).unwrap();
        let step = accepted_step(&secret, &code, 0, now).unwrap();
        assert_eq!(step as u64, now / 30);
        assert_eq!(accepted_step(&secret, &code, step, now), None, "replayed");
        assert_eq!(
            accepted_step(&secret, &code, 0, now + 300),
            None,
            "too late"
        );
        assert_eq!(accepted_step(&secret, "000000x", 0, now), None);
    }

    #[test]
    fn sealed_secrets_open_only_with_their_key_and_owner() {
        let secrets = SecretBox::new(&[1; 32]);
        let secret = new_secret();
        let sealed = secrets.seal(&secret, "universal:1").unwrap();
        assert!(sealed.starts_with("v1:") && !sealed.contains(&secret));
        assert_ne!(
            sealed,
            secrets.seal(&secret, "universal:1").unwrap(),
            "fresh nonce"
        );
        assert_eq!(secrets.open(&sealed, "universal:1"), Some(secret.clone()));
        assert_eq!(
            secrets.open(&sealed, "universal:2"),
            None,
            "another account"
        );
        assert_eq!(SecretBox::new(&[2; 32]).open(&sealed, "universal:1"), None);
        assert_eq!(secrets.open("v1:AAAA", "universal:1"), None);
        assert_eq!(
            secrets.open(&secret, "universal:1"),
            Some(secret),
            "legacy plain text"
        );
    }

    #[test]
    fn the_enrolment_uri_names_the_issuer_and_account() {
        let uri = otpauth_uri(&new_secret(), "ann@example.org").unwrap();
        assert!(
            uri.starts_with("otpauth://totp/Compass:ann%40example.org?"),
            "{uri}"
        );
        assert!(qr_svg(&uri).unwrap().contains("<svg"));
    }
}
