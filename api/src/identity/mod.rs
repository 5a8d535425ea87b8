//! Who a user is and how they prove it: the two homes of accounts, one-time challenges, sessions with rotating
//! refresh tokens, authenticator apps, SMS and e-mail delivery of codes, Google ID tokens, rate limits and the
//! audit trail.
//!
//! Universal users live in `public`, client users in their client's schema. Both schemas hold tables of the same
//! names (`auth_sessions`, `auth_challenges`, `audit_events`), so one piece of SQL serves both once the
//! transaction's `search_path` points at the right schema; only the users table differs.

pub mod address;
pub mod audit;
pub mod challenges;
pub mod google;
pub mod limits;
pub mod notices;
pub mod secrets;
pub mod sessions;
pub mod sign_in;
pub mod sms;
pub mod totp;

use sqlx::PgConnection;
use std::ops::{Deref, DerefMut};
use tenancy::{Client, PublicTx, Tenancy, TenancyError, TenantTx};

/// One account, of either kind.
pub use store::accounts::Account;

/// Where an account lives.
#[derive(Debug, Clone)]
pub enum Realm {
    Universal,
    Client(Client),
}

/// A transaction in a realm's schema.
pub enum HomeTx {
    Public(PublicTx),
    Tenant(TenantTx),
}

impl Deref for HomeTx {
    type Target = PgConnection;
    fn deref(&self) -> &PgConnection {
        match self {
            Self::Public(tx) => tx,
            Self::Tenant(tx) => tx,
        }
    }
}

impl DerefMut for HomeTx {
    fn deref_mut(&mut self) -> &mut PgConnection {
        match self {
            Self::Public(tx) => tx,
            Self::Tenant(tx) => tx,
        }
    }
}

impl HomeTx {
    pub async fn commit(self) -> Result<(), TenancyError> {
        match self {
            Self::Public(tx) => tx.commit().await,
            Self::Tenant(tx) => tx.commit().await,
        }
    }
}

impl Realm {
    pub async fn begin(&self, tenancy: &Tenancy) -> Result<HomeTx, TenancyError> {
        Ok(match self {
            Self::Universal => HomeTx::Public(tenancy.public().await?),
            Self::Client(client) => HomeTx::Tenant(tenancy.begin(client).await?),
        })
    }

    /// The token's `user.kind`.
    pub fn kind(&self) -> domain::UserKind {
        match self {
            Self::Universal => domain::UserKind::Universal,
            Self::Client(_) => domain::UserKind::Client,
        }
    }

    pub fn client(&self) -> Option<&Client> {
        match self {
            Self::Universal => None,
            Self::Client(c) => Some(c),
        }
    }

    /// The realm's users table, as `store::accounts` names it.
    pub fn users(&self) -> store::accounts::Users {
        match self {
            Self::Universal => store::accounts::Users::Universal,
            Self::Client(_) => store::accounts::Users::Client,
        }
    }
}

/// The account with this (normalised) e-mail.
pub async fn find_by_email(
    conn: &mut PgConnection,
    realm: &Realm,
    email: &str,
) -> Result<Option<Account>, sqlx::Error> {
    store::accounts::find_by_email(conn, realm.users(), email).await
}

pub async fn find_by_id(
    conn: &mut PgConnection,
    realm: &Realm,
    id: i64,
) -> Result<Option<Account>, sqlx::Error> {
    store::accounts::find_by_id(conn, realm.users(), id).await
}

/// The spec's password rule: 8 or more characters with a digit, a lower-case and an upper-case letter.
pub const PASSWORD_RULE: &str = "Should contain 8 or more characters and at least one of each of the following: number, upper case, lower case.";

pub fn is_strong_password(password: &str) -> bool {
    password.chars().count() >= 8
        && password.len() <= 1024
        && password.chars().any(|c| c.is_ascii_digit())
        && password.chars().any(char::is_lowercase)
        && password.chars().any(char::is_uppercase)
}

/// Ten digits, or empty.
pub fn is_valid_phone(phone: &str) -> bool {
    phone.is_empty() || (phone.len() == 10 && phone.chars().all(|c| c.is_ascii_digit()))
}

/// A signed-in user's first name, for merge tags in test sends.
pub async fn first_name(
    state: &crate::state::AppState,
    realm: &Realm,
    user_id: i64,
) -> Result<String, crate::error::ApiError> {
    let mut tx = realm.begin(&state.tenancy).await?;
    let account = find_by_id(&mut tx, realm, user_id).await?;
    tx.commit().await?;
    Ok(account.map(|a| a.first_name).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_rule_needs_length_digit_and_both_cases() {
        assert!(is_strong_password("Abcdefg1"));
        assert!(!is_strong_password("Abcdef1"));
        assert!(!is_strong_password("abcdefg1"));
        assert!(!is_strong_password("ABCDEFG1"));
        assert!(!is_strong_password("Abcdefgh"));
    }

    #[test]
    fn phones_are_checked() {
        assert!(is_valid_phone("2025550123"));
        assert!(is_valid_phone(""));
        assert!(!is_valid_phone("202-555-0123"));
        assert!(!is_valid_phone("202555012"));
    }
}
