//! Sign-in accounts of either realm: a client's own users (`client_users`, in its schema) and agency staff
//! (`universal_users`, in `public`). The two tables share the columns written here; [`Users`] names which one a
//! statement writes, and the caller's transaction must see that table.

use sqlx::PgConnection;

/// Which users table a statement reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Users {
    Client,
    Universal,
}

impl Users {
    fn table(self) -> &'static str {
        match self {
            Self::Client => "client_users",
            Self::Universal => "universal_users",
        }
    }

    /// `sql` with `{users}` replaced by the table's name (a literal, never input).
    fn sql(self, sql: &str) -> sqlx::AssertSqlSafe<String> {
        sqlx::AssertSqlSafe(sql.replace("{users}", self.table()))
    }

    /// Universal users are created by administrators and need no e-mail verification.
    fn verified_expr(self) -> &'static str {
        match self {
            Self::Universal => "true",
            Self::Client => "email_verified is not null",
        }
    }
}

/// One account, of either kind.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Account {
    pub id: i64,
    pub email: String,
    pub password_hash: String,
    pub first_name: String,
    pub last_name: String,
    pub phone: String,
    #[sqlx(try_from = "String")]
    pub two_factor_method: domain::TwoFactorMethod,
    pub totp_secret: Option<String>,
    pub totp_pending_secret: Option<String>,
    pub totp_last_step: i64,
    pub enabled: bool,
    pub email_verified: bool,
}

impl Account {
    /// Enabled and, for client users, verified: the only accounts that may sign in.
    pub fn may_sign_in(&self) -> bool {
        self.enabled && self.email_verified
    }
}

fn account_query(users: Users, filter: &str) -> sqlx::AssertSqlSafe<String> {
    sqlx::AssertSqlSafe(format!(
        "select id, email, password_hash, first_name, last_name, phone, two_factor_method, totp_secret,
                totp_pending_secret, totp_last_step, enabled, {verified} as email_verified
         from {table} where {filter}",
        verified = users.verified_expr(),
        table = users.table(),
    ))
}

/// The account with this (normalised) e-mail.
pub async fn find_by_email(
    conn: &mut PgConnection,
    users: Users,
    email: &str,
) -> Result<Option<Account>, sqlx::Error> {
    sqlx::query_as::<_, Account>(account_query(users, "email = $1"))
        .bind(email)
        .fetch_optional(conn)
        .await
}

pub async fn find_by_id(
    conn: &mut PgConnection,
    users: Users,
    id: i64,
) -> Result<Option<Account>, sqlx::Error> {
    sqlx::query_as::<_, Account>(account_query(users, "id = $1"))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// (id, active secret, pending secret) of the accounts holding an authenticator secret not yet sealed, locked
/// until the transaction ends.
pub async fn unsealed_totp_secrets(
    conn: &mut PgConnection,
    users: Users,
) -> Result<Vec<(i64, Option<String>, Option<String>)>, sqlx::Error> {
    sqlx::query_as(users.sql(
        "select id, totp_secret, totp_pending_secret from {users}
             where totp_secret not like 'v1:%' or totp_pending_secret not like 'v1:%'
             for update",
    ))
    .fetch_all(conn)
    .await
}

pub async fn set_totp_secrets(
    conn: &mut PgConnection,
    users: Users,
    id: i64,
    active: Option<String>,
    pending: Option<String>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        users.sql("update {users} set totp_secret = $2, totp_pending_secret = $3 where id = $1"),
    )
    .bind(id)
    .bind(active)
    .bind(pending)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn set_password(
    conn: &mut PgConnection,
    users: Users,
    id: i64,
    password_hash: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(users.sql("update {users} set password_hash = $2 where id = $1"))
        .bind(id)
        .bind(password_hash)
        .execute(conn)
        .await?;
    Ok(())
}

/// Remembers the authenticator step just accepted, so the same code is not taken twice.
pub async fn set_totp_last_step(
    conn: &mut PgConnection,
    users: Users,
    id: i64,
    step: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(users.sql("update {users} set totp_last_step = $2 where id = $1"))
        .bind(id)
        .bind(step)
        .execute(conn)
        .await?;
    Ok(())
}

/// Keeps a sealed authenticator secret until the user confirms it with a code.
pub async fn set_totp_pending_secret(
    conn: &mut PgConnection,
    users: Users,
    id: i64,
    sealed: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(users.sql("update {users} set totp_pending_secret = $2 where id = $1"))
        .bind(id)
        .bind(sealed)
        .execute(conn)
        .await?;
    Ok(())
}

/// The pending secret becomes the authenticator and the second factor becomes the app.
pub async fn confirm_totp(
    conn: &mut PgConnection,
    users: Users,
    id: i64,
    step: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(users.sql(
        "update {users} set totp_secret = totp_pending_secret, totp_pending_secret = null,
                totp_last_step = $2, two_factor_method = 'app' where id = $1",
    ))
    .bind(id)
    .bind(step)
    .execute(conn)
    .await?;
    Ok(())
}

pub struct Profile<'a> {
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub phone: &'a str,
    pub two_factor_method: &'a str,
}

