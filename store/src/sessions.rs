//! Sessions of either realm (`auth_sessions` and the spent refresh tokens, in `public` or the client's schema,
//! whichever the caller's transaction sees). Only keyed hashes of refresh tokens reach these functions; making
//! and hashing the tokens stays with the api's `identity::sessions`.

use sqlx::PgConnection;

/// Opens a session holding `token_hash`, living `days` days; returns its id.
pub async fn open(
    conn: &mut PgConnection,
    user_id: i64,
    client_id: Option<i64>,
    token_hash: &[u8],
    days: i32,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "insert into auth_sessions (user_id, client_id, token_hash, expires)
         values ($1, $2, $3, now() + make_interval(days => $4)) returning id",
    )
    .bind(user_id)
    .bind(client_id)
    .bind(token_hash)
    .bind(days)
    .fetch_one(conn)
    .await
}

/// A session a refresh token opened.
#[derive(Debug, sqlx::FromRow)]
pub struct Rotated {
    pub id: i64,
    pub user_id: i64,
    pub client_id: Option<i64>,
}

/// Swaps a live session's token `old_hash` for `new_hash`, keeping the old one as spent, and extends the session
/// by `days` days. When one was swapped, spent tokens older than `days` are deleted: older than any session could
/// live, they prove nothing any more.
pub async fn rotate(
    conn: &mut PgConnection,
    old_hash: &[u8],
    new_hash: &[u8],
    days: i32,
) -> Result<Option<Rotated>, sqlx::Error> {
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
    .bind(old_hash)
    .bind(new_hash)
    .bind(days)
    .fetch_optional(&mut *conn)
    .await?;
    if row.is_some() {
        sqlx::query(
            "delete from auth_spent_refresh_tokens where spent < now() - make_interval(days => $1)",
        )
        .bind(days)
        .execute(conn)
        .await?;
    }
    Ok(row)
}

/// The family of the spent token `token_hash` when it was spent more than `grace_secs` ago.
pub async fn family_of_spent(
    conn: &mut PgConnection,
    token_hash: &[u8],
    grace_secs: i32,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "select family from auth_spent_refresh_tokens
         where token_hash = $1 and spent < now() - make_interval(secs => $2)",
    )
    .bind(token_hash)
    .bind(grace_secs)
    .fetch_optional(conn)
    .await
}

/// Ends every live session of the family; answers how many it ended.
pub async fn end_family(conn: &mut PgConnection, family: i64) -> Result<u64, sqlx::Error> {
    let ended = sqlx::query(
        "update auth_sessions set revoked = now()
         where (id = $1 or family = $1) and revoked is null",
    )
    .bind(family)
    .execute(conn)
    .await?;
    Ok(ended.rows_affected())
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

/// Revokes the live session holding `token_hash`; true when there was one.
pub async fn revoke_by_token(
    conn: &mut PgConnection,
    token_hash: &[u8],
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "update auth_sessions set revoked = now() where token_hash = $1 and revoked is null",
    )
    .bind(token_hash)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Revokes every live session of a user except `keep`.
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
