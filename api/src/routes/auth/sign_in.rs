//! Signing in: the password step, the code step and Google.

use super::dto::*;
use super::*;
use crate::auth::verify_password;
use crate::error::ApiError;
use crate::identity::challenges::{self, Purpose};
use crate::identity::limits::{Action, Attempt};
use crate::identity::sign_in::{address, locate, may_use_client, open_session, requested_client};
use crate::identity::{self, totp, Account, Realm};
use crate::routes::ApiTags;
use crate::state::{AppState, SharedState};
use domain::TwoFactorMethod;
use poem::web::Data;
use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;
use tenancy::Client;

pub struct SignInApi;

impl SignInApi {
    /// Step 1 passed: sends (or asks the app for) a code, or signs in when the account has no second factor.
    async fn second_step(
        &self,
        state: &AppState,
        realm: &Realm,
        account: Account,
        client: Option<&Client>,
        address: &str,
    ) -> Result<LoginResponse, ApiError> {
        let method = match account.two_factor_method {
            TwoFactorMethod::Phone
                if state.sms.is_some()
                    && identity::is_valid_phone(&account.phone)
                    && !account.phone.is_empty() =>
            {
                TwoFactorMethod::Phone
            }
            TwoFactorMethod::App if account.totp_secret.is_some() => TwoFactorMethod::App,
            TwoFactorMethod::None => TwoFactorMethod::None,
            // A method that cannot work (no phone, no SMS gateway, no enrolled app) falls back to e-mail.
            _ => TwoFactorMethod::Email,
        };
        if method == TwoFactorMethod::None {
            let pair =
                open_session(state, realm, &account, client, None, "password", address).await?;
            return Ok(signed_in(pair, &account.email));
        }
        let code = (method != TwoFactorMethod::App).then(identity::secrets::random_code);
        let mut tx = realm.begin(&state.tenancy).await?;
        challenges::open(
            &mut tx,
            &state.hasher,
            account.id,
            Purpose::Login,
            client.map(|c| c.id),
            code.as_deref(),
        )
        .await?;
        tx.commit().await?;
        let unavailable = || {
            ApiError::Unavailable("The login code could not be sent; try again shortly".to_owned())
        };
        match (method, code) {
            (TwoFactorMethod::Email, Some(code)) => state
                .notices
                .login_code(&account.email, &code)
                .await
                .map_err(|e| {
                    tracing::warn!(error = %telemetry::Chain(&e), "login code e-mail failed");
                    unavailable()
                })?,
            (TwoFactorMethod::Phone, Some(code)) => state
                .sms
                .as_ref()
                .ok_or_else(unavailable)?
                .send(
                    &account.phone,
                    &format!("Your Compass login code is {code}. It expires in 10 minutes."),
                )
                .await
                .map_err(|e| {
                    tracing::warn!(error = %telemetry::Chain(&e), "login code sms failed");
                    unavailable()
                })?,
            _ => {}
        }
        Ok(LoginResponse {
            access_token: None,
            refresh_token: None,
            two_factor_required: true,
            email: account.email,
            two_factor_method: Some(method.as_str().to_owned()),
        })
    }
}

