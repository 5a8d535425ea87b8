//! Random secrets and their keyed hashes. Only hashes are stored: a copy of the database gives no usable
//! refresh token, link or code.

use argon2::password_hash::rand_core::{OsRng, RngCore};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Hashes secrets with a server key (HMAC-SHA256).
#[derive(Clone)]
pub struct SecretHasher {
    key: Vec<u8>,
}

impl SecretHasher {
    /// `key` is the hashing key of [`crate::auth::Keys`].
    pub fn new(key: &[u8]) -> Self {
        Self { key: key.to_vec() }
    }

    fn mac(&self, purpose: &str, secret: &str) -> Hmac<Sha256> {
        // A key of any length is valid for HMAC; `new_from_slice` cannot fail here.
        let mut mac = match Hmac::<Sha256>::new_from_slice(&self.key) {
            Ok(mac) => mac,
            Err(_) => unreachable_hmac(),
        };
        mac.update(purpose.as_bytes());
        mac.update(&[0]);
        mac.update(secret.as_bytes());
        mac
    }

    /// The stored form of `secret`; `purpose` keeps a code for one use from matching another.
    pub fn hash(&self, purpose: &str, secret: &str) -> Vec<u8> {
        self.mac(purpose, secret).finalize().into_bytes().to_vec()
    }

    /// Compares in constant time.
    pub fn matches(&self, purpose: &str, secret: &str, stored: &[u8]) -> bool {
        self.mac(purpose, secret).verify_slice(stored).is_ok()
    }
}

#[cold]
fn unreachable_hmac() -> ! {
    panic!("HMAC accepts keys of every length")
}

/// 32 random bytes, URL-safe: refresh tokens and e-mailed links.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// A six-digit code, uniformly drawn.
pub fn random_code() -> String {
    // Rejection sampling keeps every code equally likely.
    loop {
        let n = OsRng.next_u32();
        if n < u32::MAX - (u32::MAX % 1_000_000) {
            return format!("{:06}", n % 1_000_000);
        }
    }
}

pub fn random_bytes(len: usize) -> Vec<u8> {
    let mut bytes = vec![0u8; len];
    OsRng.fill_bytes(&mut bytes);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_match_only_their_secret_and_purpose() {
        let h = SecretHasher::new(b"k");
        let stored = h.hash("login", "123456");
        assert!(h.matches("login", "123456", &stored));
        assert!(!h.matches("login", "123457", &stored));
        assert!(!h.matches("reset", "123456", &stored));
        assert!(!SecretHasher::new(b"other").matches("login", "123456", &stored));
    }

    #[test]
    fn codes_have_six_digits() {
        for _ in 0..100 {
            let code = random_code();
            assert_eq!(code.len(), 6);
            assert!(code.chars().all(|c| c.is_ascii_digit()));
        }
        assert_ne!(random_token(), random_token());
    }
}
