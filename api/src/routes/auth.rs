//! Signing in, registering and resetting passwords: the public `/auth-api/auth/…` operations. None needs a
//! token; each assumes a hostile caller (rate limits per account and per address, answers that do not tell
//! whether an e-mail has an account where the spec allows, constant-time secret checks).

use super::ApiTags;
use crate::auth::{verify_password, UserClaim};
use crate::error::ApiError;
use crate::identity::challenges::{self, Purpose};
use crate::identity::limits::{Action, Attempt};
use crate::identity::{self, audit, sessions, totp, Account, Realm, PASSWORD_RULE};
use crate::state::{AppState, SharedState};
use poem::web::Data;
use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use tenancy::Client;

pub struct AuthApi;

/// What the sign-in pages need to know before anyone signs in.
#[derive(Debug, Object)]
pub struct AuthConfig {
    /// The agency's name, shown in the footer.
    #[oai(rename = "providerName")]
    pub provider_name: String,
    /// Set when Google sign-in is configured.
    #[oai(nullable, rename = "googleClientId")]
    pub google_client_id: Option<String>,
    /// Set in client-auth mode: the one client this deployment serves.
    #[oai(nullable, rename = "clientAuthShort")]
    pub client_auth_short: Option<String>,
    /// The name of the client the sign-in pages are for (client-auth mode, or `?client=`), when known.
    #[oai(nullable, rename = "clientName")]
    pub client_name: Option<String>,
}

