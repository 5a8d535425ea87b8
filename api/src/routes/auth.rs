//! Sign-in core: password login, the clients a user may use, client login and the signed-in user's profile.
//! Paths under `/auth-api/auth/…` are public; `/auth-api/session/…` need a `basic` token.

use super::ApiTags;
use crate::auth::{verify_password, BasicAuth, UserClaim};
use crate::error::ApiError;
use crate::state::{AppState, SharedState};
use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct AuthApi;

/// What the SPA needs to know before anyone signs in.
#[derive(Debug, Object)]
pub struct AuthConfig {
    /// The agency's name, shown in the footer.
    #[oai(rename = "providerName")]
    pub provider_name: String,
    /// Set when Google sign-in is configured.
    #[oai(rename = "googleClientId")]
    pub google_client_id: Option<String>,
    /// Set in client-auth mode: the one client this deployment serves.
    #[oai(rename = "clientAuthShort")]
    pub client_auth_short: Option<String>,
}

#[derive(Debug, Object)]
pub struct LoginRequest {
    /// The e-mail address.
    #[oai(validator(max_length = 320))]
    pub username: String,
    #[oai(validator(max_length = 1024))]
    pub password: String,
}

#[derive(Debug, Object)]
pub struct LoginResponse {
    #[oai(rename = "accessToken")]
    pub access_token: Option<String>,
    #[oai(rename = "twoFactorRequired")]
    pub two_factor_required: bool,
    pub email: String,
}

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

#[derive(Debug, Object)]
pub struct TokenResponse {
    #[oai(rename = "accessToken")]
    pub access_token: String,
}

/// The signed-in user and what they may see.
#[derive(Debug, Object)]
pub struct Me {
    pub id: i64,
    pub email: String,
    #[oai(rename = "firstName")]
    pub first_name: String,
    #[oai(rename = "lastName")]
    pub last_name: String,
    /// Page permissions (pageContributions …).
    pub permissions: Vec<String>,
    /// Universal permissions ("view user").
    #[oai(rename = "universalPermissions")]
    pub universal_permissions: Vec<String>,
}

#[derive(sqlx::FromRow)]
struct UserRow {
    id: i64,
    email: String,
    password_hash: String,
    first_name: String,
    last_name: String,
    permissions: Vec<String>,
    universal_permissions: Vec<String>,
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

async fn find_user(
    state: &AppState,
    filter_by_email: Option<&str>,
    id: i64,
) -> Result<Option<UserRow>, ApiError> {
    let mut tx = state.tenancy.public().await?;
    let user = sqlx::query_as::<_, UserRow>(
        "select id, email, password_hash, first_name, last_name, permissions, universal_permissions
         from universal_users where enabled and (email = $1 or ($1 is null and id = $2))",
    )
    .bind(filter_by_email)
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(user)
}

fn unable_to_login() -> ApiError {
    ApiError::Unauthorized("Incorrect email or password".to_owned())
}

#[OpenApi(tag = "ApiTags::Auth")]
impl AuthApi {
    /// Public configuration the sign-in pages need.
    #[oai(
        path = "/auth-api/auth/config",
        method = "get",
        operation_id = "getAuthConfig"
    )]
    async fn config(&self, state: Data<&SharedState>) -> Json<AuthConfig> {
        Json(AuthConfig {
            provider_name: state.provider_name.clone(),
            google_client_id: state.google_client_id.clone(),
            client_auth_short: None,
        })
    }

    /// Step 1 of sign-in: e-mail and password. Answers the same way for an unknown e-mail and a wrong password.
    #[oai(path = "/auth-api/auth/login", method = "post", operation_id = "login")]
    async fn login(
        &self,
        state: Data<&SharedState>,
        body: Json<LoginRequest>,
    ) -> Result<Json<LoginResponse>, ApiError> {
        let email = body.0.username.trim().to_lowercase();
        if email.is_empty() || body.0.password.is_empty() {
            return Err(ApiError::BadRequest(
                "Email and password are required".to_owned(),
            ));
        }
        let user = find_user(&state, Some(&email), 0).await?;
        let password = body.0.password;
        let stored = user.as_ref().map(|u| u.password_hash.clone());
        // argon2 is deliberately slow: keep it off the async executor.
        let ok = tokio::task::spawn_blocking(move || verify_password(&password, stored.as_deref()))
            .await
            .map_err(ApiError::internal)?;
        let Some(user) = user.filter(|_| ok) else {
            tracing::info!(%email, "login refused");
            return Err(unable_to_login());
        };
        let token = state
            .tokens
            .issue(
                UserClaim {
                    id: user.id,
                    email: user.email.clone(),
                    kind: "universal".to_owned(),
                },
                None,
            )
            .map_err(ApiError::internal)?;
        tracing::info!(user = user.id, "login");
        Ok(Json(LoginResponse {
            access_token: Some(token),
            two_factor_required: false,
            email: user.email,
        }))
    }

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
        let mut tx = state.tenancy.public().await?;
        let rows: Vec<(i64, String, String)> = sqlx::query_as(
            "select c.id, c.name, c.short_name from clients c
             join universal_users u on u.id = $1 and u.enabled
             where c.enabled and (u.all_clients or exists (
                 select 1 from universal_user_clients g where g.user_id = u.id and g.client_id = c.id))
             order by c.name, c.id",
        )
        .bind(auth.0.claims.user.id)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(
            rows.into_iter()
                .map(|(id, label, short)| ClientOption { id, label, short })
                .collect(),
        ))
    }

    /// Exchanges a signed-in user's token for one that acts for the chosen client.
    #[oai(
        path = "/auth-api/session/client-login",
        method = "post",
        operation_id = "clientLogin"
    )]
    async fn client_login(
        &self,
        state: Data<&SharedState>,
        auth: BasicAuth,
        body: Json<ClientLoginRequest>,
    ) -> Result<Json<TokenResponse>, ApiError> {
        let user = auth.0.claims.user;
        let forbidden = || ApiError::Forbidden("You do not have access to this client".to_owned());
        let client = state
            .tenancy
            .enabled_client(body.0.client_id)
            .await?
            .ok_or_else(forbidden)?;
        if !may_use_client(&state, user.id, client.id).await? {
            return Err(forbidden());
        }
        let token = state
            .tokens
            .issue(user, Some((client.id, client.short_name)))
            .map_err(ApiError::internal)?;
        Ok(Json(TokenResponse {
            access_token: token,
        }))
    }

    /// The signed-in user with their permissions.
    #[oai(path = "/auth-api/session/me", method = "get", operation_id = "getMe")]
    async fn me(&self, state: Data<&SharedState>, auth: BasicAuth) -> Result<Json<Me>, ApiError> {
        let user = find_user(&state, None, auth.0.claims.user.id)
            .await?
            .ok_or_else(|| ApiError::Unauthorized("This account is no longer active".to_owned()))?;
        Ok(Json(Me {
            id: user.id,
            email: user.email,
            first_name: user.first_name,
            last_name: user.last_name,
            permissions: user.permissions,
            universal_permissions: user.universal_permissions,
        }))
    }
}

/// A universal user's first name, for merge tags in test sends.
pub async fn first_name(state: &AppState, user_id: i64) -> Result<String, ApiError> {
    Ok(find_user(state, None, user_id)
        .await?
        .map(|u| u.first_name)
        .unwrap_or_default())
}
