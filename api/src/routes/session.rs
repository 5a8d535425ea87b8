//! The signed-in user's own session: the clients they may choose, client login, their profile, password and
//! second factor (`/auth-api/session/…`, any signed-in user).

use super::auth::{address, may_use_client, open_session, TokenPair};
use super::ApiTags;
use crate::auth::{role_permissions, verify_password, BasicAuth, ALL_CLIENT_PERMISSIONS};
use crate::error::ApiError;
use crate::identity::limits::{Action, Attempt};
use crate::identity::{self, audit, sessions, totp, Account, Realm, PASSWORD_RULE};
use crate::state::{AppState, SharedState};
use poem::web::Data;
use poem::Request;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct SessionApi;

/// A client the signed-in user may choose.
#[derive(Debug, Object)]
pub struct ClientOption {
    pub id: i64,
    pub label: String,
    pub short: String,
}

#[derive(Debug, Object)]
pub struct ClientLoginRequest {
    #[oai(rename = "clientId")]
    pub client_id: i64,
}

/// The signed-in user, their profile and what they may see.
#[derive(Debug, Object)]
pub struct Me {
    pub id: i64,
    /// universal or client.
    pub kind: String,
    pub email: String,
    #[oai(rename = "firstName")]
    pub first_name: String,
    #[oai(rename = "lastName")]
    pub last_name: String,
    pub phone: String,
    /// none, email, phone or app.
    #[oai(rename = "twoFactorMethod")]
    pub two_factor_method: String,
    /// Whether an authenticator app is enrolled.
    #[oai(rename = "authenticatorEnrolled")]
    pub authenticator_enrolled: bool,
    /// Page and client permissions in the current client (empty before a client is chosen).
    pub permissions: Vec<String>,
    /// Universal permissions ("view user").
    #[oai(rename = "universalPermissions")]
    pub universal_permissions: Vec<String>,
    #[oai(nullable, rename = "clientId")]
    pub client_id: Option<i64>,
    #[oai(nullable, rename = "clientName")]
    pub client_name: Option<String>,
    /// Whether the user may switch to another client (universal users outside client-auth mode).
    #[oai(rename = "canSwitchClient")]
    pub can_switch_client: bool,
}

#[derive(Debug, Object)]
pub struct ProfileUpdate {
    #[oai(rename = "firstName", validator(max_length = 100))]
    pub first_name: String,
    #[oai(rename = "lastName", validator(max_length = 100))]
    pub last_name: String,
    #[oai(validator(max_length = 20))]
    pub phone: String,
    /// email, phone or app.
    #[oai(rename = "twoFactorMethod", validator(max_length = 10))]
    pub two_factor_method: String,
}

#[derive(Debug, Object)]
pub struct PasswordChange {
    #[oai(rename = "currentPassword", validator(max_length = 1024))]
    pub current_password: String,
    #[oai(rename = "newPassword", validator(max_length = 1024))]
    pub new_password: String,
}

/// What an authenticator app needs to enrol.
#[derive(Debug, Object)]
pub struct AuthenticatorEnrolment {
    /// Base32 secret, for typing in by hand.
    pub secret: String,
    #[oai(rename = "otpauthUri")]
    pub otpauth_uri: String,
    /// The QR code of `otpauthUri` as an SVG document.
    #[oai(rename = "qrSvg")]
    pub qr_svg: String,
}

#[derive(Debug, Object)]
pub struct AuthenticatorConfirm {
    #[oai(validator(max_length = 16))]
    pub code: String,
}

async fn account(state: &AppState, realm: &Realm, id: i64) -> Result<Account, ApiError> {
    let mut tx = realm.begin(&state.tenancy).await?;
    let account = identity::find_by_id(&mut tx, realm, id).await?;
    tx.commit().await?;
    account.ok_or_else(|| ApiError::Unauthorized("This account is no longer active".to_owned()))
}

fn actor(realm: &Realm, account: &Account, address: String) -> audit::Actor {
    audit::Actor {
        kind: realm.kind(),
        id: Some(account.id),
        email: account.email.clone(),
        address,
    }
}

