//! A client's users, roles and audit trail: Manage Users (client permission "view user") and Manage Roles
//! ("edit role"). Universal users appear here when they may use the client; their roles are per client.

mod audit_events;
mod roles;

pub use audit_events::{AuditEvent, AuditEventsApi};
pub use roles::{PermissionOption, Role, RoleInput, RolesApi};

use super::ApiTags;
use crate::auth::{ClientAuth, ClientSession, EDIT_ROLE, VIEW_USER};
use crate::error::ApiError;
use crate::identity::sign_in::address;
use crate::identity::{audit, sessions};
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Enum, Object, OpenApi};
use std::collections::HashMap;

pub struct UsersApi;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum UserKind {
    Client,
    Universal,
}

impl UserKind {
    fn as_str(self) -> &'static str {
        match self {
            Self::Client => "client",
            Self::Universal => "universal",
        }
    }
}

/// A user of this client, as Manage Users lists them.
#[derive(Debug, Object)]
pub struct ManagedUser {
    pub kind: UserKind,
    pub id: i64,
    pub email: String,
    #[oai(rename = "firstName")]
    pub first_name: String,
    #[oai(rename = "lastName")]
    pub last_name: String,
    pub enabled: bool,
    #[oai(rename = "emailVerified")]
    pub email_verified: bool,
    /// Agency administrators hold every permission in every client; roles do not apply to them.
    pub administrator: bool,
    #[oai(rename = "roleIds")]
    pub role_ids: Vec<i64>,
    pub created: DateTime<Utc>,
}

#[derive(Debug, Object)]
pub struct ManagedUserUpdate {
    /// Client users only: universal users are enabled in Manage Universal Users.
    #[oai(nullable)]
    pub enabled: Option<bool>,
    #[oai(nullable, rename = "roleIds")]
    pub role_ids: Option<Vec<i64>>,
}

fn actor(session: &ClientSession, address: String) -> audit::Actor {
    audit::Actor {
        kind: session.claims.user.kind.as_str(),
        id: Some(session.user_id()),
        email: session.claims.user.email.clone(),
        address,
    }
}

use store::users::UserRow;

#[OpenApi(tag = "ApiTags::Users")]
impl UsersApi {
    /// The client's own users and the universal users who may use this client, with their roles here.
    #[oai(path = "/api/users", method = "get", operation_id = "listUsers")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<ManagedUser>>, ApiError> {
        let session = auth.0;
        session.require(VIEW_USER)?;
        let mut pub_tx = state.tenancy.public().await?;
        let universal = store::users::universal_users_of(&mut pub_tx, session.client.id).await?;
        pub_tx.commit().await?;
        let (client_users, held) = session
            .tx(&state, VIEW_USER, async |tx| {
                let client_users = store::users::client_users(tx).await?;
                Ok((client_users, store::users::role_grants(tx).await?))
            })
            .await?;
        let mut roles: HashMap<(String, i64), Vec<i64>> = HashMap::new();
        for (kind, user, role) in held {
            roles.entry((kind, user)).or_default().push(role);
        }
        let mut managed = |kind: UserKind, u: UserRow| {
            let (verified, administrator) = match kind {
                UserKind::Client => (u.flag, false),
                UserKind::Universal => (true, u.flag),
            };
            ManagedUser {
                kind,
                role_ids: roles
                    .remove(&(kind.as_str().to_owned(), u.id))
                    .unwrap_or_default(),
                id: u.id,
                email: u.email,
                first_name: u.first_name,
                last_name: u.last_name,
                enabled: u.enabled,
                email_verified: verified,
                administrator,
                created: u.created,
            }
        };
        let mut users: Vec<ManagedUser> = client_users
            .into_iter()
            .map(|u| managed(UserKind::Client, u))
            .collect();
        users.extend(
            universal
                .into_iter()
                .map(|u| managed(UserKind::Universal, u)),
        );
        Ok(Json(users))
    }

    /// Enables or disables a client user and sets the roles a user holds in this client.
    #[oai(
        path = "/api/users/:kind/:id",
        method = "patch",
        operation_id = "updateUser"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: ClientAuth,
        kind: Path<UserKind>,
        id: Path<i64>,
        body: Json<ManagedUserUpdate>,
    ) -> Result<Json<Vec<ManagedUser>>, ApiError> {
        let session = auth.0;
        session.require(VIEW_USER)?;
        let (kind, id, body) = (kind.0, id.0, body.0);
        let not_found = || ApiError::NotFound("User not found".to_owned());
        if body.role_ids.is_some() {
            session.require(EDIT_ROLE)?;
        }
        let is_self = session.claims.user.kind.as_str() == kind.as_str() && session.user_id() == id;
        if kind == UserKind::Universal {
            if body.enabled.is_some() {
                return Err(ApiError::BadRequest(
                    "Universal users are enabled or disabled in Manage Universal Users".to_owned(),
                ));
            }
            if !crate::identity::sign_in::may_use_client(&state, id, session.client.id).await? {
                return Err(not_found());
            }
        }
        if is_self && body.enabled == Some(false) {
            return Err(ApiError::BadRequest(
                "You cannot disable your own account".to_owned(),
            ));
        }
        let actor = actor(&session, address(req));
        session
            .tx(&state, VIEW_USER, async |tx| {
                if kind == UserKind::Client && !store::users::client_user_exists(tx, id).await? {
                    return Err(not_found());
                }
                if let Some(enabled) = body.enabled {
                    store::users::set_client_user_enabled(tx, id, enabled).await?;
                    if !enabled {
                        sessions::revoke_all(tx, id, None).await?;
                    }
                    let action = if enabled {
                        "user enabled"
                    } else {
                        "user disabled"
                    };
                    audit::record(
                        tx,
                        &actor,
                        action,
                        serde_json::json!({ "kind": kind.as_str(), "userId": id }),
                    )
                    .await?;
                }
                if let Some(role_ids) = body.role_ids {
                    let known = store::users::known_roles(tx, &role_ids).await?;
                    let mut distinct = role_ids.clone();
                    distinct.sort_unstable();
                    distinct.dedup();
                    if known != distinct.len() as i64 {
                        return Err(ApiError::BadRequest("Unknown role".to_owned()));
                    }
                    store::users::set_user_roles(tx, kind.as_str(), id, &distinct).await?;
                    audit::record(
                        tx,
                        &actor,
                        "roles assigned",
                        serde_json::json!({ "kind": kind.as_str(), "userId": id, "roleIds": distinct }),
                    )
                    .await?;
                }
                Ok(())
            })
            .await?;
        self.list(state, ClientAuth(session)).await
    }
}
