//! One-time challenges: login codes, e-mail verification links and password-reset links. Each is single use,
//! expires, and is burned after too many wrong answers.

use super::secrets::SecretHasher;
use chrono::Duration;
use sqlx::PgConnection;

pub use store::challenges::{consume, OpenChallenge};

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
    let hash = secret.map(|s| hasher.hash(purpose.as_str(), s));
    let lifetime = purpose.lifetime().num_seconds() as f64;
    store::challenges::open(conn, user_id, purpose.as_str(), hash, client_id, lifetime).await
}

/// The user's newest unexpired, unused challenge of this purpose, locked until the transaction ends so two
/// answers cannot both use it.
pub async fn current(
    conn: &mut PgConnection,
    user_id: i64,
    purpose: Purpose,
) -> Result<Option<OpenChallenge>, sqlx::Error> {
    store::challenges::current(conn, user_id, purpose.as_str()).await
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

/// Counts a wrong answer; the challenge is burned at [`MAX_ATTEMPTS`].
pub async fn record_wrong_answer(conn: &mut PgConnection, id: i64) -> Result<(), sqlx::Error> {
    store::challenges::record_wrong_answer(conn, id, MAX_ATTEMPTS).await
}
