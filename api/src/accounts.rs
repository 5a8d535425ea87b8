//! Creating universal users from the command line and from tests.

use crate::auth::{hash_password, PAGE_PERMISSIONS, UNIVERSAL_PERMISSIONS};
use crate::error::ApiError;
use tenancy::Tenancy;

#[derive(Debug, Clone)]
pub struct NewUniversalUser {
    pub email: String,
    pub password: String,
    pub first_name: String,
    pub last_name: String,
    /// An administrator may use every client and holds every permission; others get only `clients`.
    pub admin: bool,
    /// Short names of the clients a non-administrator may use.
    pub clients: Vec<String>,
}

/// Creates (or, for an existing e-mail, updates) a universal user. Returns the user's id.
pub async fn upsert_universal_user(
    tenancy: &Tenancy,
    user: &NewUniversalUser,
) -> Result<i64, ApiError> {
    let email = domain::Email::parse(&user.email)
        .map_err(|_| ApiError::BadRequest(format!("not a valid email: {:?}", user.email)))?
        .into_string();
    if user.password.chars().count() < 8 {
        return Err(ApiError::BadRequest(
            "password must have at least 8 characters".to_owned(),
        ));
    }
    let hash = hash_password(&user.password).map_err(ApiError::internal)?;
    let (permissions, universal): (Vec<&str>, Vec<&str>) = if user.admin {
        (PAGE_PERMISSIONS.to_vec(), UNIVERSAL_PERMISSIONS.to_vec())
    } else {
        (Vec::new(), Vec::new())
    };
    let mut tx = tenancy.public().await?;
    let upsert = store::accounts::UniversalUpsert {
        email: &email,
        password_hash: &hash,
        first_name: &user.first_name,
        last_name: &user.last_name,
        all_clients: user.admin,
        permissions: &permissions,
        universal_permissions: &universal,
    };
    let id = store::accounts::upsert_universal_user(&mut tx, &upsert).await?;
    for short in &user.clients {
        if !store::accounts::grant_client(&mut tx, id, short).await?
            && !store::accounts::client_exists(&mut tx, short).await?
        {
            return Err(ApiError::NotFound(format!(
                "no client with short name {short:?}"
            )));
        }
    }
    tx.commit().await?;
    Ok(id)
}
