//! Relays' webhooks: each client's settings per provider, the SNS subscriptions waiting to be confirmed, and the
//! Mailgun tokens already seen.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use std::collections::HashMap;

/// One provider's webhook settings as stored (secrets sealed or hashed).
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Settings {
    pub provider: String,
    pub enabled: bool,
    pub postmark_username: Option<String>,
    pub postmark_password_hash: Option<String>,
    pub mailgun_signing_key: Option<String>,
    pub sendgrid_public_key: Option<String>,
    pub ses_topic_arns: Vec<String>,
}

/// A change to one provider's settings; `None` leaves a field as it is, `Some(None)` clears it.
#[derive(Debug, Default)]
pub struct Change {
    pub enabled: Option<bool>,
    pub postmark_username: Option<Option<String>>,
    pub postmark_password_hash: Option<Option<String>>,
    pub mailgun_signing_key: Option<Option<String>>,
    pub sendgrid_public_key: Option<Option<String>>,
    pub ses_topic_arns: Option<Vec<String>>,
}

const COLUMNS: &str =
    "provider, enabled, postmark_username, postmark_password_hash, mailgun_signing_key,
    sendgrid_public_key, ses_topic_arns";

/// Every provider's stored settings (a provider never set has no row).
pub async fn all(conn: &mut PgConnection) -> Result<Vec<Settings>, sqlx::Error> {
    // COLUMNS is a constant of this module.
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from delivery_webhooks order by provider"
    )))
    .fetch_all(conn)
    .await
}

/// One provider's stored settings.
pub async fn get(conn: &mut PgConnection, provider: &str) -> Result<Option<Settings>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from delivery_webhooks where provider = $1"
    )))
    .bind(provider)
    .fetch_optional(conn)
    .await
}

/// Applies `change` to the provider's settings (making its row when there is none).
pub async fn update(
    conn: &mut PgConnection,
    provider: &str,
    change: Change,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into delivery_webhooks (provider) values ($1) on conflict (provider) do nothing",
    )
    .bind(provider)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "update delivery_webhooks set
            enabled = coalesce($2, enabled),
            postmark_username = case when $3 then $4 else postmark_username end,
            postmark_password_hash = case when $5 then $6 else postmark_password_hash end,
            mailgun_signing_key = case when $7 then $8 else mailgun_signing_key end,
            sendgrid_public_key = case when $9 then $10 else sendgrid_public_key end,
            ses_topic_arns = coalesce($11, ses_topic_arns),
            updated_at = now()
         where provider = $1",
    )
    .bind(provider)
    .bind(change.enabled)
    .bind(change.postmark_username.is_some())
    .bind(change.postmark_username.flatten())
    .bind(change.postmark_password_hash.is_some())
    .bind(change.postmark_password_hash.flatten())
    .bind(change.mailgun_signing_key.is_some())
    .bind(change.mailgun_signing_key.flatten())
    .bind(change.sendgrid_public_key.is_some())
    .bind(change.sendgrid_public_key.flatten())
    .bind(change.ses_topic_arns)
    .execute(conn)
    .await?;
    Ok(())
}

/// An SNS subscription confirmation as received.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Subscription {
    pub topic_arn: String,
    pub subscribe_url: String,
    pub received_at: DateTime<Utc>,
    pub confirmed_at: Option<DateTime<Utc>>,
}

/// Keeps the latest confirmation request of a topic.
pub async fn save_subscription(
    conn: &mut PgConnection,
    topic_arn: &str,
    subscribe_url: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into ses_subscriptions (topic_arn, subscribe_url) values ($1, $2)
         on conflict (topic_arn) do update
         set subscribe_url = excluded.subscribe_url, received_at = now(), confirmed_at = null",
    )
    .bind(topic_arn)
    .bind(subscribe_url)
    .execute(conn)
    .await?;
    Ok(())
}

/// Notes that the subscription of `topic_arn` was confirmed.
pub async fn confirm_subscription(
    conn: &mut PgConnection,
    topic_arn: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("update ses_subscriptions set confirmed_at = now() where topic_arn = $1")
        .bind(topic_arn)
        .execute(conn)
        .await?;
    Ok(())
}

/// The subscriptions, newest first.
pub async fn subscriptions(conn: &mut PgConnection) -> Result<Vec<Subscription>, sqlx::Error> {
    sqlx::query_as(
        "select topic_arn, subscribe_url, received_at, confirmed_at from ses_subscriptions
         order by received_at desc",
    )
    .fetch_all(conn)
    .await
}

/// How a Mailgun token was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    /// Never seen before.
    New,
    /// Seen with the same event: Mailgun sending the event again.
    Retry,
    /// Seen with another event: a replay.
    Replayed,
}

/// Notes Mailgun tokens with the events they signed, answered in order as if they had been taken one after the
/// other: a token twice in `taken` is new the first time and a retry or a replay after. Tokens older than a day
/// are forgotten (the timestamp check refuses anything that old). Call it under the client's webhook [`lock`],
/// which keeps two rounds from taking one token.
pub async fn take_mailgun_tokens(
    conn: &mut PgConnection,
    taken: &[(&str, &str)],
) -> Result<Vec<Token>, sqlx::Error> {
    if taken.is_empty() {
        return Ok(Vec::new());
    }
    sqlx::query("delete from mailgun_tokens where seen_at < now() - interval '1 day'")
        .execute(&mut *conn)
        .await?;
    let tokens: Vec<&str> = taken.iter().map(|(t, _)| *t).collect();
    let mut seen: HashMap<String, String> = sqlx::query_as::<_, (String, String)>(
        "select token, event_id from mailgun_tokens where token = any($1)",
    )
    .bind(&tokens)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .collect();
    let mut answers = Vec::with_capacity(taken.len());
    let (mut new_tokens, mut new_events) = (Vec::new(), Vec::new());
    for (token, event_id) in taken {
        answers.push(match seen.get(*token) {
            Some(first) if first == event_id => Token::Retry,
            Some(_) => Token::Replayed,
            None => {
                seen.insert((*token).to_owned(), (*event_id).to_owned());
                new_tokens.push(*token);
                new_events.push(*event_id);
                Token::New
            }
        });
    }
    if !new_tokens.is_empty() {
        sqlx::query(
            "insert into mailgun_tokens (token, event_id) select * from unnest($1::text[], $2::text[])
             on conflict (token) do nothing",
        )
        .bind(&new_tokens)
        .bind(&new_events)
        .execute(&mut *conn)
        .await?;
    }
    Ok(answers)
}

/// Which of `ids` are already stored as events of `source`.
pub async fn known_events(
    conn: &mut PgConnection,
    source: super::Source,
    ids: &[String],
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "select source_event_id from delivery_events where source = $1 and source_event_id = any($2)",
    )
    .bind(source.as_str())
    .bind(ids)
    .fetch_all(conn)
    .await
}

/// Holds, until the transaction ends, the client's webhook lock: two deliveries of the same events wait for each
/// other instead of both keeping their evidence.
pub async fn lock(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query("select pg_advisory_xact_lock(hashtextextended('delivery-webhook:' || current_schema(), 0))")
        .execute(conn)
        .await?;
    Ok(())
}
