//! The signed-in user's own session: the clients they may choose, client login, their profile, password and
//! second factor (`/auth-api/session/…`, any signed-in user).

mod authenticator;
mod profile;

pub use authenticator::{AuthenticatorApi, AuthenticatorConfirm, AuthenticatorEnrolment};
pub use profile::{PasswordChange, ProfileApi, ProfileUpdate};

use super::ApiTags;
use crate::auth::{role_permissions, BasicAuth, ALL_CLIENT_PERMISSIONS};
use crate::error::ApiError;
use crate::identity::sign_in::{address, may_use_client, open_session, TokenPair};
use crate::identity::{self, audit, Account, Realm};
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

async fn account(state: &AppState, realm: &Realm, id: i64) -> Result<Account, ApiError> {
    let mut tx = realm.begin(&state.tenancy).await?;
    let account = identity::find_by_id(&mut tx, realm, id).await?;
    tx.commit().await?;
    account.ok_or_else(|| ApiError::Unauthorized("This account is no longer active".to_owned()))
}

fn actor(realm: &Realm, account: &Account, address: String) -> audit::Actor {
    audit::Actor {
        kind: realm.kind().as_str(),
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
        (Realm::Client(_), Some(c)) => {
            role_permissions(state, c, domain::UserKind::Client, account.id).await?
        }
        (Realm::Universal, Some(c)) => {
            let mut tx = state.tenancy.public().await?;
            let admin = store::accounts::is_administrator(&mut tx, account.id).await?;
            tx.commit().await?;
            if admin {
                ALL_CLIENT_PERMISSIONS
                    .iter()
                    .map(|p| p.to_string())
                    .collect()
            } else {
                role_permissions(state, c, domain::UserKind::Universal, account.id).await?
            }
        }
    };
    Ok(Me {
        id: account.id,
        kind: session.realm.kind().as_str().to_owned(),
        email: account.email,
        first_name: account.first_name,
        last_name: account.last_name,
        phone: account.phone,
        two_factor_method: account.two_factor_method.as_str().to_owned(),
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
                let rows = store::accounts::clients_of_universal_user(
                    &mut tx,
                    session.claims.user.id,
                    state.client_auth.as_deref(),
                )
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
            Some(session.claims.sid),
            "client login",
            &address(req),
        )
        .await?;
        Ok(Json(pair))
    }

    /// The signed-in user with their permissions.
    #[oai(path = "/auth-api/session/me", method = "get", operation_id = "getMe")]
    async fn me(&self, state: Data<&SharedState>, auth: BasicAuth) -> Result<Json<Me>, ApiError> {
        Ok(Json(me(&state, &auth.0).await?))
    }
}