#[derive(Debug, Object)]
pub struct LoginRequest {
    /// The e-mail address.
    #[oai(validator(max_length = 320))]
    pub username: String,
    #[oai(validator(max_length = 1024))]
    pub password: String,
    /// A client's short name: signs in to that client directly (client users, client-auth mode).
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct LoginResponse {
    #[oai(nullable, rename = "accessToken")]
    pub access_token: Option<String>,
    #[oai(nullable, rename = "refreshToken")]
    pub refresh_token: Option<String>,
    #[oai(rename = "twoFactorRequired")]
    pub two_factor_required: bool,
    pub email: String,
    /// Where the code was sent when two-factor is required: email, phone or app.
    #[oai(nullable, rename = "twoFactorMethod")]
    pub two_factor_method: Option<String>,
}

#[derive(Debug, Object)]
pub struct LoginCodeRequest {
    #[oai(validator(max_length = 320))]
    pub email: String,
    #[oai(validator(max_length = 16))]
    pub code: String,
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct GoogleLoginRequest {
    /// The ID token Google's sign-in button hands the page.
    #[oai(validator(max_length = 8192))]
    pub credential: String,
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct RegisterRequest {
    #[oai(validator(max_length = 320))]
    pub email: String,
    #[oai(validator(max_length = 1024))]
    pub password: String,
    #[oai(validator(max_length = 100))]
    pub firstname: String,
    #[oai(validator(max_length = 100))]
    pub lastname: String,
    #[oai(validator(max_length = 20))]
    pub phone: String,
    /// email or phone.
    #[oai(rename = "twoFactorMethod", validator(max_length = 10))]
    pub two_factor_method: String,
    /// The client to register with (set automatically in client-auth mode).
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct RegisterResponse {
    /// pending: check your e-mail; duplicate: the e-mail already has an account.
    pub status: String,
    /// Set when the existing account is already enabled: the user should reset the password instead.
    pub duplicate: bool,
}

/// An e-mailed link's contents.
#[derive(Debug, Object)]
pub struct EmailToken {
    #[oai(validator(max_length = 320))]
    pub email: String,
    #[oai(validator(max_length = 100))]
    pub token: String,
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct ResetEmailRequest {
    #[oai(validator(max_length = 320))]
    pub email: String,
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct ResetCheckResponse {
    pub valid: bool,
}

#[derive(Debug, Object)]
pub struct ResetPasswordRequest {
    #[oai(validator(max_length = 1024))]
    pub password: String,
    #[oai(validator(max_length = 100))]
    pub token: String,
    #[oai(validator(max_length = 320))]
    pub email: String,
    #[oai(nullable, validator(max_length = 64))]
    pub client: Option<String>,
}

#[derive(Debug, Object)]
pub struct StatusResponse {
    pub status: String,
}

#[derive(Debug, Object)]
pub struct RefreshRequest {
    #[oai(rename = "refreshToken", validator(max_length = 200))]
    pub refresh_token: String,
}

#[derive(Debug, Object)]
pub struct LogoutRequest {
    #[oai(nullable, rename = "refreshToken", validator(max_length = 200))]
    pub refresh_token: Option<String>,
}

/// A new access token and the refresh token that replaces the one used.
#[derive(Debug, Object)]
pub struct TokenPair {
    #[oai(rename = "accessToken")]
    pub access_token: String,
    #[oai(rename = "refreshToken")]
    pub refresh_token: String,
}

/// The client's address: the peer's, or the one a trusted proxy forwards (`TRUSTED_PROXIES`).
pub(crate) fn address(req: &Request) -> String {
    let peer = req.remote_addr().as_socket_addr().map(|a| a.ip());
    let forwarded = req
        .headers()
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok());
    match req.data::<SharedState>() {
        Some(state) => state.trusted_proxies.client_address(peer, forwarded),
        None => peer.map(|ip| ip.to_string()).unwrap_or_default(),
    }
}

fn incorrect_credentials() -> ApiError {
    ApiError::Unauthorized("Incorrect email or password".to_owned())
}

fn invalid_passcode() -> ApiError {
    ApiError::Unauthorized("Invalid passcode".to_owned())
}

fn invalid_link() -> ApiError {
    ApiError::BadRequest("This link is invalid or has expired".to_owned())
}

/// The client a public auth request is for: the client-auth client when the server has one (a request naming
/// another is refused), else the one named, else none (universal users).
pub(crate) async fn requested_client(
    state: &AppState,
    named: Option<&str>,
) -> Result<Option<Client>, ApiError> {
    let named = named.map(str::trim).filter(|s| !s.is_empty());
    let short = match (&state.client_auth, named) {
        (Some(forced), Some(named)) if forced != named => {
            return Err(ApiError::BadRequest("Unknown client".to_owned()))
        }
        (Some(forced), _) => Some(forced.as_str()),
        (None, named) => named,
    };
    match short {
        None => Ok(None),
        Some(short) => state
            .tenancy
            .enabled_client_by_short(short)
            .await?
            .map(Some)
            .ok_or_else(|| ApiError::BadRequest("Unknown client".to_owned())),
    }
}

/// Whose account an e-mail names for a request about `client`: the universal user when there is one (agency
/// staff stay themselves in every client, even if a client user with their address was registered before that
/// was refused), otherwise that client's own user. Returns the realm and the account, if any.
pub(crate) async fn locate(
    state: &AppState,
    client: Option<&Client>,
    email: &str,
) -> Result<(Realm, Option<Account>), ApiError> {
    let mut tx = state.tenancy.public().await?;
    let universal = identity::find_by_email(&mut tx, &Realm::Universal, email).await?;
    tx.commit().await?;
    if universal.is_some() {
        return Ok((Realm::Universal, universal));
    }
    let Some(client) = client else {
        return Ok((Realm::Universal, None));
    };
    let realm = Realm::Client(client.clone());
    let mut tx = realm.begin(&state.tenancy).await?;
    let found = identity::find_by_email(&mut tx, &realm, email).await?;
    tx.commit().await?;
    Ok((realm, found))
}

/// Whether a universal user may act for a client: administrators everywhere, others where granted.
pub async fn may_use_client(
    state: &AppState,
    user_id: i64,
    client_id: i64,
) -> Result<bool, ApiError> {
    let mut tx = state.tenancy.public().await?;
    let allowed: bool = sqlx::query_scalar(
        "select exists (
             select 1 from universal_users u
             where u.id = $1 and u.enabled
               and (u.all_clients or exists (
                   select 1 from universal_user_clients g where g.user_id = u.id and g.client_id = $2))
         )",
    )
    .bind(user_id)
    .bind(client_id)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(allowed)
}

/// Opens a session and issues its tokens. `acting` is the client the session acts for: a client user's own
/// client, or the client a universal user signed in to directly. Records the sign-in in that client's audit
/// trail (or the public one).
pub(crate) async fn open_session(
    state: &AppState,
    realm: &Realm,
    account: &Account,
    acting: Option<&Client>,
    how: &str,
    address: &str,
) -> Result<TokenPair, ApiError> {
    let session_client = match realm {
        Realm::Universal => acting.map(|c| c.id),
        Realm::Client(c) => Some(c.id),
    };
    let mut tx = realm.begin(&state.tenancy).await?;
    let (sid, secret) = sessions::open(&mut tx, &state.hasher, account.id, session_client).await?;
    let actor = audit::Actor {
        kind: realm.kind(),
        id: Some(account.id),
        email: account.email.clone(),
        address: address.to_owned(),
    };
    if realm.client().is_some() || acting.is_none() {
        audit::record(
            &mut tx,
            &actor,
            "sign in",
            serde_json::json!({ "method": how }),
        )
        .await?;
    }
    tx.commit().await?;
    if let (Realm::Universal, Some(client)) = (realm, acting) {
        let mut tx = state.tenancy.begin(client).await?;
        audit::record(
            &mut tx,
            &actor,
            "sign in",
            serde_json::json!({ "method": how }),
        )
        .await?;
        tx.commit().await?;
    }
    let client = match realm {
        Realm::Client(c) => Some(c),
        Realm::Universal => acting,
    };
    let access = state
        .tokens
        .issue(
            UserClaim {
                id: account.id,
                email: account.email.clone(),
                kind: realm.kind().to_owned(),
            },
            client.map(|c| (c.id, c.short_name.clone())),
            sid,
        )
        .map_err(ApiError::internal)?;
    tracing::info!(user = account.id, kind = realm.kind(), how, "signed in");
    Ok(TokenPair {
        access_token: access,
        refresh_token: sessions::encode(realm, &secret),
    })
}

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

impl AuthApi {
    /// Step 1 passed: sends (or asks the app for) a code, or signs in when the account has no second factor.
    async fn second_step(
        &self,
        state: &AppState,
        realm: &Realm,
        account: Account,
        client: Option<&Client>,
        address: &str,
    ) -> Result<LoginResponse, ApiError> {
        let method = match account.two_factor_method.as_str() {
            "phone"
                if state.sms.is_some()
                    && identity::is_valid_phone(&account.phone)
                    && !account.phone.is_empty() =>
            {
                "phone"
            }
            "app" if account.totp_secret.is_some() => "app",
            "none" => "none",
            // A method that cannot work (no phone, no SMS gateway, no enrolled app) falls back to e-mail.
            _ => "email",
        };
        if method == "none" {
            let pair = open_session(state, realm, &account, client, "password", address).await?;
            return Ok(signed_in(pair, &account.email));
        }
        let code = (method != "app").then(identity::secrets::random_code);
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
            ("email", Some(code)) => state
                .notices
                .login_code(&account.email, &code)
                .await
                .map_err(|e| {
                    tracing::warn!(error = %e, "login code e-mail failed");
                    unavailable()
                })?,
            ("phone", Some(code)) => state
                .sms
                .as_ref()
                .ok_or_else(unavailable)?
                .send(
                    &account.phone,
                    &format!("Your Compass login code is {code}. It expires in 10 minutes."),
                )
                .await
                .map_err(|e| {
                    tracing::warn!(error = %e, "login code sms failed");
                    unavailable()
                })?,
            _ => {}
        }
        Ok(LoginResponse {
            access_token: None,
            refresh_token: None,
            two_factor_required: true,
            email: account.email,
            two_factor_method: Some(method.to_owned()),
        })
    }
}

#[OpenApi(tag = "ApiTags::Auth")]
impl AuthApi {
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
        state.limits.check(attempt).await?;
        let password = body.0.password;
        let stored = account.as_ref().map(|u| u.password_hash.clone());
        // argon2 is deliberately slow: keep it off the async executor.
        let ok = tokio::task::spawn_blocking(move || verify_password(&password, stored.as_deref()))
            .await
            .map_err(ApiError::internal)?;
        let Some(account) = account.filter(|_| ok) else {
            tracing::info!(user = attempt.user, %address, "login refused");
            state.limits.failed(attempt).await?;
            return Err(incorrect_credentials());
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
        state.limits.check(attempt).await?;
        let refused = || async {
            tracing::info!(user = attempt.user, %address, "login code refused");
            state.limits.failed(attempt).await?;
            Err::<Json<LoginResponse>, ApiError>(invalid_passcode())
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
                sqlx::query(identity::users_sql(
                    &realm,
                    "update {users} set totp_last_step = $2 where id = $1",
                ))
                .bind(account.id)
                .bind(step)
                .execute(&mut *tx)
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
        let pair = open_session(&state, &realm, &account, acting.as_ref(), &how, &address).await?;
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
        state.limits.check(attempt).await?;
        let email = match verifier.verify(&body.0.credential).await {
            Ok(email) => email,
            Err(crate::identity::google::GoogleError::Keys(e)) => {
                tracing::warn!(error = %e, "google keys unavailable");
                return Err(ApiError::Unavailable(
                    "Google sign-in is unavailable; try again shortly".to_owned(),
                ));
            }
            Err(e) => {
                tracing::info!(error = %e, %address, "google sign-in refused");
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
            "google",
            &address,
        )
        .await?;
        Ok(Json(signed_in(pair, &account.email)))
    }

    /// Registers a client user. The account needs its e-mail verified (a link is mailed) and then an
    /// administrator to enable it.
    #[oai(
        path = "/auth-api/auth/register",
        method = "post",
        operation_id = "register"
    )]
    async fn register(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        body: Json<RegisterRequest>,
    ) -> Result<Json<RegisterResponse>, ApiError> {
        let body = body.0;
        let address = address(req);
        state.limits.hit(Action::Register, None, &address).await?;
        let email = domain::Email::parse(&body.email)
            .map_err(|_| ApiError::BadRequest("Not a valid email".to_owned()))?
            .into_string();
        if !identity::is_strong_password(&body.password) {
            return Err(ApiError::BadRequest(PASSWORD_RULE.to_owned()));
        }
        let phone = body.phone.trim().to_owned();
        if !identity::is_valid_phone(&phone) {
            return Err(ApiError::BadRequest(
                "Phone number should include only digits".to_owned(),
            ));
        }
        let method = match body.two_factor_method.as_str() {
            "email" | "" => "email",
            "phone" if !phone.is_empty() => "phone",
            "phone" => {
                return Err(ApiError::BadRequest(
                    "A phone number is needed for the phone method".to_owned(),
                ))
            }
            _ => return Err(ApiError::BadRequest("Choose phone or email".to_owned())),
        };
        let Some(client) = requested_client(&state, body.client.as_deref()).await? else {
            return Err(ApiError::BadRequest(
                "Registration needs a client: use the registration link of your organisation"
                    .to_owned(),
            ));
        };
        let realm = Realm::Client(client);
        let password = body.password;
        let hash = tokio::task::spawn_blocking(move || crate::auth::hash_password(&password))
            .await
            .map_err(ApiError::internal)?
            .map_err(ApiError::internal)?;
        // Agency staff sign in to clients as themselves: their address cannot become a client user, which would
        // shadow them. The answer is the one an existing account gets, and nothing is sent.
        let mut public = state.tenancy.public().await?;
        let staff = identity::find_by_email(&mut public, &Realm::Universal, &email).await?;
        public.commit().await?;
        if let Some(staff) = staff {
            return Ok(Json(RegisterResponse {
                status: "duplicate".to_owned(),
                duplicate: staff.enabled,
            }));
        }
        let mut tx = realm.begin(&state.tenancy).await?;
        let created: Option<i64> = sqlx::query_scalar(
            "insert into client_users (email, password_hash, first_name, last_name, phone, two_factor_method)
             values ($1, $2, $3, $4, $5, $6) on conflict (email) do nothing returning id",
        )
        .bind(&email)
        .bind(&hash)
        .bind(body.firstname.trim())
        .bind(body.lastname.trim())
        .bind(&phone)
        .bind(method)
        .fetch_optional(&mut *tx)
        .await?;
        let (user_id, response) = match created {
            Some(id) => (
                id,
                RegisterResponse {
                    status: "pending".to_owned(),
                    duplicate: false,
                },
            ),
            None => {
                let existing = identity::find_by_email(&mut tx, &realm, &email)
                    .await?
                    .ok_or_else(|| ApiError::internal("registered user vanished"))?;
                let response = RegisterResponse {
                    status: "duplicate".to_owned(),
                    duplicate: existing.enabled,
                };
                if existing.email_verified {
                    tx.commit().await?;
                    return Ok(Json(response));
                }
                // Not verified yet: send the link again.
                (existing.id, response)
            }
        };
        let token = identity::secrets::random_token();
        challenges::open(
            &mut tx,
            &state.hasher,
            user_id,
            Purpose::VerifyEmail,
            None,
            Some(&token),
        )
        .await?;
        let actor = audit::Actor {
            kind: "client",
            id: Some(user_id),
            email: email.clone(),
            address,
        };
        audit::record(&mut tx, &actor, "register", serde_json::json!({})).await?;
        tx.commit().await?;
        let notices = state.notices.clone();
        tokio::spawn(async move {
            if let Err(e) = notices.verify_email(&realm, &email, &token).await {
                tracing::warn!(error = %e, "verification e-mail failed");
            }
        });
        Ok(Json(response))
    }

    /// The link in the verification e-mail: marks the address verified.
    #[oai(
        path = "/auth-api/auth/finish-registration",
        method = "post",
        operation_id = "finishRegistration"
    )]
    async fn finish_registration(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        body: Json<EmailToken>,
    ) -> Result<Json<StatusResponse>, ApiError> {
        let email = domain::Email::normalise(&body.0.email);
        state
            .limits
            .hit(Action::Reset, Some(&email), &address(req))
            .await?;
        let Some(client) = requested_client(&state, body.0.client.as_deref()).await? else {
            return Err(invalid_link());
        };
        let realm = Realm::Client(client);
        let mut tx = realm.begin(&state.tenancy).await?;
        let account = identity::find_by_email(&mut tx, &realm, &email)
            .await?
            .ok_or_else(invalid_link)?;
        if account.email_verified {
            return Ok(Json(StatusResponse {
                status: "verified".to_owned(),
            }));
        }
        let Some(challenge) = challenges::check_secret(
            &mut tx,
            &state.hasher,
            account.id,
            Purpose::VerifyEmail,
            &body.0.token,
        )
        .await?
        else {
            tx.commit().await?;
            return Err(invalid_link());
        };
        challenges::consume(&mut tx, challenge).await?;
        sqlx::query("update client_users set email_verified = now() where id = $1")
            .bind(account.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Json(StatusResponse {
            status: "verified".to_owned(),
        }))
    }

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
                tracing::warn!(error = %e, "reset e-mail failed");
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
        sqlx::query(identity::users_sql(
            &realm,
            "update {users} set password_hash = $2 where id = $1",
        ))
        .bind(account.id)
        .bind(&hash)
        .execute(&mut *tx)
        .await?;
        sessions::revoke_all(&mut tx, account.id, None).await?;
        let actor = audit::Actor {
            kind: realm.kind(),
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

    /// Exchanges a refresh token for a new access token and a new refresh token; the old one stops working.
    #[oai(
        path = "/auth-api/auth/refresh",
        method = "post",
        operation_id = "refreshToken"
    )]
    async fn refresh(
        &self,
        state: Data<&SharedState>,
        body: Json<RefreshRequest>,
    ) -> Result<Json<TokenPair>, ApiError> {
        let expired = || ApiError::Unauthorized("Your session has ended; log in again".to_owned());
        let (client_id, secret) = sessions::decode(&body.0.refresh_token).ok_or_else(expired)?;
        let realm = match client_id {
            None => Realm::Universal,
            Some(id) => Realm::Client(
                state
                    .tenancy
                    .enabled_client(id)
                    .await?
                    .ok_or_else(expired)?,
            ),
        };
        let mut tx = realm.begin(&state.tenancy).await?;
        let (session, next) = sessions::rotate(&mut tx, &state.hasher, secret)
            .await?
            .ok_or_else(expired)?;
        let account = identity::find_by_id(&mut tx, &realm, session.user_id)
            .await?
            .filter(Account::may_sign_in)
            .ok_or_else(expired)?;
        tx.commit().await?;
        let acting = match (&realm, session.client_id) {
            (Realm::Universal, Some(id)) => {
                let client = state
                    .tenancy
                    .enabled_client(id)
                    .await?
                    .ok_or_else(expired)?;
                if !may_use_client(&state, account.id, client.id).await? {
                    return Err(expired());
                }
                Some(client)
            }
            (Realm::Client(c), _) => Some(c.clone()),
            (Realm::Universal, None) => None,
        };
        let access = state
            .tokens
            .issue(
                UserClaim {
                    id: account.id,
                    email: account.email,
                    kind: realm.kind().to_owned(),
                },
                acting.map(|c| (c.id, c.short_name)),
                session.id,
            )
            .map_err(ApiError::internal)?;
        Ok(Json(TokenPair {
            access_token: access,
            refresh_token: sessions::encode(&realm, &next),
        }))
    }

