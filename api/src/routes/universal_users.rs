//! Manage Universal Users: agency staff accounts, which clients each may use, and their universal permissions.
//! Needs the universal permission "view user".

use super::ApiTags;
use crate::auth::{BasicAuth, UserSession, UNIVERSAL_PERMISSIONS, VIEW_USER};
use crate::error::ApiError;
use crate::identity::challenges::{self, Purpose};
use crate::identity::sign_in::address;
use crate::identity::{self, audit, sessions, Realm};
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct UniversalUsersApi;

#[derive(Debug, Object)]
pub struct UniversalUser {
    pub id: i64,
    pub email: String,
    #[oai(rename = "firstName")]
    pub first_name: String,
    #[oai(rename = "lastName")]
    pub last_name: String,
    pub enabled: bool,
    /// May use every client with every permission.
    #[oai(rename = "allClients")]
    pub all_clients: bool,
    #[oai(rename = "universalPermissions")]
    pub universal_permissions: Vec<String>,
    /// The clients this user may use (when not `allClients`).
    #[oai(rename = "clientIds")]
    pub client_ids: Vec<i64>,
    #[oai(rename = "twoFactorMethod")]
    pub two_factor_method: String,
    pub created: DateTime<Utc>,
}

#[derive(Debug, Object)]
pub struct NewUniversalUserInput {
    #[oai(validator(max_length = 320))]
    pub email: String,
    #[oai(rename = "firstName", validator(max_length = 100))]
    pub first_name: String,
    #[oai(rename = "lastName", validator(max_length = 100))]
    pub last_name: String,
    #[oai(rename = "allClients")]
    pub all_clients: bool,
    #[oai(rename = "universalPermissions")]
    pub universal_permissions: Vec<String>,
    #[oai(rename = "clientIds")]
    pub client_ids: Vec<i64>,
}

#[derive(Debug, Object)]
pub struct UniversalUserUpdate {
    #[oai(nullable, rename = "firstName", validator(max_length = 100))]
    pub first_name: Option<String>,
    #[oai(nullable, rename = "lastName", validator(max_length = 100))]
    pub last_name: Option<String>,
    #[oai(nullable)]
    pub enabled: Option<bool>,
    #[oai(nullable, rename = "allClients")]
    pub all_clients: Option<bool>,
    #[oai(nullable, rename = "universalPermissions")]
    pub universal_permissions: Option<Vec<String>>,
    #[oai(nullable, rename = "clientIds")]
    pub client_ids: Option<Vec<i64>>,
}

impl From<store::universal_users::UniversalUser> for UniversalUser {
    fn from(u: store::universal_users::UniversalUser) -> Self {
        Self {
            id: u.id,
            email: u.email,
            first_name: u.first_name,
            last_name: u.last_name,
            enabled: u.enabled,
            all_clients: u.all_clients,
            universal_permissions: u.universal_permissions,
            client_ids: u.client_ids,
            two_factor_method: u.two_factor_method,
            created: u.created,
        }
    }
}

fn checked_permissions(permissions: &[String]) -> Result<Vec<String>, ApiError> {
    if let Some(unknown) = permissions
        .iter()
        .find(|p| !UNIVERSAL_PERMISSIONS.contains(&p.as_str()))
    {
        return Err(ApiError::BadRequest(format!(
            "Unknown permission: {unknown}"
        )));
    }
    let mut kept = permissions.to_vec();
    kept.sort();
    kept.dedup();
    Ok(kept)
}

fn actor(session: &UserSession, address: String) -> audit::Actor {
    audit::Actor {
        kind: domain::UserKind::Universal.as_str(),
        id: Some(session.claims.user.id),
        email: session.claims.user.email.clone(),
        address,
    }
}

/// Universal users are managed only by universal users holding "view user".
fn require(session: &UserSession) -> Result<(), ApiError> {
    if !matches!(session.realm, Realm::Universal) {
        return Err(crate::auth::missing_permission());
    }
    session.require_universal(VIEW_USER)
}

async fn set_clients(
    tx: &mut sqlx::PgConnection,
    user_id: i64,
    client_ids: &[i64],
) -> Result<(), ApiError> {
    let known = store::universal_users::known_clients(tx, client_ids).await?;
    let mut distinct = client_ids.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if known != distinct.len() as i64 {
        return Err(ApiError::BadRequest("Unknown client".to_owned()));
    }
    store::universal_users::set_clients(tx, user_id, &distinct).await?;
    Ok(())
}

async fn fetch(tx: &mut sqlx::PgConnection, id: i64) -> Result<UniversalUser, ApiError> {
    store::universal_users::get(tx, id)
        .await?
        .map(UniversalUser::from)
        .ok_or_else(|| ApiError::NotFound("User not found".to_owned()))
}

/// A client a universal user may be granted.
#[derive(Debug, Object)]
pub struct ClientChoice {
    pub id: i64,
    pub label: String,
    pub short: String,
    pub enabled: bool,
}

