//! DKIM for the client's sender domains: the keys Compass generates (RSA 2048 or Ed25519), sealed at rest with
//! the deployment's `DKIM_KEY_SECRET` (the api seals a new key, the worker opens it to sign), the DNS record to
//! publish, and the signer that puts a `DKIM-Signature` on a formatted message.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use mail_auth::common::crypto::{Ed25519Key, RsaKey, Sha256};
use mail_auth::common::headers::HeaderWriter;
use mail_auth::dkim::{Canonicalization, DkimSigner, Done};
use rand::rngs::OsRng;
use rand::RngCore;
use rustls_pki_types::{PrivateKeyDer, PrivatePkcs1KeyDer};

/// The headers every copy is signed over (those a copy carries; a missing one is signed as absent, so it cannot
/// be added later without breaking the signature).
pub const SIGNED_HEADERS: [&str; 9] = [
    "From",
    "To",
    "Subject",
    "Date",
    "Message-ID",
    "List-Unsubscribe",
    "List-Unsubscribe-Post",
    "MIME-Version",
    "Content-Type",
];

const NONCE_LEN: usize = 12;
const RSA_BITS: usize = 2048;

#[derive(Debug, thiserror::Error)]
pub enum DkimError {
    #[error("DKIM_KEY_SECRET must be 64 hex digits (32 bytes)")]
    Secret,
    #[error("the DKIM key could not be sealed")]
    Seal,
    #[error("the DKIM key does not open with this DKIM_KEY_SECRET")]
    Open,
    #[error("DKIM key: {0}")]
    Key(String),
    #[error("DKIM signing: {0}")]
    Sign(String),
    #[error("{0} has a DKIM key, but DKIM_KEY_SECRET is not set here to open it")]
    NoSecret(String),
}

/// The key algorithms a sender domain can have, as stored in `sender_domains.dkim_algorithm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    Rsa,
    Ed25519,
}

impl Algorithm {
    pub fn parse(stored: &str) -> Option<Self> {
        match stored {
            "rsa" => Some(Self::Rsa),
            "ed25519" => Some(Self::Ed25519),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Rsa => "rsa",
            Self::Ed25519 => "ed25519",
        }
    }
}

/// A new key pair: the private key (PKCS#1 DER for RSA, the 32-byte seed for Ed25519) and the public key as the
/// DNS record's `p=` carries it.
pub struct KeyPair {
    pub private: Vec<u8>,
    pub public: String,
}

/// Generates a key (RSA 2048 takes a moment: call it off the async threads).
pub fn generate(algorithm: Algorithm) -> Result<KeyPair, DkimError> {
    match algorithm {
        Algorithm::Rsa => {
            use rsa::pkcs1::EncodeRsaPrivateKey;
            use rsa::pkcs8::EncodePublicKey;
            let key = rsa::RsaPrivateKey::new(&mut OsRng, RSA_BITS)
                .map_err(|e| DkimError::Key(e.to_string()))?;
            let private = key
                .to_pkcs1_der()
                .map_err(|e| DkimError::Key(e.to_string()))?
                .as_bytes()
                .to_vec();
            let public = key
                .to_public_key()
                .to_public_key_der()
                .map_err(|e| DkimError::Key(e.to_string()))?;
            Ok(KeyPair {
                private,
                public: STANDARD.encode(public.as_bytes()),
            })
        }
        Algorithm::Ed25519 => {
            let key = ed25519_dalek::SigningKey::generate(&mut OsRng);
            Ok(KeyPair {
                private: key.to_bytes().to_vec(),
                public: STANDARD.encode(key.verifying_key().to_bytes()),
            })
        }
    }
}

/// The TXT record's value to publish at `<selector>._domainkey.<domain>`.
pub fn dns_record(algorithm: Algorithm, public: &str) -> String {
    let k = match algorithm {
        Algorithm::Rsa => "rsa",
        Algorithm::Ed25519 => "ed25519",
    };
    format!("v=DKIM1; k={k}; p={public}")
}

/// What a sealed key belongs to: the client and the domain. A sealed key copied onto another domain or client
/// does not open.
pub fn owner(client_id: i64, domain: &str) -> String {
    format!("dkim:{client_id}:{domain}")
}

