//! Writing the audit trail (`audit_events`, in `public` or the client's schema): sign-ins and changes to users,
//! roles and permissions, in the same transaction as the change they describe. Reading it is `users::audit_events`.

use serde_json::Value;
use sqlx::PgConnection;

/// Who did it.
#[derive(Debug, Clone)]
pub struct Actor {
    pub kind: &'static str,
    pub id: Option<i64>,
    pub email: String,
    pub address: String,
}

pub async fn record(
    conn: &mut PgConnection,
    actor: &Actor,
    action: &str,
    detail: Value,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into audit_events (actor_kind, actor_id, actor_email, action, detail, address)
         values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(actor.kind)
    .bind(actor.id)
    .bind(&actor.email)
    .bind(action)
    .bind(detail)
    .bind(&actor.address)
    .execute(conn)
    .await?;
    Ok(())
}
