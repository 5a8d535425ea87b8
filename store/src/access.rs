//! What a signed-in user may do, asked on every request: whether the session is live, which clients a universal
//! user may use and which permissions roles give. Sessions and users of `public` need a public transaction;
//! client users' sessions and roles need the client's.

use sqlx::PgConnection;

/// (public) Whether an enabled universal user may act for a client: administrators everywhere, others where
/// granted.
pub async fn may_use_client(
    conn: &mut PgConnection,
    user_id: i64,
    client_id: i64,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "select exists (
             select 1 from universal_users u
             where u.id = $1 and u.enabled
               and (u.all_clients or exists (
                   select 1 from universal_user_clients g where g.user_id = u.id and g.client_id = $2))
         )",
    )
    .bind(user_id)
    .bind(client_id)
    .fetch_one(conn)
    .await
}

/// What a universal user may do in the live session `session_id`: (may use `client_id`, is an administrator,
/// universal permissions); `None` when the session is revoked, expired or the user disabled.
pub async fn universal_access(
    conn: &mut PgConnection,
    session_id: i64,
    user_id: i64,
    client_id: Option<i64>,
) -> Result<Option<(bool, bool, Vec<String>)>, sqlx::Error> {
    sqlx::query_as(
        "select ($3::bigint is null or u.all_clients or exists (
                    select 1 from universal_user_clients g where g.user_id = u.id and g.client_id = $3)),
                u.all_clients, u.universal_permissions
         from auth_sessions s join universal_users u on u.id = s.user_id
         where s.id = $1 and s.user_id = $2 and s.revoked is null and s.expires > now() and u.enabled",
    )
    .bind(session_id)
    .bind(user_id)
    .bind(client_id)
    .fetch_optional(conn)
    .await
}

/// The page and client permissions a user of kind `user_kind` holds in the client through roles, by name.
pub async fn role_permissions(
    conn: &mut PgConnection,
    user_kind: &str,
    user_id: i64,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "select distinct p from user_roles ur join roles r on r.id = ur.role_id, unnest(r.permissions) p
             where ur.user_kind = $1 and ur.user_id = $2 order by p",
    )
    .bind(user_kind)
    .bind(user_id)
    .fetch_all(conn)
    .await
}

/// Whether a client user's session is live and the account still enabled and verified.
pub async fn client_user_session_live(
    conn: &mut PgConnection,
    session_id: i64,
    user_id: i64,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "select exists (select 1 from auth_sessions s join client_users u on u.id = s.user_id
                            where s.id = $1 and s.user_id = $2 and s.revoked is null and s.expires > now()
                              and u.enabled and u.email_verified is not null)",
    )
    .bind(session_id)
    .bind(user_id)
    .fetch_one(conn)
    .await
}