/// Seals and opens DKIM private keys with AES-256-GCM: a random 96-bit nonce followed by the ciphertext and tag,
/// the owner as associated data.
#[derive(Clone)]
pub struct KeyBox {
    cipher: Aes256Gcm,
}

impl KeyBox {
    /// From `DKIM_KEY_SECRET`: 64 hex digits.
    pub fn from_hex(secret: &str) -> Result<Self, DkimError> {
        let bytes = decode_hex(secret.trim()).ok_or(DkimError::Secret)?;
        let key: [u8; 32] = bytes.try_into().map_err(|_| DkimError::Secret)?;
        Ok(Self {
            cipher: Aes256Gcm::new(&key.into()),
        })
    }

    pub fn seal(&self, private: &[u8], owner: &str) -> Result<Vec<u8>, DkimError> {
        let mut nonce = [0u8; NONCE_LEN];
        OsRng.fill_bytes(&mut nonce);
        let sealed = self
            .cipher
            .encrypt(
                &Nonce::from(nonce),
                Payload {
                    msg: private,
                    aad: owner.as_bytes(),
                },
            )
            .map_err(|_| DkimError::Seal)?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        Ok(out)
    }

    pub fn open(&self, sealed: &[u8], owner: &str) -> Result<Vec<u8>, DkimError> {
        if sealed.len() <= NONCE_LEN {
            return Err(DkimError::Open);
        }
        let (nonce, body) = sealed.split_at(NONCE_LEN);
        let nonce: [u8; NONCE_LEN] = nonce.try_into().map_err(|_| DkimError::Open)?;
        self.cipher
            .decrypt(
                &Nonce::from(nonce),
                Payload {
                    msg: body,
                    aad: owner.as_bytes(),
                },
            )
            .map_err(|_| DkimError::Open)
    }
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.is_ascii() {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

enum Key {
    Rsa(DkimSigner<RsaKey<Sha256>, Done>),
    Ed25519(DkimSigner<Ed25519Key, Done>),
}

/// The signing key of a stored Ed25519 seed (ring wants the public half beside it, derived here).
fn ed25519_key(seed: &[u8]) -> Result<Ed25519Key, DkimError> {
    let seed: [u8; 32] = seed
        .try_into()
        .map_err(|_| DkimError::Key("an Ed25519 seed is 32 bytes".to_owned()))?;
    let public = ed25519_dalek::SigningKey::from_bytes(&seed)
        .verifying_key()
        .to_bytes();
    Ed25519Key::from_seed_and_public_key(&seed, &public).map_err(|e| DkimError::Key(e.to_string()))
}

/// Signs messages for one domain with its key; built once per send and shared by the rendering threads.
pub struct Signer {
    key: Key,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Signer")
    }
}

impl Signer {
    /// A signer for `domain` with the opened private key (see [`generate`] for its form).
    pub fn new(
        algorithm: Algorithm,
        private: &[u8],
        domain: &str,
        selector: &str,
    ) -> Result<Self, DkimError> {
        let key = match algorithm {
            Algorithm::Rsa => Key::Rsa(
                DkimSigner::from_key(
                    RsaKey::<Sha256>::from_key_der(PrivateKeyDer::Pkcs1(PrivatePkcs1KeyDer::from(
                        private,
                    )))
                    .map_err(|e| DkimError::Key(e.to_string()))?,
                )
                .domain(domain)
                .selector(selector)
                .headers(SIGNED_HEADERS)
                .header_canonicalization(Canonicalization::Relaxed)
                .body_canonicalization(Canonicalization::Relaxed),
            ),
            Algorithm::Ed25519 => Key::Ed25519(
                DkimSigner::from_key(ed25519_key(private)?)
                    .domain(domain)
                    .selector(selector)
                    .headers(SIGNED_HEADERS)
                    .header_canonicalization(Canonicalization::Relaxed)
                    .body_canonicalization(Canonicalization::Relaxed),
            ),
        };
        Ok(Self { key })
    }

