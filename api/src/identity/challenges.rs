//! One-time challenges: login codes, e-mail verification links and password-reset links. Each is single use,
//! expires, and is burned after too many wrong answers.

use super::secrets::SecretHasher;
use chrono::Duration;
use sqlx::PgConnection;

/// Wrong answers a challenge takes before it is burned.
pub const MAX_ATTEMPTS: i32 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Login,
    VerifyEmail,
    ResetPassword,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Self::Login => "login",
            Self::VerifyEmail => "verify_email",
            Self::ResetPassword => "reset_password",
        }
    }

    pub fn lifetime(self) -> Duration {
        match self {
            Self::Login => Duration::minutes(10),
            Self::VerifyEmail => Duration::days(3),
            Self::ResetPassword => Duration::hours(1),
        }
    }
}

/// Opens a challenge, closing the user's earlier open ones of the same purpose: only the newest code works.
/// `secret` is None for an authenticator-app login, whose code the app makes.
pub async fn open(
    conn: &mut PgConnection,
    hasher: &SecretHasher,
    user_id: i64,
    purpose: Purpose,
    client_id: Option<i64>,
    secret: Option<&str>,
) -> Result<i64, sqlx::Error> {
    sqlx::query(
        "update auth_challenges set used = now() where user_id = $1 and purpose = $2 and used is null",
    )
    .bind(user_id)
    .bind(purpose.as_str())
    .execute(&mut *conn)
    .await?;
    let hash = secret.map(|s| hasher.hash(purpose.as_str(), s));
    sqlx::query_scalar(
        "insert into auth_challenges (user_id, purpose, secret_hash, client_id, expires)
         values ($1, $2, $3, $4, now() + make_interval(secs => $5)) returning id",
    )
    .bind(user_id)
    .bind(purpose.as_str())
    .bind(hash)
    .bind(client_id)
    .bind(purpose.lifetime().num_seconds() as f64)
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
    purpose: Purpose,
) -> Result<Option<OpenChallenge>, sqlx::Error> {
    sqlx::query_as(
        "select id, secret_hash, client_id from auth_challenges
         where user_id = $1 and purpose = $2 and used is null and expires > now()
         order by id desc limit 1 for update",
    )
    .bind(user_id)
    .bind(purpose.as_str())
    .fetch_optional(conn)
    .await
}

/// Whether `answer` is the challenge's secret (constant-time).
pub fn answer_matches(
    hasher: &SecretHasher,
    purpose: Purpose,
    challenge: &OpenChallenge,
    answer: &str,
) -> bool {
    challenge
        .secret_hash
        .as_deref()
        .is_some_and(|stored| hasher.matches(purpose.as_str(), answer, stored))
}

/// Checks `secret` against the user's open challenge of `purpose`: the challenge's id when it matches, `None`
/// when there is no open challenge or the answer is wrong. A wrong answer is counted; commit the transaction to
/// keep the count. A right one is not consumed here.
pub async fn check_secret(
    conn: &mut PgConnection,
    hasher: &SecretHasher,
    user_id: i64,
    purpose: Purpose,
    secret: &str,
) -> Result<Option<i64>, sqlx::Error> {
    let Some(challenge) = current(&mut *conn, user_id, purpose).await? else {
        return Ok(None);
    };
    if answer_matches(hasher, purpose, &challenge, secret) {
        return Ok(Some(challenge.id));
    }
    record_wrong_answer(conn, challenge.id).await?;
    Ok(None)
}

/// Marks a challenge answered.
pub async fn consume(conn: &mut PgConnection, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("update auth_challenges set used = now() where id = $1")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Counts a wrong answer; the challenge is burned at [`MAX_ATTEMPTS`].
pub async fn record_wrong_answer(conn: &mut PgConnection, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update auth_challenges set attempts = attempts + 1,
                used = case when attempts + 1 >= $2 then now() else used end
         where id = $1",
    )
    .bind(id)
    .bind(MAX_ATTEMPTS)
    .execute(conn)
    .await?;
    Ok(())
}
