//! The server's keys, one per purpose, so that holding one gives no power over the others: access tokens are
//! signed with one, refresh tokens, codes and e-mailed links are hashed with another, authenticator secrets are
//! encrypted with a third, and tracking links (the only key the worker holds) are signed with a fourth. All are
//! derived from the master secret (`JWT_SECRET`) with HKDF-SHA256 under distinct labels, except the tracking
//! key, which is `TRACKING_SECRET` when that is set, so that a worker can be given it alone.

use hkdf::Hkdf;
use sha2::Sha256;

/// The master secret's minimum length.
pub const MIN_MASTER_LEN: usize = 32;

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("JWT_SECRET must be at least 32 characters")]
    WeakMaster,
    #[error("TRACKING_SECRET must be at least 32 characters when set")]
    WeakTracking,
}

/// No `Debug` or `Clone`: the keys stay where they were made.
pub struct Keys {
    token_signing: [u8; 32],
    hashing: [u8; 32],
    totp: [u8; 32],
    tracking: String,
}

impl Keys {
    /// The keys of a master secret; `tracking` (TRACKING_SECRET) replaces the derived tracking key when set.
    pub fn derive(master: &str, tracking: Option<&str>) -> Result<Self, KeyError> {
        if master.len() < MIN_MASTER_LEN {
            return Err(KeyError::WeakMaster);
        }
        let hkdf = Hkdf::<Sha256>::new(Some(b"compass"), master.as_bytes());
        let expand = |label: &str| {
            let mut key = [0u8; 32];
            // 32 bytes is far below HKDF-SHA256's limit of 8160, so expanding cannot fail.
            let _ = hkdf.expand(label.as_bytes(), &mut key);
            key
        };
        let tracking = match tracking.filter(|t| !t.is_empty()) {
            Some(t) if t.len() < MIN_MASTER_LEN => return Err(KeyError::WeakTracking),
            Some(t) => t.to_owned(),
            None => {
                use base64::Engine;
                base64::engine::general_purpose::URL_SAFE_NO_PAD
                    .encode(expand("compass/tracking-links/v1"))
            }
        };
        Ok(Self {
            token_signing: expand("compass/access-tokens/v1"),
            hashing: expand("compass/secret-hashes/v1"),
            totp: expand("compass/totp-secrets/v1"),
            tracking,
        })
    }

    /// Signs and checks access tokens (HS256).
    pub fn token_signing(&self) -> &[u8] {
        &self.token_signing
    }

    /// Keys the hashes of refresh tokens, codes and e-mailed links.
    pub fn hashing(&self) -> &[u8] {
        &self.hashing
    }

    /// Encrypts authenticator secrets at rest (AES-256-GCM).
    pub fn totp(&self) -> &[u8; 32] {
        &self.totp
    }

    /// Signs tracking and unsubscribe links; the worker's `TRACKING_SECRET`.
    pub fn tracking(&self) -> &str {
        &self.tracking
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MASTER: &str = "master-secret-master-secret-master-secret";

    #[test]
    fn every_purpose_has_its_own_key_and_none_is_the_master() {
        let keys = Keys::derive(MASTER, None).unwrap();
        let all: [&[u8]; 4] = [
            keys.token_signing(),
            keys.hashing(),
            keys.totp(),
            keys.tracking().as_bytes(),
        ];
        for (i, a) in all.iter().enumerate() {
            assert_ne!(*a, MASTER.as_bytes());
            for b in &all[i + 1..] {
                assert_ne!(a, b);
            }
        }
        let again = Keys::derive(MASTER, None).unwrap();
        assert_eq!(again.token_signing(), keys.token_signing(), "stable");
        let other = Keys::derive(&MASTER.replace('m', "M"), None).unwrap();
        assert_ne!(other.token_signing(), keys.token_signing());
    }

    #[test]
    fn a_tracking_secret_replaces_only_the_tracking_key() {
        let tracking = "tracking-secret-tracking-secret-tracking";
        let keys = Keys::derive(MASTER, Some(tracking)).unwrap();
        assert_eq!(keys.tracking(), tracking);
        assert_eq!(
            keys.token_signing(),
            Keys::derive(MASTER, None).unwrap().token_signing()
        );
        assert!(Keys::derive(MASTER, Some("short")).is_err());
        assert!(Keys::derive("short", None).is_err());
    }
}
