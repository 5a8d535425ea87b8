//! Resetting a forgotten password with an e-mailed link.

use super::dto::*;
use super::*;
use crate::error::ApiError;
use crate::identity::challenges::{self, Purpose};
use crate::identity::limits::Action;
use crate::identity::sign_in::{address, locate, requested_client};
use crate::identity::{self, audit, sessions, PASSWORD_RULE};
use crate::routes::ApiTags;
use crate::state::{AppState, SharedState};
use poem::web::Data;
use poem::Request;
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;
use tenancy::Client;

pub struct PasswordResetApi;

/// The work of a reset request, after it has been answered: a single-use link for the account, if the address
/// has one that may reset (enabled, or not yet verified), mailed to it.
async fn send_reset_link(
    state: &AppState,
    client: Option<&Client>,
    email: &str,
) -> Result<(), ApiError> {
    let (realm, account) = locate(state, client, email).await?;
    let Some(account) = account.filter(|a| a.enabled || !a.email_verified) else {
        return Ok(());
    };
    let token = identity::secrets::random_token();
    let mut tx = realm.begin(&state.tenancy).await?;
    challenges::open(
        &mut tx,
        &state.hasher,
        account.id,
        Purpose::ResetPassword,
        None,
        Some(&token),
    )
    .await?;
    tx.commit().await?;
    state
        .notices
        .reset_password(&realm, &account.email, &token)
        .await
        .map_err(|e| ApiError::Unavailable(e.to_string()))
}

#[OpenApi(tag = "ApiTags::Auth")]
impl PasswordResetApi {
    /// Sends a reset link when the e-mail has an account. The answer is the same either way.
    // It comes before any work on the account (looking it up, opening the challenge, sending the mail), which a
    // background task does: how long the answer takes cannot tell whether the address has an account.
    #[oai(
        path = "/auth-api/auth/reset-email",
        method = "post",
        operation_id = "sendResetEmail"
    )]
    async fn reset_email(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        body: Json<ResetEmailRequest>,
    ) -> Result<Json<StatusResponse>, ApiError> {
        let email = domain::Email::normalise(&body.0.email);
        state
            .limits
            .hit(Action::Reset, Some(&email), &address(req))
            .await?;
        let client = requested_client(&state, body.0.client.as_deref()).await?;
        let state = state.0.clone();
        tokio::spawn(async move {
            // Started a moment later, so it never competes with the answer for the processor.
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            if let Err(e) = send_reset_link(&state, client.as_ref(), &email).await {
                tracing::warn!(error = %telemetry::Chain(&e), "reset e-mail failed");
            }
        });
        Ok(Json(StatusResponse {
            status: "sent".to_owned(),
        }))
    }

    /// Whether a reset link is still good.
    #[oai(
        path = "/auth-api/auth/reset-check",
        method = "post",
        operation_id = "checkResetToken"
    )]
    async fn reset_check(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        body: Json<EmailToken>,
    ) -> Result<Json<ResetCheckResponse>, ApiError> {
        let email = domain::Email::normalise(&body.0.email);
        state
            .limits
            .hit(Action::Reset, Some(&email), &address(req))
            .await?;
        let client = requested_client(&state, body.0.client.as_deref()).await?;
        let (realm, account) = locate(&state, client.as_ref(), &email).await?;
        let Some(account) = account else {
            return Ok(Json(ResetCheckResponse { valid: false }));
        };
        let mut tx = realm.begin(&state.tenancy).await?;
        let valid = challenges::check_secret(
            &mut tx,
            &state.hasher,
            account.id,
            Purpose::ResetPassword,
            &body.0.token,
        )
        .await?
        .is_some();
        tx.commit().await?;
        Ok(Json(ResetCheckResponse { valid }))
    }

    /// Sets a new password with a reset link's token. Every session of the account ends.
    #[oai(
        path = "/auth-api/auth/reset-password",
        method = "post",
        operation_id = "resetPassword"
    )]
    async fn reset_password(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        body: Json<ResetPasswordRequest>,
    ) -> Result<Json<StatusResponse>, ApiError> {
        let body = body.0;
        let email = domain::Email::normalise(&body.email);
        let address = address(req);
        state
            .limits
            .hit(Action::Reset, Some(&email), &address)
            .await?;
        if !identity::is_strong_password(&body.password) {
            return Err(ApiError::BadRequest(PASSWORD_RULE.to_owned()));
        }
        let client = requested_client(&state, body.client.as_deref()).await?;
        let (realm, account) = locate(&state, client.as_ref(), &email).await?;
        let account = account.ok_or_else(invalid_link)?;
        let password = body.password;
        let hash = tokio::task::spawn_blocking(move || crate::auth::hash_password(&password))
            .await
            .map_err(ApiError::internal)?
            .map_err(ApiError::internal)?;
        let mut tx = realm.begin(&state.tenancy).await?;
        let Some(challenge) = challenges::check_secret(
            &mut tx,
            &state.hasher,
            account.id,
            Purpose::ResetPassword,
            &body.token,
        )
        .await?
        else {
            tx.commit().await?;
            return Err(invalid_link());
        };
        challenges::consume(&mut tx, challenge).await?;
        store::accounts::set_password(&mut tx, realm.users(), account.id, &hash).await?;
        sessions::revoke_all(&mut tx, account.id, None).await?;
        let actor = audit::Actor {
            kind: realm.kind().as_str(),
            id: Some(account.id),
            email: account.email.clone(),
            address,
        };
        audit::record(&mut tx, &actor, "password reset", serde_json::json!({})).await?;
        tx.commit().await?;
        Ok(Json(StatusResponse {
            status: "updated".to_owned(),
        }))
    }
}
