//! One-time challenges of either realm (`auth_challenges`, in `public` or the client's schema): login codes,
//! e-mail verification links and password-reset links. Only keyed hashes of their secrets reach these functions;
//! the purposes, lifetimes and the checking of answers stay with the api's `identity::challenges`.

use sqlx::PgConnection;

/// Closes the user's open challenges of `purpose`, then opens a new one expiring in `lifetime_secs`: only the
/// newest code works. `secret_hash` is None for an authenticator-app login, whose code the app makes.
pub async fn open(
    conn: &mut PgConnection,
    user_id: i64,
    purpose: &str,
    secret_hash: Option<Vec<u8>>,
    client_id: Option<i64>,
    lifetime_secs: f64,
) -> Result<i64, sqlx::Error> {
    sqlx::query(
        "update auth_challenges set used = now() where user_id = $1 and purpose = $2 and used is null",
    )
    .bind(user_id)
    .bind(purpose)
    .execute(&mut *conn)
    .await?;
    sqlx::query_scalar(
        "insert into auth_challenges (user_id, purpose, secret_hash, client_id, expires)
         values ($1, $2, $3, $4, now() + make_interval(secs => $5)) returning id",
    )
    .bind(user_id)
    .bind(purpose)
    .bind(secret_hash)
    .bind(client_id)
    .bind(lifetime_secs)
    .fetch_one(conn)
    .await
}

/// The open challenge a user is answering.
#[derive(Debug, sqlx::FromRow)]
pub struct OpenChallenge {
    pub id: i64,
    pub secret_hash: Option<Vec<u8>>,
    pub client_id: Option<i64>,
}

/// The user's newest unexpired, unused challenge of this purpose, locked until the transaction ends so two
/// answers cannot both use it.
pub async fn current(
    conn: &mut PgConnection,
    user_id: i64,
    purpose: &str,
) -> Result<Option<OpenChallenge>, sqlx::Error> {
    sqlx::query_as(
        "select id, secret_hash, client_id from auth_challenges
         where user_id = $1 and purpose = $2 and used is null and expires > now()
         order by id desc limit 1 for update",
    )
    .bind(user_id)
    .bind(purpose)
    .fetch_optional(conn)
    .await
}

/// Marks a challenge answered.
pub async fn consume(conn: &mut PgConnection, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("update auth_challenges set used = now() where id = $1")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Counts a wrong answer; the challenge is burned at `max_attempts`.
pub async fn record_wrong_answer(
    conn: &mut PgConnection,
    id: i64,
    max_attempts: i32,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update auth_challenges set attempts = attempts + 1,
                used = case when attempts + 1 >= $2 then now() else used end
         where id = $1",
    )
    .bind(id)
    .bind(max_attempts)
    .execute(conn)
    .await?;
    Ok(())
}
