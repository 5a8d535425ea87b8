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

const PURPOSE: &str = "refresh";

/// How long after it was spent a token presented again is taken for a race between tabs, not for a copy.
const SPENT_GRACE_SECS: i32 = 10;

/// How long an unused session lives.
pub fn lifetime() -> Duration {
    Duration::days(30)
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
    let id = sqlx::query_scalar(
        "insert into auth_sessions (user_id, client_id, token_hash, expires)
         values ($1, $2, $3, now() + make_interval(days => $4)) returning id",
    )
    .bind(user_id)
    .bind(client_id)
    .bind(hasher.hash(PURPOSE, &secret))
    .bind(lifetime().num_days() as i32)
    .fetch_one(conn)
    .await?;
    Ok((id, secret))
}

/// A session a refresh token opened.
#[derive(Debug, sqlx::FromRow)]
pub struct Rotated {
    pub id: i64,
    pub user_id: i64,
    pub client_id: Option<i64>,
}

/// Swaps a live session's refresh token for a new one. The old token stops working at once and is kept as spent.
pub async fn rotate(
    conn: &mut PgConnection,
    hasher: &SecretHasher,
    secret: &str,
) -> Result<Option<(Rotated, String)>, sqlx::Error> {
    let next = random_token();
    let row: Option<Rotated> = sqlx::query_as(
        "with old as (
             select id, coalesce(family, id) as family, token_hash from auth_sessions
             where token_hash = $1 and revoked is null and expires > now()
             for update
         ), spent as (
             insert into auth_spent_refresh_tokens (token_hash, family) select token_hash, family from old
         )
         update auth_sessions s set token_hash = $2, last_used = now(),
                expires = now() + make_interval(days => $3)
         from old where s.id = old.id
         returning s.id, s.user_id, s.client_id",
    )
    .bind(hasher.hash(PURPOSE, secret))
    .bind(hasher.hash(PURPOSE, &next))
    .bind(lifetime().num_days() as i32)
    .fetch_optional(&mut *conn)
    .await?;
    if row.is_some() {
        // A spent token older than any session could live proves nothing any more.
        sqlx::query(
            "delete from auth_spent_refresh_tokens where spent < now() - make_interval(days => $1)",
        )
        .bind(lifetime().num_days() as i32)
        .execute(conn)
        .await?;
    }
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
    let family: Option<i64> = sqlx::query_scalar(
        "select family from auth_spent_refresh_tokens
         where token_hash = $1 and spent < now() - make_interval(secs => $2)",
    )
    .bind(hasher.hash(PURPOSE, secret))
    .bind(SPENT_GRACE_SECS)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(family) = family else {
        return Ok(None);
    };
    let ended = sqlx::query(
        "update auth_sessions set revoked = now()
         where (id = $1 or family = $1) and revoked is null",
    )
    .bind(family)
    .execute(conn)
    .await?;
    Ok(Some(ended.rows_affected()))
}

/// A client login replaced session `old` with `new`: `new` joins `old`'s family, and `old` ends with its token
/// spent, so a copy of that token still ends them both.
pub async fn hand_over(conn: &mut PgConnection, old: i64, new: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "with old as (
             update auth_sessions set revoked = now() where id = $1 and revoked is null
             returning coalesce(family, id) as family, token_hash
         ), spent as (
             insert into auth_spent_refresh_tokens (token_hash, family) select token_hash, family from old
             on conflict (token_hash) do nothing
         )
         update auth_sessions set family = (select family from old) where id = $2 and exists (select 1 from old)",
    )
    .bind(old)
    .bind(new)
    .execute(conn)
    .await?;
    Ok(())
}

/// Revokes the session holding this refresh token; true when there was one.
pub async fn revoke_by_token(
    conn: &mut PgConnection,
    hasher: &SecretHasher,
    secret: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "update auth_sessions set revoked = now() where token_hash = $1 and revoked is null",
    )
    .bind(hasher.hash(PURPOSE, secret))
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Revokes every session of a user except `keep` (after a password change or reset, or when disabled).
pub async fn revoke_all(
    conn: &mut PgConnection,
    user_id: i64,
    keep: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update auth_sessions set revoked = now()
         where user_id = $1 and revoked is null and ($2::bigint is null or id <> $2)",
    )
    .bind(user_id)
    .bind(keep)
    .execute(conn)
    .await?;
    Ok(())
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