#[OpenApi(tag = "ApiTags::Auth")]
impl SignInApi {
    /// Public configuration the sign-in pages need; `client` names the client a sign-in link is for.
    #[oai(
        path = "/auth-api/auth/config",
        method = "get",
        operation_id = "getAuthConfig"
    )]
    async fn config(
        &self,
        state: Data<&SharedState>,
        client: Query<Option<String>>,
    ) -> Result<Json<AuthConfig>, ApiError> {
        let client_name = match requested_client(&state, client.0.as_deref()).await {
            Ok(c) => c.map(|c| c.name),
            Err(ApiError::BadRequest(_)) => None,
            Err(e) => return Err(e),
        };
        Ok(Json(AuthConfig {
            provider_name: state.provider_name.clone(),
            google_client_id: state.google.as_ref().map(|g| g.0.clone()),
            client_auth_short: state.client_auth.clone(),
            client_name,
        }))
    }

    /// Step 1 of sign-in: e-mail and password. Answers the same way for an unknown e-mail and a wrong password.
    /// When the account has a second factor the answer has no token and `twoFactorRequired`.
    #[oai(path = "/auth-api/auth/login", method = "post", operation_id = "login")]
    async fn login(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        body: Json<LoginRequest>,
    ) -> Result<Json<LoginResponse>, ApiError> {
        let email = domain::Email::normalise(&body.0.username);
        if email.is_empty() || body.0.password.is_empty() {
            return Err(ApiError::BadRequest(
                "Email and password are required".to_owned(),
            ));
        }
        let address = address(req);
        let client = requested_client(&state, body.0.client.as_deref()).await?;
        let (realm, account) = locate(&state, client.as_ref(), &email).await?;
        let attempt = Attempt {
            action: Action::Login,
            email: Some(&email),
            user: account.as_ref().map(|a| a.id),
            address: &address,
        };
        let standing = state.limits.check(attempt).await?;
        let password = body.0.password;
        let stored = account.as_ref().map(|u| u.password_hash.clone());
        // argon2 is deliberately slow: keep it off the async executor.
        let ok = tokio::task::spawn_blocking(move || verify_password(&password, stored.as_deref()))
            .await
            .map_err(ApiError::internal)?;
        let Some(account) = account.filter(|_| ok) else {
            tracing::info!(user = attempt.user, %address, "login refused");
            state.limits.failed(attempt).await?;
            return Err(standing.wrong(incorrect_credentials()));
        };
        state.limits.succeeded(attempt).await?;
        if !account.may_sign_in() {
            return Err(not_enabled(&account));
        }
        check_universal_access(&state, &realm, &account, client.as_ref()).await?;
        Ok(Json(
            self.second_step(&state, &realm, account, client.as_ref(), &address)
                .await?,
        ))
    }

    /// Step 2 of sign-in: the 6-digit code from the e-mail, the text message or the authenticator app.
    #[oai(
        path = "/auth-api/auth/login-code",
        method = "post",
        operation_id = "submitLoginCode"
    )]
    async fn login_code(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        body: Json<LoginCodeRequest>,
    ) -> Result<Json<LoginResponse>, ApiError> {
        let email = domain::Email::normalise(&body.0.email);
        let code = body.0.code.trim().to_owned();
        let address = address(req);
        let client = requested_client(&state, body.0.client.as_deref()).await?;
        let (realm, account) = locate(&state, client.as_ref(), &email).await?;
        let attempt = Attempt {
            action: Action::Code,
            email: Some(&email),
            user: account.as_ref().map(|a| a.id),
            address: &address,
        };
        let standing = state.limits.check(attempt).await?;
        let refused = || async {
            tracing::info!(user = attempt.user, %address, "login code refused");
            state.limits.failed(attempt).await?;
            Err::<Json<LoginResponse>, ApiError>(standing.wrong(invalid_passcode()))
        };
        if code.len() != 6 || !code.chars().all(|c| c.is_ascii_digit()) {
            return refused().await;
        }
        let Some(account) = account.filter(Account::may_sign_in) else {
            return refused().await;
        };
        let mut tx = realm.begin(&state.tenancy).await?;
        let Some(challenge) = challenges::current(&mut tx, account.id, Purpose::Login).await?
        else {
            return refused().await;
        };
        let accepted = if challenge.secret_hash.is_some() {
            challenges::answer_matches(&state.hasher, Purpose::Login, &challenge, &code)
        } else {
            let now = chrono::Utc::now().timestamp().max(0) as u64;
            let owner = totp::owner(&realm, account.id);
            let step = account
                .totp_secret
                .as_deref()
                .and_then(|sealed| state.totp.open(sealed, &owner))
                .and_then(|secret| {
                    totp::accepted_step(&secret, &code, account.totp_last_step, now)
                });
            if let Some(step) = step {
                store::accounts::set_totp_last_step(&mut tx, realm.users(), account.id, step)
                    .await?;
            }
            step.is_some()
        };
        if !accepted {
            challenges::record_wrong_answer(&mut tx, challenge.id).await?;
            tx.commit().await?;
            return refused().await;
        }
        challenges::consume(&mut tx, challenge.id).await?;
        tx.commit().await?;
        // The client chosen at step 1 stands; a different one named now is ignored.
        let acting = match challenge.client_id {
            Some(id) => state.tenancy.enabled_client(id).await?,
            None => None,
        };
        check_universal_access(&state, &realm, &account, acting.as_ref()).await?;
        let how = format!("code ({})", account.two_factor_method);
        let pair = open_session(
            &state,
            &realm,
            &account,
            acting.as_ref(),
            None,
            &how,
            &address,
        )
        .await?;
        Ok(Json(signed_in(pair, &account.email)))
    }

    /// Sign-in with Google: `credential` is the ID token from Google's button. The account is found by the
    /// token's verified e-mail; Google has done the second factor.
    #[oai(
        path = "/auth-api/auth/google",
        method = "post",
        operation_id = "googleLogin"
    )]
    async fn google(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        body: Json<GoogleLoginRequest>,
    ) -> Result<Json<LoginResponse>, ApiError> {
        let Some((_, verifier)) = state.google.as_ref() else {
            return Err(ApiError::NotFound(
                "Google sign-in is not configured".to_owned(),
            ));
        };
        let address = address(req);
        let attempt = Attempt {
            action: Action::Login,
            email: None,
            user: None,
            address: &address,
        };
        // No e-mail is known before Google's token is read, so no account delay applies here.
        let _ = state.limits.check(attempt).await?;
        let email = match verifier.verify(&body.0.credential).await {
            Ok(email) => email,
            Err(crate::identity::google::GoogleError::Keys(e)) => {
                tracing::warn!(error = %telemetry::Chain(&e), "google keys unavailable");
                return Err(ApiError::Unavailable(
                    "Google sign-in is unavailable; try again shortly".to_owned(),
                ));
            }
            Err(e) => {
                tracing::info!(error = %telemetry::Chain(&e), %address, "google sign-in refused");
                state.limits.failed(attempt).await?;
                return Err(ApiError::Unauthorized(
                    "Unable to login with Google".to_owned(),
                ));
            }
        };
        let client = requested_client(&state, body.0.client.as_deref()).await?;
        let (realm, account) = locate(&state, client.as_ref(), &email).await?;
        let Some(account) = account else {
            return Err(ApiError::Unauthorized(
                "No Compass account uses this Google address".to_owned(),
            ));
        };
        if !account.may_sign_in() {
            return Err(not_enabled(&account));
        }
        if let (Realm::Universal, Some(c)) = (&realm, client.as_ref()) {
            if !may_use_client(&state, account.id, c.id).await? {
                return Err(ApiError::Forbidden(
                    "You do not have access to this client".to_owned(),
                ));
            }
        }
        let pair = open_session(
            &state,
            &realm,
            &account,
            client.as_ref(),
            None,
            "google",
            &address,
        )
        .await?;
        Ok(Json(signed_in(pair, &account.email)))
    }
}
