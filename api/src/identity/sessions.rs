//! Sessions: one per signed-in browser, holding the hash of its current refresh token. A refresh replaces the
//! token (rotation); logout and password changes revoke sessions, which also ends their access tokens, since
//! every access token names its session and is checked against it.
//!
//! A replaced token is kept as spent. Only a copy can present it again (the browser that spent it holds the new
//! one), so a spent token ends its session's whole family: the session and those a client login made from it.
//! A token spent moments ago is forgiven: two tabs of one browser may refresh with the same token at once.

use super::secrets::{random_token, SecretHasher};
use super::Realm;
use chrono::Duration;
use sqlx::PgConnection;

pub use store::sessions::{hand_over, revoke_all, Rotated};

const PURPOSE: &str = "refresh";

/// How long after it was spent a token presented again is taken for a race between tabs, not for a copy.
const SPENT_GRACE_SECS: i32 = 10;

/// How long an unused session lives.
pub fn lifetime() -> Duration {
    Duration::days(30)
}

fn days() -> i32 {
    lifetime().num_days() as i32
}

/// A refresh token names its realm so the server knows which schema holds the session:
/// `u.<secret>` for universal users, `c<client id>.<secret>` for client users.
pub fn encode(realm: &Realm, secret: &str) -> String {
    match realm {
        Realm::Universal => format!("u.{secret}"),
        Realm::Client(c) => format!("c{}.{secret}", c.id),
    }
}

/// The realm tag and the secret of a refresh token: `None` for the universal realm, `Some(id)` for a client's.
pub fn decode(token: &str) -> Option<(Option<i64>, &str)> {
    let (tag, secret) = token.split_once('.')?;
    if secret.is_empty() || secret.len() > 100 {
        return None;
    }
    match tag {
        "u" => Some((None, secret)),
        _ => tag
            .strip_prefix('c')
            .and_then(|id| id.parse().ok())
            .map(|id| (Some(id), secret)),
    }
}

/// Opens a session; returns its id and the refresh secret.
pub async fn open(
    conn: &mut PgConnection,
    hasher: &SecretHasher,
    user_id: i64,
    client_id: Option<i64>,
) -> Result<(i64, String), sqlx::Error> {
    let secret = random_token();
    let hash = hasher.hash(PURPOSE, &secret);
    let id = store::sessions::open(conn, user_id, client_id, &hash, days()).await?;
    Ok((id, secret))
}

/// Swaps a live session's refresh token for a new one. The old token stops working at once and is kept as spent.
pub async fn rotate(
    conn: &mut PgConnection,
    hasher: &SecretHasher,
    secret: &str,
) -> Result<Option<(Rotated, String)>, sqlx::Error> {
    let next = random_token();
    let (old, new) = (hasher.hash(PURPOSE, secret), hasher.hash(PURPOSE, &next));
    let row = store::sessions::rotate(conn, &old, &new, days()).await?;
    Ok(row.map(|r| (r, next)))
}

/// When `secret` is a token spent longer ago than the grace period, ends every live session of its family and
/// answers how many it ended (`Some(0)` when the family had ended already); `None` when the token was never
/// spent or was spent moments ago.
pub async fn end_family_of_spent(
    conn: &mut PgConnection,
    hasher: &SecretHasher,
    secret: &str,
) -> Result<Option<u64>, sqlx::Error> {
    let hash = hasher.hash(PURPOSE, secret);
    let family = store::sessions::family_of_spent(&mut *conn, &hash, SPENT_GRACE_SECS).await?;
    let Some(family) = family else {
        return Ok(None);
    };
    Ok(Some(store::sessions::end_family(conn, family).await?))
}

/// Revokes the session holding this refresh token; true when there was one.
pub async fn revoke_by_token(
    conn: &mut PgConnection,
    hasher: &SecretHasher,
    secret: &str,
) -> Result<bool, sqlx::Error> {
    store::sessions::revoke_by_token(conn, &hasher.hash(PURPOSE, secret)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refresh_tokens_name_their_realm() {
        assert_eq!(decode("u.abc"), Some((None, "abc")));
        assert_eq!(decode("c12.abc"), Some((Some(12), "abc")));
        assert_eq!(decode("c.abc"), None);
        assert_eq!(decode("x.abc"), None);
        assert_eq!(decode("u."), None);
        assert_eq!(decode("nodot"), None);
    }
}