#[OpenApi(tag = "ApiTags::Users")]
impl UniversalUsersApi {
    /// Every client, for granting access on Manage Universal Users.
    #[oai(
        path = "/auth-api/session/universal-users/clients",
        method = "get",
        operation_id = "listGrantableClients"
    )]
    async fn clients(
        &self,
        state: Data<&SharedState>,
        auth: BasicAuth,
    ) -> Result<Json<Vec<ClientChoice>>, ApiError> {
        require(&auth.0)?;
        Ok(Json(
            state
                .tenancy
                .list_clients()
                .await?
                .into_iter()
                .map(|c| ClientChoice {
                    id: c.id,
                    label: c.name,
                    short: c.short_name,
                    enabled: c.enabled,
                })
                .collect(),
        ))
    }

    #[oai(
        path = "/auth-api/session/universal-users",
        method = "get",
        operation_id = "listUniversalUsers"
    )]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: BasicAuth,
    ) -> Result<Json<Vec<UniversalUser>>, ApiError> {
        require(&auth.0)?;
        let mut tx = state.tenancy.public().await?;
        let users = store::universal_users::all(&mut tx).await?;
        tx.commit().await?;
        Ok(Json(users.into_iter().map(UniversalUser::from).collect()))
    }

    /// Creates a universal user and e-mails them a link to choose their password.
    #[oai(
        path = "/auth-api/session/universal-users",
        method = "post",
        operation_id = "createUniversalUser"
    )]
    async fn create(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: BasicAuth,
        body: Json<NewUniversalUserInput>,
    ) -> Result<Json<UniversalUser>, ApiError> {
        require(&auth.0)?;
        let body = body.0;
        let email = domain::Email::parse(&body.email)
            .map_err(|_| ApiError::BadRequest("Not a valid email".to_owned()))?
            .into_string();
        let permissions = checked_permissions(&body.universal_permissions)?;
        // No one knows this password: the user sets their own through the invitation link.
        let unusable = identity::secrets::random_token();
        let hash = tokio::task::spawn_blocking(move || crate::auth::hash_password(&unusable))
            .await
            .map_err(ApiError::internal)?
            .map_err(ApiError::internal)?;
        let mut tx = state.tenancy.public().await?;
        let new = store::universal_users::NewUniversalUser {
            email: &email,
            password_hash: &hash,
            first_name: body.first_name.trim(),
            last_name: body.last_name.trim(),
            all_clients: body.all_clients,
            universal_permissions: &permissions,
        };
        let id = store::universal_users::insert(&mut tx, &new).await?;
        let id = id.ok_or_else(|| ApiError::Conflict("Email already exists".to_owned()))?;
        set_clients(&mut tx, id, &body.client_ids).await?;
        let token = identity::secrets::random_token();
        challenges::open(
            &mut tx,
            &state.hasher,
            id,
            Purpose::ResetPassword,
            None,
            Some(&token),
        )
        .await?;
        audit::record(
            &mut tx,
            &actor(&auth.0, address(req)),
            "universal user created",
            serde_json::json!({ "userId": id, "email": email, "allClients": body.all_clients,
                                "clientIds": body.client_ids, "universalPermissions": permissions }),
        )
        .await?;
        let user = fetch(&mut tx, id).await?;
        tx.commit().await?;
        let notices = state.notices.clone();
        tokio::spawn(async move {
            if let Err(e) = notices.invitation(&email, &token).await {
                tracing::warn!(error = %telemetry::Chain(&e), "invitation e-mail failed");
            }
        });
        Ok(Json(user))
    }

    #[oai(
        path = "/auth-api/session/universal-users/:id",
        method = "patch",
        operation_id = "updateUniversalUser"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: BasicAuth,
        id: Path<i64>,
        body: Json<UniversalUserUpdate>,
    ) -> Result<Json<UniversalUser>, ApiError> {
        let session = auth.0;
        require(&session)?;
        let (id, body) = (id.0, body.0);
        let is_self = session.claims.user.id == id;
        let permissions = body
            .universal_permissions
            .as_deref()
            .map(checked_permissions)
            .transpose()?;
        if is_self {
            if body.enabled == Some(false) {
                return Err(ApiError::BadRequest(
                    "You cannot disable your own account".to_owned(),
                ));
            }
            if permissions
                .as_ref()
                .is_some_and(|p| !p.iter().any(|q| q == VIEW_USER))
            {
                return Err(ApiError::BadRequest(
                    "You cannot remove your own \"view user\" permission".to_owned(),
                ));
            }
        }
        let mut tx = state.tenancy.public().await?;
        let before = fetch(&mut tx, id).await?;
        let change = store::universal_users::UniversalUserChange {
            first_name: body.first_name.as_deref().map(str::trim),
            last_name: body.last_name.as_deref().map(str::trim),
            enabled: body.enabled,
            all_clients: body.all_clients,
            universal_permissions: permissions.as_deref(),
        };
        store::universal_users::update(&mut tx, id, &change).await?;
        if let Some(client_ids) = &body.client_ids {
            set_clients(&mut tx, id, client_ids).await?;
        }
        if body.enabled == Some(false) {
            sessions::revoke_all(&mut tx, id, None).await?;
        }
        let after = fetch(&mut tx, id).await?;
        audit::record(
            &mut tx,
            &actor(&session, address(req)),
            "universal user updated",
            serde_json::json!({
                "userId": id,
                "before": { "enabled": before.enabled, "allClients": before.all_clients,
                            "clientIds": before.client_ids, "universalPermissions": before.universal_permissions },
                "after": { "enabled": after.enabled, "allClients": after.all_clients,
                           "clientIds": after.client_ids, "universalPermissions": after.universal_permissions },
            }),
        )
        .await?;
        tx.commit().await?;
        Ok(Json(after))
    }
}
