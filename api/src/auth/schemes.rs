//! The two ways a caller proves who it is. poem-openapi runs the checker before the handler, so a handler that
//! takes `ClientAuth` can only run for a valid client session.

use super::{Claims, Scope};
use crate::error::ApiError;
use crate::state::SharedState;
use poem::Request;
use poem_openapi::auth::Bearer;
use poem_openapi::SecurityScheme;
use tenancy::Client;

/// A signed-in user, before or after choosing a client (`/auth-api/session/…`).
#[derive(Debug, Clone)]
pub struct UserSession {
    pub claims: Claims,
}

/// A user acting for one client: the token, the `client-short` and `client-id` headers and the registry agree,
/// and the user may still use that client.
#[derive(Debug, Clone)]
pub struct ClientSession {
    pub claims: Claims,
    pub client: Client,
}

impl ClientSession {
    pub fn user_id(&self) -> i64 {
        self.claims.user.id
    }
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

fn claims(req: &Request, bearer: &Bearer) -> poem::Result<Claims> {
    let claims = state(req)?
        .tokens
        .verify(&bearer.token)
        .map_err(|_| ApiError::Unauthorized("Invalid or expired token".to_owned()))?;
    if !claims.has(Scope::Basic) {
        return Err(ApiError::Unauthorized("Invalid or expired token".to_owned()).into());
    }
    Ok(claims)
}

async fn check_user(req: &Request, bearer: Bearer) -> poem::Result<UserSession> {
    Ok(UserSession {
        claims: claims(req, &bearer)?,
    })
}

async fn check_client(req: &Request, bearer: Bearer) -> poem::Result<ClientSession> {
    let claims = claims(req, &bearer)?;
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
    let state = state(req)?;
    let client = state
        .tenancy
        .enabled_client(client_id)
        .await
        .map_err(ApiError::from)?
        .filter(|c| c.short_name == client_short)
        .ok_or_else(|| ApiError::Forbidden("This client is not available".to_owned()))?;
    if !crate::routes::auth::may_use_client(state, claims.user.id, client.id).await? {
        return Err(ApiError::Forbidden("You do not have access to this client".to_owned()).into());
    }
    Ok(ClientSession { claims, client })
}
