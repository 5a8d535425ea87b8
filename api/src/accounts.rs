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
    let id: i64 = sqlx::query_scalar(
        "insert into universal_users (email, password_hash, first_name, last_name, all_clients, permissions,
                                      universal_permissions)
         values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (email) do update set password_hash = excluded.password_hash,
             first_name = excluded.first_name, last_name = excluded.last_name,
             all_clients = excluded.all_clients, permissions = excluded.permissions,
             universal_permissions = excluded.universal_permissions, enabled = true
         returning id",
    )
    .bind(&email)
    .bind(&hash)
    .bind(&user.first_name)
    .bind(&user.last_name)
    .bind(user.admin)
    .bind(&permissions)
    .bind(&universal)
    .fetch_one(&mut *tx)
    .await?;
    for short in &user.clients {
        let granted = sqlx::query(
            "insert into universal_user_clients (user_id, client_id)
             select $1, id from clients where short_name = $2 on conflict do nothing",
        )
        .bind(id)
        .bind(short)
        .execute(&mut *tx)
        .await?;
        if granted.rows_affected() == 0 {
            let known: bool =
                sqlx::query_scalar("select exists (select 1 from clients where short_name = $1)")
                    .bind(short)
                    .fetch_one(&mut *tx)
                    .await?;
            if !known {
                return Err(ApiError::NotFound(format!(
                    "no client with short name {short:?}"
                )));
            }
        }
    }
    tx.commit().await?;
    Ok(id)
}