    /// Opens a sealed key and builds its signer.
    pub fn open(
        keys: &KeyBox,
        client_id: i64,
        domain: &str,
        selector: &str,
        algorithm: Algorithm,
        sealed: &[u8],
    ) -> Result<Self, DkimError> {
        let private = keys.open(sealed, &owner(client_id, domain))?;
        Self::new(algorithm, &private, domain, selector)
    }

    /// The formatted message with its `DKIM-Signature` header first.
    pub fn sign(&self, message: &[u8]) -> Result<Vec<u8>, DkimError> {
        let signature = match &self.key {
            Key::Rsa(s) => s.sign(message),
            Key::Ed25519(s) => s.sign(message),
        }
        .map_err(|e| DkimError::Sign(e.to_string()))?;
        let mut out = signature.to_header().into_bytes();
        out.extend_from_slice(message);
        Ok(out)
    }
}

/// The signers of a send (or a test send), by From domain.
pub type Signers = std::collections::HashMap<String, std::sync::Arc<Signer>>;

/// Opens the sealed keys of a send's From domains, each `(domain, selector, algorithm, sealed key)`: once per
/// send, not per message. A domain with a key that cannot be opened is an error, not unsigned mail.
pub fn open_signers<'a>(
    keys: Option<&KeyBox>,
    client_id: i64,
    rows: impl IntoIterator<Item = (&'a str, &'a str, &'a str, &'a [u8])>,
) -> Result<Signers, DkimError> {
    let mut signers = Signers::new();
    for (domain, selector, algorithm, sealed) in rows {
        let keys = keys.ok_or_else(|| DkimError::NoSecret(domain.to_owned()))?;
        let algorithm = Algorithm::parse(algorithm)
            .ok_or_else(|| DkimError::Key(format!("unknown algorithm {algorithm}")))?;
        let signer = Signer::open(keys, client_id, domain, selector, algorithm, sealed)?;
        signers.insert(domain.to_owned(), std::sync::Arc::new(signer));
    }
    Ok(signers)
}

/// The formatted message, DKIM-signed when `signers` has a key for its From domain.
pub fn format(
    message: &lettre::Message,
    from_address: &str,
    signers: &Signers,
) -> Result<Vec<u8>, crate::MailError> {
    let formatted = message.formatted();
    match domain_of(from_address).and_then(|d| signers.get(&d)) {
        Some(signer) => signer
            .sign(&formatted)
            .map_err(|e| crate::MailError::Build(e.to_string())),
        None => Ok(formatted),
    }
}

/// The domain of an address (lower case), if it has one.
pub fn domain_of(address: &str) -> Option<String> {
    address
        .rsplit_once('@')
        .map(|(_, d)| d.trim().to_ascii_lowercase())
        .filter(|d| !d.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_key_opens_only_for_its_owner_and_secret() {
        let keys = KeyBox::from_hex(&"11".repeat(32)).unwrap();
        let sealed = keys.seal(b"private", "dkim:1:example.org").unwrap();
        assert_eq!(
            keys.open(&sealed, "dkim:1:example.org").unwrap(),
            b"private"
        );
        assert!(keys.open(&sealed, "dkim:2:example.org").is_err());
        let other = KeyBox::from_hex(&"22".repeat(32)).unwrap();
        assert!(other.open(&sealed, "dkim:1:example.org").is_err());
        assert!(KeyBox::from_hex("abc").is_err());
    }

    #[test]
    fn an_ed25519_signature_names_the_domain_selector_and_headers() {
        let pair = generate(Algorithm::Ed25519).unwrap();
        let signer =
            Signer::new(Algorithm::Ed25519, &pair.private, "example.org", "compass").unwrap();
        let message = b"From: a@example.org\r\nTo: b@example.net\r\nSubject: Hi\r\n\r\nHello\r\n";
        let signed = String::from_utf8(signer.sign(message).unwrap()).unwrap();
        assert!(signed.starts_with("DKIM-Signature: "), "{signed}");
        assert!(signed.contains("d=example.org"), "{signed}");
        assert!(signed.contains("s=compass"), "{signed}");
        assert!(signed.contains("c=relaxed/relaxed"), "{signed}");
        assert!(signed.ends_with("Hello\r\n"));
        assert!(dns_record(Algorithm::Ed25519, &pair.public).starts_with("v=DKIM1; k=ed25519; p="));
    }
}
