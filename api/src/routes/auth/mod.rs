//! Signing in, registering and resetting passwords: the public `/auth-api/auth/…` operations. None needs a
//! token; each assumes a hostile caller (rate limits per account and per address, answers that do not tell
//! whether an e-mail has an account where the spec allows, constant-time secret checks).

mod dto;
mod registration;
mod reset;
mod sign_in;
mod tokens;

pub use dto::*;
pub use registration::RegistrationApi;
pub use reset::PasswordResetApi;
pub use sign_in::SignInApi;
pub use tokens::TokensApi;

use crate::error::ApiError;
use crate::identity::sign_in::{may_use_client, TokenPair};
use crate::identity::{Account, Realm};
use crate::state::AppState;
use tenancy::Client;

fn incorrect_credentials() -> ApiError {
    ApiError::Unauthorized("Incorrect email or password".to_owned())
}

fn invalid_passcode() -> ApiError {
    ApiError::Unauthorized("Invalid passcode".to_owned())
}

fn invalid_link() -> ApiError {
    ApiError::BadRequest("This link is invalid or has expired".to_owned())
}

fn signed_in(pair: TokenPair, email: &str) -> LoginResponse {
    LoginResponse {
        access_token: Some(pair.access_token),
        refresh_token: Some(pair.refresh_token),
        two_factor_required: false,
        email: email.to_owned(),
        two_factor_method: None,
    }
}

/// The refusal for an account whose password was right but that may not sign in yet.
fn not_enabled(account: &Account) -> ApiError {
    if !account.email_verified {
        ApiError::Forbidden("Verify your email first: follow the link we sent you".to_owned())
    } else {
        ApiError::Forbidden(
            "This account is not enabled yet. An administrator has to enable it".to_owned(),
        )
    }
}

/// Checks that a universal user may act for the requested client; the refusal reads like a wrong password so
/// it tells nothing about the account.
async fn check_universal_access(
    state: &AppState,
    realm: &Realm,
    account: &Account,
    client: Option<&Client>,
) -> Result<(), ApiError> {
    if let (Realm::Universal, Some(client)) = (realm, client) {
        if !may_use_client(state, account.id, client.id).await? {
            return Err(incorrect_credentials());
        }
    }
    Ok(())
}
