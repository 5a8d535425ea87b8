//! Users, their roles and the audit trail: Manage Users, Manage Roles and Manage Universal Users.
//!
//! Client users, roles, role grants and the audit trail live in the client's schema; universal users (agency
//! staff) and the clients they may use live in `public`, so those functions take a public transaction.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// A user row of either table; `flag` is "email verified" for client users, "administrator" for universal ones.
#[derive(Debug, sqlx::FromRow)]
pub struct UserRow {
    pub id: i64,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub enabled: bool,
    pub flag: bool,
    pub created: DateTime<Utc>,
}

/// (public) The universal users who may use the client `client_id`, by e-mail.
pub async fn universal_users_of(
    conn: &mut PgConnection,
    client_id: i64,
) -> Result<Vec<UserRow>, sqlx::Error> {
    sqlx::query_as(
        "select id, email, first_name, last_name, enabled, all_clients as flag, created from universal_users u
         where u.all_clients or exists (
             select 1 from universal_user_clients g where g.user_id = u.id and g.client_id = $1)
         order by email",
    )
    .bind(client_id)
    .fetch_all(conn)
    .await
}

/// The client's own users, by e-mail.
pub async fn client_users(conn: &mut PgConnection) -> Result<Vec<UserRow>, sqlx::Error> {
    sqlx::query_as(
        "select id, email, first_name, last_name, enabled, email_verified is not null as flag, created
         from client_users order by email",
    )
    .fetch_all(conn)
    .await
}

/// Every role grant as (user kind, user id, role id), by role.
pub async fn role_grants(conn: &mut PgConnection) -> Result<Vec<(String, i64, i64)>, sqlx::Error> {
    sqlx::query_as("select user_kind, user_id, role_id from user_roles order by role_id")
        .fetch_all(conn)
        .await
}

pub async fn client_user_exists(conn: &mut PgConnection, id: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from client_users where id = $1)")
        .bind(id)
        .fetch_one(conn)
        .await
}

pub async fn set_client_user_enabled(
    conn: &mut PgConnection,
    id: i64,
    enabled: bool,
) -> Result<(), sqlx::Error> {
    sqlx::query("update client_users set enabled = $2 where id = $1")
        .bind(id)
        .bind(enabled)
        .execute(conn)
        .await?;
    Ok(())
}

/// How many of `ids` name a role (count each id once).
pub async fn known_roles(conn: &mut PgConnection, ids: &[i64]) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(*) from roles where id = any($1)")
        .bind(ids)
        .fetch_one(conn)
        .await
}

/// Replaces the roles a user holds in the client with `role_ids` (distinct, all known).
pub async fn set_user_roles(
    conn: &mut PgConnection,
    user_kind: &str,
    user_id: i64,
    role_ids: &[i64],
) -> Result<(), sqlx::Error> {
    sqlx::query("delete from user_roles where user_kind = $1 and user_id = $2")
        .bind(user_kind)
        .bind(user_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "insert into user_roles (user_kind, user_id, role_id) select $1, $2, unnest($3::bigint[])",
    )
    .bind(user_kind)
    .bind(user_id)
    .bind(role_ids)
    .execute(conn)
    .await?;
    Ok(())
}

/// A role with the number of users holding it.
#[derive(Debug, sqlx::FromRow)]
pub struct Role {
    pub id: i64,
    pub name: String,
    pub permissions: Vec<String>,
    pub created: DateTime<Utc>,
    pub user_count: i64,
}

const ROLE_COLUMNS: &str = "r.id, r.name, r.permissions, r.created,
    (select count(*) from user_roles ur where ur.role_id = r.id) as user_count";

/// The client's roles, by name.
pub async fn roles(conn: &mut PgConnection) -> Result<Vec<Role>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {ROLE_COLUMNS} from roles r order by r.name"
    )))
    .fetch_all(conn)
    .await
}

pub async fn role(conn: &mut PgConnection, id: i64) -> Result<Role, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {ROLE_COLUMNS} from roles r where r.id = $1"
    )))
    .bind(id)
    .fetch_one(conn)
    .await
}

/// Adds a role; a name already taken fails with the unique index's violation.
pub async fn insert_role(
    conn: &mut PgConnection,
    name: &str,
    permissions: &[String],
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("insert into roles (name, permissions) values ($1, $2) returning id")
        .bind(name)
        .bind(permissions)
        .fetch_one(conn)
        .await
}

/// Renames a role and sets its permissions; false when there is no such role.
pub async fn update_role(
    conn: &mut PgConnection,
    id: i64,
    name: &str,
    permissions: &[String],
) -> Result<bool, sqlx::Error> {
    let updated = sqlx::query("update roles set name = $2, permissions = $3 where id = $1")
        .bind(id)
        .bind(name)
        .bind(permissions)
        .execute(conn)
        .await?;
    Ok(updated.rows_affected() > 0)
}

/// Deletes a role (its grants go with it); its name, or None when there was no such role.
pub async fn delete_role(conn: &mut PgConnection, id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("delete from roles where id = $1 returning name")
        .bind(id)
        .fetch_optional(conn)
        .await
}

#[derive(Debug, sqlx::FromRow)]
pub struct AuditEvent {
    pub id: i64,
    pub at: DateTime<Utc>,
    pub actor_kind: String,
    pub actor_email: String,
    pub action: String,
    pub detail: serde_json::Value,
    pub address: String,
}

/// The newest `limit` audit events.
pub async fn audit_events(
    conn: &mut PgConnection,
    limit: i64,
) -> Result<Vec<AuditEvent>, sqlx::Error> {
    sqlx::query_as(
        "select id, at, actor_kind, actor_email, action, detail, address from audit_events
         order by at desc, id desc limit $1",
    )
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// (public) The enabled universal users who may use the client `client_id`, as (e-mail, name).
pub async fn universal_recipients(
    conn: &mut PgConnection,
    client_id: i64,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    sqlx::query_as(
        "select email, btrim(first_name || ' ' || last_name) as name from universal_users u
         where u.enabled and (u.all_clients or exists (
             select 1 from universal_user_clients g where g.user_id = u.id and g.client_id = $1))",
    )
    .bind(client_id)
    .fetch_all(conn)
    .await
}

/// The client's enabled users, as (e-mail, name).
pub async fn client_recipients(
    conn: &mut PgConnection,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    sqlx::query_as(
        "select email, btrim(first_name || ' ' || last_name) as name from client_users where enabled",
    )
    .fetch_all(conn)
    .await
}
