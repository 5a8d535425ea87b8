//! The two ways a caller proves who it is. poem-openapi runs the checker before the handler, so a handler that
//! takes `ClientAuth` can only run for a live session acting for a client the user may use.
//!
//! Every check goes to the database: the token's session must not be revoked, the account must still be
//! enabled, and permissions are read fresh, so revoking a session, disabling a user or taking away a role takes
//! effect on the next request, not when the token expires.

use super::{in_client, Claims, Scope, ALL_CLIENT_PERMISSIONS};
use crate::error::ApiError;
use crate::identity::Realm;
use crate::state::SharedState;
use domain::UserKind;
use poem::Request;
use poem_openapi::auth::Bearer;
use poem_openapi::SecurityScheme;
use tenancy::Client;

/// A signed-in user, before or after choosing a client (`/auth-api/session/…`).
#[derive(Debug, Clone)]
pub struct UserSession {
    pub claims: Claims,
    pub realm: Realm,
    /// Universal permissions ("view user"); always empty for client users.
    pub universal_permissions: Vec<String>,
}

impl UserSession {
    /// Refuses with 403 unless the user holds the universal permission.
    pub fn require_universal(&self, permission: &str) -> Result<(), ApiError> {
        if self.universal_permissions.iter().any(|p| p == permission) {
            Ok(())
        } else {
            Err(missing_permission())
        }
    }
}

/// A user acting for one client: the token, the `client-short` and `client-id` headers and the registry agree,
/// and the user may still use that client.
#[derive(Debug, Clone)]
pub struct ClientSession {
    pub claims: Claims,
    pub client: Client,
    /// Page and client permissions held in this client.
    pub permissions: Vec<String>,
}

impl ClientSession {
    pub fn user_id(&self) -> i64 {
        self.claims.user.id
    }

    /// The user as a job's owner (`jobs.user_id` and `jobs.user_kind`).
    pub fn job_owner(&self) -> jobs::JobOwner {
        jobs::JobOwner {
            id: self.claims.user.id,
            kind: self.claims.user.kind,
        }
    }

    /// Whether the user sees every job of the client (and every failed-job alert), not only their own: agency
    /// staff and whoever may manage the client's users ("view user"). docs/jobs.md.
    pub fn sees_every_job(&self) -> bool {
        self.claims.user.kind == UserKind::Universal || self.may(&[super::VIEW_USER])
    }

    /// Where the user's account lives.
    pub fn realm(&self) -> Realm {
        if self.claims.user.kind == UserKind::Client {
            Realm::Client(self.client.clone())
        } else {
            Realm::Universal
        }
    }

    /// Refuses with 403 unless the user holds `permission` in this client.
    pub fn require(&self, permission: &str) -> Result<(), ApiError> {
        self.require_any(&[permission])
    }

    /// Refuses with 403 unless the user holds at least one of `permissions` (data two pages share).
    pub fn require_any(&self, permissions: &[&str]) -> Result<(), ApiError> {
        if self.may(permissions) {
            Ok(())
        } else {
            Err(missing_permission())
        }
    }

    /// Whether the user holds at least one of `permissions`: for parts of an answer left out without them.
    pub fn may(&self, permissions: &[&str]) -> bool {
        self.permissions
            .iter()
            .any(|p| permissions.contains(&p.as_str()))
    }
}

pub fn missing_permission() -> ApiError {
    ApiError::Forbidden("You do not have permission to do this".to_owned())
}

/// Bearer token with the `basic` scope.
#[derive(SecurityScheme)]
#[oai(ty = "bearer", bearer_format = "JWT", checker = "check_user")]
pub struct BasicAuth(pub UserSession);

/// Bearer token with the `client` scope, plus `client-short` and `client-id` headers naming the token's client.
#[derive(SecurityScheme)]
#[oai(ty = "bearer", bearer_format = "JWT", checker = "check_client")]
pub struct ClientAuth(pub ClientSession);

fn state(req: &Request) -> poem::Result<&SharedState> {
    req.data::<SharedState>()
        .ok_or_else(|| ApiError::internal("application state missing").into())
}

fn invalid_token() -> ApiError {
    ApiError::Unauthorized("Invalid or expired token".to_owned())
}

fn claims(state: &SharedState, bearer: &Bearer) -> Result<Claims, ApiError> {
    let claims = state
        .tokens
        .verify(&bearer.token)
        .map_err(|_| invalid_token())?;
    if !claims.has(Scope::Basic) {
        return Err(invalid_token());
    }
    Ok(claims)
}

