//! The per-message envelope sender (VERP): `bounces+k<client>.m<mailing>.c<contact>.<tag>@<bounce domain>`. A
//! bounce or a feedback report sent back to it names the client, the mailing and the recipient without reading
//! the report's text, and the tag (HMAC-SHA256 under `BOUNCE_SECRET`, its first 10 bytes as 20 hex digits) keeps a
//! stranger from making one up to suppress someone else's address.
//!
//! Receiving servers and relays may change the case of a local part, so the token is lower-case only and read
//! case-insensitively.

use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// The local part's fixed start.
pub const PREFIX: &str = "bounces+";

/// Bytes of the HMAC kept in the token: 80 bits, 20 hex digits.
const TAG_BYTES: usize = 10;

/// Who a bounce address belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BounceToken {
    pub client_id: i64,
    pub mailing_id: i64,
    pub contact_id: i64,
}

/// Makes and checks bounce addresses with the deployment's `BOUNCE_SECRET`.
#[derive(Clone)]
pub struct VerpSigner {
    secret: Vec<u8>,
}

impl std::fmt::Debug for VerpSigner {
    // The key stays out of logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("VerpSigner")
    }
}

impl VerpSigner {
    pub fn new(secret: &str) -> Self {
        Self {
            secret: secret.as_bytes().to_vec(),
        }
    }

    fn mac(&self, payload: &str) -> Option<HmacSha256> {
        // HMAC takes keys of any length: this never fails.
        let mut mac = HmacSha256::new_from_slice(&self.secret).ok()?;
        mac.update(b"verp:");
        mac.update(payload.as_bytes());
        Some(mac)
    }

    /// The token (the local part after `bounces+`).
    pub fn token(&self, t: BounceToken) -> String {
        let payload = format!("k{}.m{}.c{}", t.client_id, t.mailing_id, t.contact_id);
        let tag = self
            .mac(&payload)
            .map(|m| m.finalize().into_bytes())
            .map(|b| hex::encode(&b[..TAG_BYTES]))
            .unwrap_or_default();
        format!("{payload}.{tag}")
    }

    /// The envelope sender for one copy: `bounces+<token>@<bounce_domain>`.
    pub fn address(&self, t: BounceToken, bounce_domain: &str) -> String {
        format!("{PREFIX}{}@{}", self.token(t), bounce_domain)
    }

    /// The token's owner, if `token` is one this key made (compared in constant time).
    pub fn verify(&self, token: &str) -> Option<BounceToken> {
        let token = token.to_ascii_lowercase();
        let (payload, tag) = token.rsplit_once('.')?;
        if tag.len() != TAG_BYTES * 2 {
            return None;
        }
        let tag = hex::decode(tag).ok()?;
        let mut parts = payload.split('.');
        let mut number = |prefix: char| -> Option<i64> {
            let digits = parts.next()?.strip_prefix(prefix)?;
            // Only the digits `token` writes: no sign, no leading zero, so one token has one spelling.
            if digits.is_empty()
                || !digits.bytes().all(|b| b.is_ascii_digit())
                || (digits.len() > 1 && digits.starts_with('0'))
            {
                return None;
            }
            digits.parse().ok()
        };
        let parsed = BounceToken {
            client_id: number('k')?,
            mailing_id: number('m')?,
            contact_id: number('c')?,
        };
        if parts.next().is_some() {
            return None;
        }
        self.mac(payload)?.verify_truncated_left(&tag).ok()?;
        Some(parsed)
    }

    /// The owner of a recipient address `bounces+<token>@<any domain>`, if its token is valid.
    pub fn verify_address(&self, address: &str) -> Option<BounceToken> {
        let (local, _domain) = address.trim().rsplit_once('@')?;
        let prefix = local.get(..PREFIX.len())?;
        if !prefix.eq_ignore_ascii_case(PREFIX) {
            return None;
        }
        self.verify(&local[PREFIX.len()..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: BounceToken = BounceToken {
        client_id: 12,
        mailing_id: 34,
        contact_id: 56,
    };

    #[test]
    fn a_token_names_its_recipient_and_only_this_key_makes_it() {
        let signer = VerpSigner::new("bounce-key");
        let address = signer.address(T, "bounce.example.org");
        assert!(address.starts_with("bounces+k12.m34.c56."), "{address}");
        assert!(address.ends_with("@bounce.example.org"));
        assert_eq!(address, address.to_lowercase());
        let token = signer.token(T);
        assert_eq!(token.rsplit_once('.').unwrap().1.len(), 20);
        assert_eq!(signer.verify(&token), Some(T));
        assert_eq!(signer.verify_address(&address), Some(T));
        assert_eq!(VerpSigner::new("other-key").verify(&token), None);
    }

    #[test]
    fn an_altered_token_is_refused_and_upper_case_is_read() {
        let signer = VerpSigner::new("bounce-key");
        let token = signer.token(T);
        assert_eq!(signer.verify(&token.replace("c56", "c57")), None);
        assert_eq!(signer.verify(&token.replace("k12", "k13")), None);
        assert_eq!(signer.verify(&token.replace("c56", "c056")), None);
        let (payload, tag) = token.rsplit_once('.').unwrap();
        let last = tag.chars().last().unwrap();
        let changed = if last == '0' { '1' } else { '0' };
        let forged = format!("{payload}.{}{changed}", &tag[..tag.len() - 1]);
        assert_eq!(signer.verify(&forged), None);
        assert_eq!(signer.verify(&format!("{payload}.{}", &tag[..18])), None);
        assert_eq!(signer.verify("k12.m34.c56"), None);
        assert_eq!(signer.verify(""), None);
        assert_eq!(signer.verify(&token.to_uppercase()), Some(T));
        let address = signer.address(T, "bounce.example.org").to_uppercase();
        assert_eq!(signer.verify_address(&address), Some(T));
        assert_eq!(
            signer.verify_address(&format!("someone+{token}@bounce.example.org")),
            None
        );
    }
}
