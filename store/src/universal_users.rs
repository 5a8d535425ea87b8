//! (public) Universal users: agency staff accounts, the clients each may use and their universal permissions.
//! Every function here takes a transaction in the `public` schema.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

#[derive(Debug, sqlx::FromRow)]
pub struct UniversalUser {
    pub id: i64,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub enabled: bool,
    pub all_clients: bool,
    pub universal_permissions: Vec<String>,
    /// The clients this user may use (when not `all_clients`), by id.
    pub client_ids: Vec<i64>,
    pub two_factor_method: String,
    pub created: DateTime<Utc>,
}

const COLUMNS: &str = "u.id, u.email, u.first_name, u.last_name, u.enabled, u.all_clients,
    u.universal_permissions, u.two_factor_method, u.created,
    coalesce((select array_agg(g.client_id order by g.client_id) from universal_user_clients g
              where g.user_id = u.id), '{}') as client_ids";

/// Every universal user, by e-mail.
pub async fn all(conn: &mut PgConnection) -> Result<Vec<UniversalUser>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from universal_users u order by u.email"
    )))
    .fetch_all(conn)
    .await
}

pub async fn get(conn: &mut PgConnection, id: i64) -> Result<Option<UniversalUser>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from universal_users u where u.id = $1"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await
}

pub struct NewUniversalUser<'a> {
    pub email: &'a str,
    pub password_hash: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub all_clients: bool,
    pub universal_permissions: &'a [String],
}

/// Adds a universal user (second factor by e-mail); None when the e-mail is taken.
pub async fn insert(
    conn: &mut PgConnection,
    user: &NewUniversalUser<'_>,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "insert into universal_users (email, password_hash, first_name, last_name, all_clients,
                                      universal_permissions, two_factor_method)
         values ($1, $2, $3, $4, $5, $6, 'email') on conflict (email) do nothing returning id",
    )
    .bind(user.email)
    .bind(user.password_hash)
    .bind(user.first_name)
    .bind(user.last_name)
    .bind(user.all_clients)
    .bind(user.universal_permissions)
    .fetch_optional(conn)
    .await
}

/// Fields to change; None leaves a field as it is.
pub struct UniversalUserChange<'a> {
    pub first_name: Option<&'a str>,
    pub last_name: Option<&'a str>,
    pub enabled: Option<bool>,
    pub all_clients: Option<bool>,
    pub universal_permissions: Option<&'a [String]>,
}

pub async fn update(
    conn: &mut PgConnection,
    id: i64,
    change: &UniversalUserChange<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update universal_users set first_name = coalesce($2, first_name), last_name = coalesce($3, last_name),
                enabled = coalesce($4, enabled), all_clients = coalesce($5, all_clients),
                universal_permissions = coalesce($6, universal_permissions)
         where id = $1",
    )
    .bind(id)
    .bind(change.first_name)
    .bind(change.last_name)
    .bind(change.enabled)
    .bind(change.all_clients)
    .bind(change.universal_permissions)
    .execute(conn)
    .await?;
    Ok(())
}

/// How many of `ids` name a client (count each id once).
pub async fn known_clients(conn: &mut PgConnection, ids: &[i64]) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(distinct id) from clients where id = any($1)")
        .bind(ids)
        .fetch_one(conn)
        .await
}

/// Replaces the clients the user may use with `client_ids` (distinct, all known).
pub async fn set_clients(
    conn: &mut PgConnection,
    user_id: i64,
    client_ids: &[i64],
) -> Result<(), sqlx::Error> {
    sqlx::query("delete from universal_user_clients where user_id = $1")
        .bind(user_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "insert into universal_user_clients (user_id, client_id) select $1, unnest($2::bigint[])",
    )
    .bind(user_id)
    .bind(client_ids)
    .execute(conn)
    .await?;
    Ok(())
}
