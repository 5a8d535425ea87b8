//! Manage Roles: the client's roles and the permissions they grant ("edit role").

use super::actor;
use crate::auth::{ClientAuth, Needs, ALL_CLIENT_PERMISSIONS, EDIT_ROLE, VIEW_USER};
use crate::error::ApiError;
use crate::identity::audit;
use crate::identity::sign_in::address;
use crate::routes::{ApiTags, Deleted};
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct RolesApi;

#[derive(Debug, Object)]
pub struct Role {
    pub id: i64,
    pub name: String,
    pub permissions: Vec<String>,
    #[oai(rename = "userCount")]
    pub user_count: i64,
    pub created: DateTime<Utc>,
}

#[derive(Debug, Object)]
pub struct RoleInput {
    #[oai(validator(max_length = 100))]
    pub name: String,
    pub permissions: Vec<String>,
}

#[derive(Debug, Object)]
pub struct PermissionOption {
    pub id: String,
    pub label: String,
}

/// Role names are trimmed and non-empty; permissions must be known ones, kept in the screens' order.
fn checked_role(input: RoleInput) -> Result<(String, Vec<String>), ApiError> {
    let name = input.name.trim().to_owned();
    if name.is_empty() {
        return Err(ApiError::BadRequest("A role needs a name".to_owned()));
    }
    if let Some(unknown) = input
        .permissions
        .iter()
        .find(|p| !ALL_CLIENT_PERMISSIONS.contains(&p.as_str()))
    {
        return Err(ApiError::BadRequest(format!(
            "Unknown permission: {unknown}"
        )));
    }
    let permissions = ALL_CLIENT_PERMISSIONS
        .iter()
        .filter(|p| input.permissions.iter().any(|q| q == *p))
        .map(|p| p.to_string())
        .collect();
    Ok((name, permissions))
}

fn role_conflict(e: sqlx::Error) -> ApiError {
    match &e {
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            ApiError::Conflict("A role with this name already exists".to_owned())
        }
        _ => ApiError::from(e),
    }
}

impl From<store::users::Role> for Role {
    fn from(r: store::users::Role) -> Self {
        Self {
            id: r.id,
            name: r.name,
            permissions: r.permissions,
            user_count: r.user_count,
            created: r.created,
        }
    }
}

#[OpenApi(tag = "ApiTags::Users")]
impl RolesApi {
    /// The client's roles.
    #[oai(path = "/api/roles", method = "get", operation_id = "listRoles")]
    async fn roles(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<Role>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, Needs::AnyOf(&[VIEW_USER, EDIT_ROLE]), async |tx| {
                Ok(store::users::roles(tx).await?)
            })
            .await?;
        Ok(Json(rows.into_iter().map(Role::from).collect()))
    }

    /// Every permission a role may hold.
    #[oai(
        path = "/api/roles/permission-names",
        method = "get",
        operation_id = "listPermissionNames"
    )]
    async fn permission_names(
        &self,
        _auth: ClientAuth,
    ) -> Result<Json<Vec<PermissionOption>>, ApiError> {
        // The answer holds no client data, but the token is checked all the same: its 401 is declared.
        Ok(Json(
            ALL_CLIENT_PERMISSIONS
                .iter()
                .map(|p| PermissionOption {
                    id: p.to_string(),
                    label: permission_label(p).to_owned(),
                })
                .collect(),
        ))
    }

    #[oai(path = "/api/roles", method = "post", operation_id = "createRole")]
    async fn create_role(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: ClientAuth,
        body: Json<RoleInput>,
    ) -> Result<Json<Role>, ApiError> {
        let session = auth.0;
        session.check(EDIT_ROLE)?;
        let (name, permissions) = checked_role(body.0)?;
        let actor = actor(&session, address(req));
        let role = session
            .tx(&state, EDIT_ROLE, async |tx| {
                let id = store::users::insert_role(tx, &name, &permissions)
                    .await
                    .map_err(role_conflict)?;
                audit::record(
                    tx,
                    &actor,
                    "role created",
                    serde_json::json!({ "roleId": id, "name": name, "permissions": permissions }),
                )
                .await?;
                Ok(store::users::role(tx, id).await?)
            })
            .await?;
        Ok(Json(role.into()))
    }

    #[oai(path = "/api/roles/:id", method = "patch", operation_id = "updateRole")]
    async fn update_role(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: ClientAuth,
        id: Path<i64>,
        body: Json<RoleInput>,
    ) -> Result<Json<Role>, ApiError> {
        let session = auth.0;
        session.check(EDIT_ROLE)?;
        let (name, permissions) = checked_role(body.0)?;
        let actor = actor(&session, address(req));
        let role = session
            .tx(&state, EDIT_ROLE, async |tx| {
                let updated = store::users::update_role(tx, id.0, &name, &permissions)
                    .await
                    .map_err(role_conflict)?;
                if !updated {
                    return Err(ApiError::NotFound("Role not found".to_owned()));
                }
                audit::record(
                    tx,
                    &actor,
                    "role updated",
                    serde_json::json!({ "roleId": id.0, "name": name, "permissions": permissions }),
                )
                .await?;
                Ok(store::users::role(tx, id.0).await?)
            })
            .await?;
        Ok(Json(role.into()))
    }

    #[oai(
        path = "/api/roles/:id",
        method = "delete",
        operation_id = "deleteRole"
    )]
    async fn delete_role(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Deleted, ApiError> {
        let session = auth.0;
        let actor = actor(&session, address(req));
        session
            .tx(&state, EDIT_ROLE, async |tx| {
                let Some(name) = store::users::delete_role(tx, id.0).await? else {
                    return Err(ApiError::NotFound("Role not found".to_owned()));
                };
                audit::record(
                    tx,
                    &actor,
                    "role deleted",
                    serde_json::json!({ "roleId": id.0, "name": name }),
                )
                .await?;
                Ok(())
            })
            .await?;
        Ok(Deleted::Deleted)
    }
}

/// What screens call a permission: the page's menu name, or what it lets one do.
fn permission_label(permission: &str) -> &str {
    match permission {
        "pageContributions" => "Contributions",
        "pageSegments" => "Segments",
        "pageContactOriginCodes" => "Contact Origin Codes",
        "pageContributionSourceCodes" => "Contribution Source Codes",
        "pagePlanning" => "Planning",
        "pagePerformance" => "Performance",
        "pageContacts" => "Contacts",
        "pageMedia" => "Media",
        "pageProjections" => "Projections",
        "pageReports" => "Reports",
        "view user" => "Manage users",
        "edit role" => "Manage roles",
        other => other,
    }
}