    /// Ends the session: its refresh token and every access token issued for it stop working.
    #[oai(
        path = "/auth-api/auth/logout",
        method = "post",
        operation_id = "logout"
    )]
    async fn logout(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        body: Json<LogoutRequest>,
    ) -> Result<super::Deleted, ApiError> {
        if let Some((client_id, secret)) =
            body.0.refresh_token.as_deref().and_then(sessions::decode)
        {
            let realm = match client_id {
                None => Some(Realm::Universal),
                Some(id) => state.tenancy.enabled_client(id).await?.map(Realm::Client),
            };
            if let Some(realm) = realm {
                let mut tx = realm.begin(&state.tenancy).await?;
                sessions::revoke_by_token(&mut tx, &state.hasher, secret).await?;
                tx.commit().await?;
            }
        }
        // The access token, when sent, names its session: end that too.
        let bearer = req
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        if let Some(claims) = bearer.and_then(|t| state.tokens.verify(t).ok()) {
            if let Ok(realm) = crate::auth::realm_of(&state, &claims).await {
                let mut tx = realm.begin(&state.tenancy).await?;
                sqlx::query("update auth_sessions set revoked = now() where id = $1 and user_id = $2 and revoked is null")
                    .bind(claims.sid)
                    .bind(claims.user.id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
            }
        }
        Ok(super::Deleted::Deleted)
    }
}