async fn me(state: &AppState, session: &crate::auth::UserSession) -> Result<Me, ApiError> {
    let claims = &session.claims;
    let account = account(state, &session.realm, claims.user.id).await?;
    let client = match claims.client_id {
        Some(id) => state.tenancy.enabled_client(id).await?,
        None => None,
    };
    let permissions = match (&session.realm, &client) {
        (_, None) => Vec::new(),
        (Realm::Client(_), Some(c)) => role_permissions(state, c, "client", account.id).await?,
        (Realm::Universal, Some(c)) => {
            let mut tx = state.tenancy.public().await?;
            let admin: bool =
                sqlx::query_scalar("select all_clients from universal_users where id = $1")
                    .bind(account.id)
                    .fetch_one(&mut *tx)
                    .await?;
            tx.commit().await?;
            if admin {
                ALL_CLIENT_PERMISSIONS
                    .iter()
                    .map(|p| p.to_string())
                    .collect()
            } else {
                role_permissions(state, c, "universal", account.id).await?
            }
        }
    };
    Ok(Me {
        id: account.id,
        kind: session.realm.kind().to_owned(),
        email: account.email,
        first_name: account.first_name,
        last_name: account.last_name,
        phone: account.phone,
        two_factor_method: account.two_factor_method,
        authenticator_enrolled: account.totp_secret.is_some(),
        permissions,
        universal_permissions: session.universal_permissions.clone(),
        client_id: client.as_ref().map(|c| c.id),
        client_name: client.map(|c| c.name),
        can_switch_client: matches!(session.realm, Realm::Universal) && state.client_auth.is_none(),
    })
}

