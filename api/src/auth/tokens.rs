use chrono::{Duration, Utc};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Signed in as a user.
    Basic,
    /// Signed in and acting for one client.
    Client,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserClaim {
    pub id: i64,
    pub email: String,
    pub kind: domain::UserKind,
}

/// The token's contents, named as the spec names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    pub user: UserClaim,
    pub scope: Vec<Scope>,
    #[serde(rename = "clientId", skip_serializing_if = "Option::is_none", default)]
    pub client_id: Option<i64>,
    #[serde(
        rename = "clientShort",
        skip_serializing_if = "Option::is_none",
        default
    )]
    pub client_short: Option<String>,
    /// The session this token belongs to: revoking the session ends the token.
    pub sid: i64,
    pub iat: i64,
    pub exp: i64,
}

impl Claims {
    pub fn has(&self, scope: Scope) -> bool {
        self.scope.contains(&scope)
    }
}

/// Signs and checks access tokens (HS256).
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    ttl: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("token error: {0}")]
    Jwt(#[from] jsonwebtoken::errors::Error),
}

impl TokenKeys {
    /// `key` is the token-signing key of [`super::Keys`].
    pub fn new(key: &[u8], ttl_minutes: i64) -> Self {
        Self {
            encoding: EncodingKey::from_secret(key),
            decoding: DecodingKey::from_secret(key),
            ttl: Duration::minutes(ttl_minutes.max(1)),
        }
    }

    /// A token for `user`, for one client when `client` is given.
    pub fn issue(
        &self,
        user: UserClaim,
        client: Option<(i64, String)>,
        sid: i64,
    ) -> Result<String, TokenError> {
        let now = Utc::now();
        let (scope, client_id, client_short) = match client {
            Some((id, short)) => (vec![Scope::Basic, Scope::Client], Some(id), Some(short)),
            None => (vec![Scope::Basic], None, None),
        };
        let claims = Claims {
            user,
            scope,
            client_id,
            client_short,
            sid,
            iat: now.timestamp(),
            exp: (now + self.ttl).timestamp(),
        };
        Ok(encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &self.encoding,
        )?)
    }

    pub fn ttl_seconds(&self) -> i64 {
        self.ttl.num_seconds()
    }

    /// The claims of a token this server signed and that has not expired.
    pub fn verify(&self, token: &str) -> Result<Claims, TokenError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 5;
        Ok(decode::<Claims>(token, &self.decoding, &validation)?.claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user() -> UserClaim {
        UserClaim {
            id: 7,
            email: "a@b.org".into(),
            kind: domain::UserKind::Universal,
        }
    }

    #[test]
    fn a_client_token_carries_the_client() {
        let keys = TokenKeys::new(&[7; 32], 10);
        let token = keys.issue(user(), Some((3, "acme".into())), 9).unwrap();
        let claims = keys.verify(&token).unwrap();
        assert_eq!(claims.scope, vec![Scope::Basic, Scope::Client]);
        assert_eq!(claims.client_id, Some(3));
        assert_eq!(claims.client_short.as_deref(), Some("acme"));
        assert_eq!(claims.sid, 9);
    }

    #[test]
    fn a_token_signed_with_another_secret_is_refused() {
        let ours = TokenKeys::new(&[7; 32], 10);
        let theirs = TokenKeys::new(&[8; 32], 10);
        let forged = theirs.issue(user(), Some((1, "other".into())), 9).unwrap();
        assert!(ours.verify(&forged).is_err());
    }
}