pub async fn set_profile(
    conn: &mut PgConnection,
    users: Users,
    id: i64,
    profile: &Profile<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(users.sql(
        "update {users} set first_name = $2, last_name = $3, phone = $4, two_factor_method = $5 where id = $1",
    ))
    .bind(id)
    .bind(profile.first_name)
    .bind(profile.last_name)
    .bind(profile.phone)
    .bind(profile.two_factor_method)
    .execute(conn)
    .await?;
    Ok(())
}

/// Registers a client user (not yet verified); None when the e-mail is taken.
pub async fn insert_client_user(
    conn: &mut PgConnection,
    email: &str,
    password_hash: &str,
    profile: &Profile<'_>,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "insert into client_users (email, password_hash, first_name, last_name, phone, two_factor_method)
         values ($1, $2, $3, $4, $5, $6) on conflict (email) do nothing returning id",
    )
    .bind(email)
    .bind(password_hash)
    .bind(profile.first_name)
    .bind(profile.last_name)
    .bind(profile.phone)
    .bind(profile.two_factor_method)
    .fetch_optional(conn)
    .await
}

pub async fn mark_email_verified(conn: &mut PgConnection, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("update client_users set email_verified = now() where id = $1")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Ends one session of the user (when it is still live).
pub async fn revoke_session(
    conn: &mut PgConnection,
    session_id: i64,
    user_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update auth_sessions set revoked = now() where id = $1 and user_id = $2 and revoked is null",
    )
    .bind(session_id)
    .bind(user_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// (public) Whether the universal user is an administrator: every client, every permission.
pub async fn is_administrator(conn: &mut PgConnection, id: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select all_clients from universal_users where id = $1")
        .bind(id)
        .fetch_one(conn)
        .await
}

/// (public) The enabled clients an enabled universal user may use as (id, name, short name), by name; only the
/// one named `short` when given.
pub async fn clients_of_universal_user(
    conn: &mut PgConnection,
    user_id: i64,
    short: Option<&str>,
) -> Result<Vec<(i64, String, String)>, sqlx::Error> {
    sqlx::query_as(
        "select c.id, c.name, c.short_name from clients c
         join universal_users u on u.id = $1 and u.enabled
         where c.enabled and ($2::text is null or c.short_name = $2)
           and (u.all_clients or exists (
             select 1 from universal_user_clients g where g.user_id = u.id and g.client_id = c.id))
         order by c.name, c.id",
    )
    .bind(user_id)
    .bind(short)
    .fetch_all(conn)
    .await
}

/// (public) A universal user to create, or to update when the e-mail is taken.
pub struct UniversalUpsert<'a> {
    pub email: &'a str,
    pub password_hash: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub all_clients: bool,
    pub permissions: &'a [&'a str],
    pub universal_permissions: &'a [&'a str],
}

/// (public) Creates or updates (and enables) a universal user; returns its id.
pub async fn upsert_universal_user(
    conn: &mut PgConnection,
    user: &UniversalUpsert<'_>,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "insert into universal_users (email, password_hash, first_name, last_name, all_clients, permissions,
                                      universal_permissions)
         values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (email) do update set password_hash = excluded.password_hash,
             first_name = excluded.first_name, last_name = excluded.last_name,
             all_clients = excluded.all_clients, permissions = excluded.permissions,
             universal_permissions = excluded.universal_permissions, enabled = true
         returning id",
    )
    .bind(user.email)
    .bind(user.password_hash)
    .bind(user.first_name)
    .bind(user.last_name)
    .bind(user.all_clients)
    .bind(user.permissions)
    .bind(user.universal_permissions)
    .fetch_one(conn)
    .await
}

/// (public) Lets the universal user use the client named `short`; false when the grant was there already or no
/// client has that name.
pub async fn grant_client(
    conn: &mut PgConnection,
    user_id: i64,
    short: &str,
) -> Result<bool, sqlx::Error> {
    let granted = sqlx::query(
        "insert into universal_user_clients (user_id, client_id)
             select $1, id from clients where short_name = $2 on conflict do nothing",
    )
    .bind(user_id)
    .bind(short)
    .execute(conn)
    .await?;
    Ok(granted.rows_affected() > 0)
}

/// (public) Whether a client has the short name.
pub async fn client_exists(conn: &mut PgConnection, short: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from clients where short_name = $1)")
        .bind(short)
        .fetch_one(conn)
        .await
}
