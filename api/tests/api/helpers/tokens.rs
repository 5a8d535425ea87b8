//! Reading and forging the api's tokens.

use super::JWT_SECRET;
use serde_json::Value;

/// The claims of a JWT, read without checking its signature.
pub fn decode_claims(token: &str) -> Value {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap()
}

/// The same token, signed with the test apps' token key, but expired two minutes ago.
pub fn expired(token: &str) -> String {
    let mut claims = decode_claims(token);
    claims["exp"] = serde_json::json!(chrono::Utc::now().timestamp() - 120);
    jsonwebtoken::encode(
        &jsonwebtoken::Header::default(),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(
            api::auth::Keys::derive(JWT_SECRET, None)
                .unwrap()
                .token_signing(),
        ),
    )
    .unwrap()
}