/// The realm a token's user lives in; a client user's client must still be enabled.
pub async fn realm_of(state: &SharedState, claims: &Claims) -> Result<Realm, ApiError> {
    match claims.user.kind {
        UserKind::Universal => Ok(Realm::Universal),
        UserKind::Client => {
            let (Some(id), Some(short)) = (claims.client_id, claims.client_short.as_deref()) else {
                return Err(invalid_token());
            };
            state
                .tenancy
                .enabled_client(id)
                .await?
                .filter(|c| c.short_name == short)
                .map(Realm::Client)
                .ok_or_else(invalid_token)
        }
    }
}

/// What a live session of a universal user may do: `None` when the session is revoked, expired or the user
/// disabled; otherwise (may use `client`, is an administrator, universal permissions).
async fn universal_access(
    state: &SharedState,
    claims: &Claims,
    client_id: Option<i64>,
) -> Result<Option<(bool, bool, Vec<String>)>, ApiError> {
    let mut tx = state.tenancy.public().await?;
    let row =
        store::access::universal_access(&mut tx, claims.sid, claims.user.id, client_id).await?;
    tx.commit().await?;
    Ok(row)
}

/// The page and client permissions a user holds in `client` through roles.
pub async fn role_permissions(
    state: &crate::state::AppState,
    client: &Client,
    kind: UserKind,
    user_id: i64,
) -> Result<Vec<String>, ApiError> {
    in_client(&state.tenancy, client, async |tx| {
        Ok(store::access::role_permissions(tx, kind.as_str(), user_id).await?)
    })
    .await
}

/// Whether a client user's session is live and the account still enabled and verified.
async fn client_user_session_live(
    state: &SharedState,
    client: &Client,
    claims: &Claims,
) -> Result<bool, ApiError> {
    in_client(&state.tenancy, client, async |tx| {
        Ok(store::access::client_user_session_live(tx, claims.sid, claims.user.id).await?)
    })
    .await
}

async fn check_user(req: &Request, bearer: Bearer) -> poem::Result<UserSession> {
    let state = state(req)?;
    let claims = claims(state, &bearer)?;
    let realm = realm_of(state, &claims).await?;
    let universal_permissions = match &realm {
        Realm::Universal => {
            universal_access(state, &claims, None)
                .await?
                .ok_or_else(invalid_token)?
                .2
        }
        Realm::Client(client) => {
            if !client_user_session_live(state, client, &claims).await? {
                return Err(invalid_token().into());
            }
            Vec::new()
        }
    };
    Ok(UserSession {
        claims,
        realm,
        universal_permissions,
    })
}

async fn check_client(req: &Request, bearer: Bearer) -> poem::Result<ClientSession> {
    let state = state(req)?;
    let claims = claims(state, &bearer)?;
    let (Some(client_id), Some(client_short)) = (claims.client_id, claims.client_short.clone())
    else {
        return Err(ApiError::Forbidden("Select a client first".to_owned()).into());
    };
    if !claims.has(Scope::Client) {
        return Err(ApiError::Forbidden("Select a client first".to_owned()).into());
    }
    // A mismatch is refused, never corrected: the headers must name exactly the token's client.
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    let headers_match = header("client-short") == Some(client_short.as_str())
        && header("client-id") == Some(client_id.to_string().as_str());
    if !headers_match {
        return Err(ApiError::Forbidden(
            "The client-short and client-id headers do not match your session".to_owned(),
        )
        .into());
    }
    let client = state
        .tenancy
        .enabled_client(client_id)
        .await
        .map_err(ApiError::from)?
        .filter(|c| c.short_name == client_short)
        .ok_or_else(|| ApiError::Forbidden("This client is not available".to_owned()))?;
    let permissions = match claims.user.kind {
        UserKind::Universal => {
            let (may_use, admin, _) = universal_access(state, &claims, Some(client.id))
                .await?
                .ok_or_else(invalid_token)?;
            if !may_use {
                return Err(ApiError::Forbidden(
                    "You do not have access to this client".to_owned(),
                )
                .into());
            }
            if admin {
                ALL_CLIENT_PERMISSIONS
                    .iter()
                    .map(|p| p.to_string())
                    .collect()
            } else {
                role_permissions(state, &client, UserKind::Universal, claims.user.id).await?
            }
        }
        UserKind::Client => {
            if !client_user_session_live(state, &client, &claims).await? {
                return Err(invalid_token().into());
            }
            role_permissions(state, &client, UserKind::Client, claims.user.id).await?
        }
    };
    Ok(ClientSession {
        claims,
        client,
        permissions,
    })
}
