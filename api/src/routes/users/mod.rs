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

/// A user row of either table; `flag` is "email verified" for client users, "administrator" for universal ones.
#[derive(sqlx::FromRow)]
struct UserRow {
    id: i64,
    email: String,
    first_name: String,
    last_name: String,
    enabled: bool,
    flag: bool,
    created: DateTime<Utc>,
}

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
        let universal: Vec<UserRow> = sqlx::query_as(
            "select id, email, first_name, last_name, enabled, all_clients as flag, created from universal_users u
             where u.all_clients or exists (
                 select 1 from universal_user_clients g where g.user_id = u.id and g.client_id = $1)
             order by email",
        )
        .bind(session.client.id)
        .fetch_all(&mut *pub_tx)
        .await?;
        pub_tx.commit().await?;
        let mut tx = state.tenancy.begin(&session.client).await?;
        let client_users: Vec<UserRow> = sqlx::query_as(
            "select id, email, first_name, last_name, enabled, email_verified is not null as flag, created
             from client_users order by email",
        )
        .fetch_all(&mut *tx)
        .await?;
        let held: Vec<(String, i64, i64)> =
            sqlx::query_as("select user_kind, user_id, role_id from user_roles order by role_id")
                .fetch_all(&mut *tx)
                .await?;
        tx.commit().await?;
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
        let mut tx = state.tenancy.begin(&session.client).await?;
        let actor = actor(&session, address(req));
        if kind == UserKind::Client {
            let exists: bool =
                sqlx::query_scalar("select exists (select 1 from client_users where id = $1)")
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?;
            if !exists {
                return Err(not_found());
            }
        }
        if let Some(enabled) = body.enabled {
            sqlx::query("update client_users set enabled = $2 where id = $1")
                .bind(id)
                .bind(enabled)
                .execute(&mut *tx)
                .await?;
            if !enabled {
                sessions::revoke_all(&mut tx, id, None).await?;
            }
            let action = if enabled {
                "user enabled"
            } else {
                "user disabled"
            };
            audit::record(
                &mut tx,
                &actor,
                action,
                serde_json::json!({ "kind": kind.as_str(), "userId": id }),
            )
            .await?;
        }
        if let Some(role_ids) = body.role_ids {
            let known: i64 = sqlx::query_scalar("select count(*) from roles where id = any($1)")
                .bind(&role_ids)
                .fetch_one(&mut *tx)
                .await?;
            let mut distinct = role_ids.clone();
            distinct.sort_unstable();
            distinct.dedup();
            if known != distinct.len() as i64 {
                return Err(ApiError::BadRequest("Unknown role".to_owned()));
            }
            sqlx::query("delete from user_roles where user_kind = $1 and user_id = $2")
                .bind(kind.as_str())
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "insert into user_roles (user_kind, user_id, role_id) select $1, $2, unnest($3::bigint[])",
            )
            .bind(kind.as_str())
            .bind(id)
            .bind(&distinct)
            .execute(&mut *tx)
            .await?;
            audit::record(
                &mut tx,
                &actor,
                "roles assigned",
                serde_json::json!({ "kind": kind.as_str(), "userId": id, "roleIds": distinct }),
            )
            .await?;
        }
        tx.commit().await?;
        self.list(state, ClientAuth(session)).await
    }
}