#[OpenApi(tag = "ApiTags::Auth")]
impl SessionApi {
    /// The clients the signed-in user may choose.
    #[oai(
        path = "/auth-api/session/clients",
        method = "get",
        operation_id = "listMyClients"
    )]
    async fn clients(
        &self,
        state: Data<&SharedState>,
        auth: BasicAuth,
    ) -> Result<Json<Vec<ClientOption>>, ApiError> {
        let session = auth.0;
        let options = match &session.realm {
            Realm::Client(c) => vec![ClientOption {
                id: c.id,
                label: c.name.clone(),
                short: c.short_name.clone(),
            }],
            Realm::Universal => {
                let mut tx = state.tenancy.public().await?;
                let rows: Vec<(i64, String, String)> = sqlx::query_as(
                    "select c.id, c.name, c.short_name from clients c
                     join universal_users u on u.id = $1 and u.enabled
                     where c.enabled and ($2::text is null or c.short_name = $2)
                       and (u.all_clients or exists (
                         select 1 from universal_user_clients g where g.user_id = u.id and g.client_id = c.id))
                     order by c.name, c.id",
                )
                .bind(session.claims.user.id)
                .bind(state.client_auth.as_deref())
                .fetch_all(&mut *tx)
                .await?;
                tx.commit().await?;
                rows.into_iter()
                    .map(|(id, label, short)| ClientOption { id, label, short })
                    .collect()
            }
        };
        Ok(Json(options))
    }

    /// Exchanges the signed-in user's session for one that acts for the chosen client. The old session ends.
    #[oai(
        path = "/auth-api/session/client-login",
        method = "post",
        operation_id = "clientLogin"
    )]
    async fn client_login(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: BasicAuth,
        body: Json<ClientLoginRequest>,
    ) -> Result<Json<TokenPair>, ApiError> {
        let session = auth.0;
        let forbidden = || ApiError::Forbidden("You do not have access to this client".to_owned());
        let client = state
            .tenancy
            .enabled_client(body.0.client_id)
            .await?
            .ok_or_else(forbidden)?;
        if state
            .client_auth
            .as_deref()
            .is_some_and(|s| s != client.short_name)
        {
            return Err(forbidden());
        }
        match &session.realm {
            Realm::Client(own) if own.id != client.id => return Err(forbidden()),
            Realm::Universal
                if !may_use_client(&state, session.claims.user.id, client.id).await? =>
            {
                return Err(forbidden())
            }
            _ => {}
        }
        let account = account(&state, &session.realm, session.claims.user.id).await?;
        let pair = open_session(
            &state,
            &session.realm,
            &account,
            Some(&client),
            "client login",
            &address(req),
        )
        .await?;
        let mut tx = session.realm.begin(&state.tenancy).await?;
        sessions::revoke(&mut tx, session.claims.sid).await?;
        tx.commit().await?;
        Ok(Json(pair))
    }

    /// The signed-in user with their permissions.
    #[oai(path = "/auth-api/session/me", method = "get", operation_id = "getMe")]
    async fn me(&self, state: Data<&SharedState>, auth: BasicAuth) -> Result<Json<Me>, ApiError> {
        Ok(Json(me(&state, &auth.0).await?))
    }

    /// Updates the signed-in user's name, phone and two-factor method.
    #[oai(
        path = "/auth-api/session/profile",
        method = "patch",
        operation_id = "updateProfile"
    )]
    async fn update_profile(
        &self,
        state: Data<&SharedState>,
        auth: BasicAuth,
        body: Json<ProfileUpdate>,
    ) -> Result<Json<Me>, ApiError> {
        let session = auth.0;
        let body = body.0;
        let phone = body.phone.trim().to_owned();
        if !identity::is_valid_phone(&phone) {
            return Err(ApiError::BadRequest(
                "Phone number should include only digits".to_owned(),
            ));
        }
        let current = account(&state, &session.realm, session.claims.user.id).await?;
        let method = match body.two_factor_method.as_str() {
            "email" => "email",
            "phone" if !phone.is_empty() => "phone",
            "phone" => {
                return Err(ApiError::BadRequest(
                    "A phone number is needed for the phone method".to_owned(),
                ))
            }
            "app" if current.totp_secret.is_some() => "app",
            "app" => {
                return Err(ApiError::BadRequest(
                    "Set up an authenticator app first".to_owned(),
                ))
            }
            "none" if current.two_factor_method == "none" => "none",
            _ => {
                return Err(ApiError::BadRequest(
                    "Choose email, phone or app".to_owned(),
                ))
            }
        };
        let mut tx = session.realm.begin(&state.tenancy).await?;
        sqlx::query(identity::users_sql(
            &session.realm,
            "update {users} set first_name = $2, last_name = $3, phone = $4, two_factor_method = $5 where id = $1",
        ))
        .bind(current.id)
        .bind(body.first_name.trim())
        .bind(body.last_name.trim())
        .bind(&phone)
        .bind(method)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(me(&state, &session).await?))
    }

    /// Changes the signed-in user's password. Their other sessions end.
    #[oai(
        path = "/auth-api/session/password",
        method = "post",
        operation_id = "changePassword"
    )]
    async fn change_password(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: BasicAuth,
        body: Json<PasswordChange>,
    ) -> Result<super::Deleted, ApiError> {
        let session = auth.0;
        let body = body.0;
        let address = address(req);
        // A wrong current password is a wrong password: it counts as a failed sign-in.
        let attempt = Attempt {
            action: Action::Login,
            email: Some(&session.claims.user.email),
            user: Some(session.claims.user.id),
            address: &address,
        };
        state.limits.check(attempt).await?;
        if !identity::is_strong_password(&body.new_password) {
            return Err(ApiError::BadRequest(PASSWORD_RULE.to_owned()));
        }
        let current = account(&state, &session.realm, session.claims.user.id).await?;
        let stored = current.password_hash.clone();
        let (old, new) = (body.current_password, body.new_password);
        let (ok, hash) = tokio::task::spawn_blocking(move || {
            (
                verify_password(&old, Some(&stored)),
                crate::auth::hash_password(&new),
            )
        })
        .await
        .map_err(ApiError::internal)?;
        if !ok {
            state.limits.failed(attempt).await?;
            return Err(ApiError::BadRequest(
                "Current password is incorrect".to_owned(),
            ));
        }
        let hash = hash.map_err(ApiError::internal)?;
        let mut tx = session.realm.begin(&state.tenancy).await?;
        sqlx::query(identity::users_sql(
            &session.realm,
            "update {users} set password_hash = $2 where id = $1",
        ))
        .bind(current.id)
        .bind(&hash)
        .execute(&mut *tx)
        .await?;
        sessions::revoke_all(&mut tx, current.id, Some(session.claims.sid)).await?;
        audit::record(
            &mut tx,
            &actor(&session.realm, &current, address),
            "password changed",
            serde_json::json!({}),
        )
        .await?;
        tx.commit().await?;
        Ok(super::Deleted::Deleted)
    }

    /// Starts enrolling an authenticator app: a new secret, its otpauth address and QR code. The app is used for
    /// sign-in only after a code from it is confirmed.
    #[oai(
        path = "/auth-api/session/authenticator",
        method = "post",
        operation_id = "startAuthenticatorEnrolment"
    )]
    async fn start_authenticator(
        &self,
        state: Data<&SharedState>,
        auth: BasicAuth,
    ) -> Result<Json<AuthenticatorEnrolment>, ApiError> {
        let session = auth.0;
        let secret = totp::new_secret();
        let sealed = state
            .totp
            .seal(
                &secret,
                &totp::owner(&session.realm, session.claims.user.id),
            )
            .map_err(ApiError::internal)?;
        let uri = totp::otpauth_uri(&secret, &session.claims.user.email)
            .ok_or_else(|| ApiError::internal("could not build the otpauth address"))?;
        let qr_svg =
            totp::qr_svg(&uri).ok_or_else(|| ApiError::internal("could not draw the QR code"))?;
        let mut tx = session.realm.begin(&state.tenancy).await?;
        sqlx::query(identity::users_sql(
            &session.realm,
            "update {users} set totp_pending_secret = $2 where id = $1",
        ))
        .bind(session.claims.user.id)
        .bind(&sealed)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(AuthenticatorEnrolment {
            secret,
            otpauth_uri: uri,
            qr_svg,
        }))
    }

    /// Confirms enrolment with a code from the app; the app becomes the two-factor method.
    #[oai(
        path = "/auth-api/session/authenticator/confirm",
        method = "post",
        operation_id = "confirmAuthenticator"
    )]
    async fn confirm_authenticator(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: BasicAuth,
        body: Json<AuthenticatorConfirm>,
    ) -> Result<Json<Me>, ApiError> {
        let session = auth.0;
        state
            .limits
            .hit(
                Action::Code,
                Some(&session.claims.user.email),
                &address(req),
            )
            .await?;
        let current = account(&state, &session.realm, session.claims.user.id).await?;
        let pending = current
            .totp_pending_secret
            .as_deref()
            .and_then(|sealed| {
                state
                    .totp
                    .open(sealed, &totp::owner(&session.realm, current.id))
            })
            .ok_or_else(|| {
                ApiError::BadRequest("Start the authenticator set-up first".to_owned())
            })?;
        let now = chrono::Utc::now().timestamp().max(0) as u64;
        let step = totp::accepted_step(&pending, body.0.code.trim(), 0, now)
            .ok_or_else(|| ApiError::BadRequest("Invalid passcode".to_owned()))?;
        let mut tx = session.realm.begin(&state.tenancy).await?;
        sqlx::query(identity::users_sql(
            &session.realm,
            "update {users} set totp_secret = totp_pending_secret, totp_pending_secret = null,
                    totp_last_step = $2, two_factor_method = 'app' where id = $1",
        ))
        .bind(current.id)
        .bind(step)
        .execute(&mut *tx)
        .await?;
        audit::record(
            &mut tx,
            &actor(&session.realm, &current, address(req)),
            "authenticator enrolled",
            serde_json::json!({}),
        )
        .await?;
        tx.commit().await?;
        Ok(Json(me(&state, &session).await?))
    }
}

/// A signed-in user's first name, for merge tags in test sends.
pub async fn first_name(state: &AppState, realm: &Realm, user_id: i64) -> Result<String, ApiError> {
    let mut tx = realm.begin(&state.tenancy).await?;
    let account = identity::find_by_id(&mut tx, realm, user_id).await?;
    tx.commit().await?;
    Ok(account.map(|a| a.first_name).unwrap_or_default())
}
