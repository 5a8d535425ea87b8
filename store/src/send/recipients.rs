//! The recipient rows of a send as the mail server answers: the next queued ones to send, and each one's
//! status once the server accepted, refused or deferred its message.

use sqlx::PgConnection;

/// A queued recipient: contact id, address, first name and variant letter.
pub type Queued = (i64, String, String, String);

/// Up to `limit` queued recipients after `cursor` (a contact id) whose contact is still subscribed and whose
/// address is not suppressed, in contact order.
pub async fn next_queued(
    conn: &mut PgConnection,
    mailing_id: i64,
    cursor: i64,
    limit: i64,
) -> Result<Vec<Queued>, sqlx::Error> {
    sqlx::query_as(
        // The subscription is looked up per row by primary key: a join would let the planner scan every
        // contact for each batch when the contacts' statistics are stale (say, right after a big import).
        "select r.contact_id, r.email, r.first_name, r.variant
         from (select contact_id, email, first_name, variant from mailing_recipients
               where mailing_id = $1 and status = 'queued' and contact_id > $2
               order by contact_id limit $3) r
         where (select c.subscription from contacts c where c.id = r.contact_id) = 'subscribed'
           and not exists (select 1 from suppressions x where x.email = r.email and x.lifted_at is null)
         order by r.contact_id",
    )
    .bind(mailing_id)
    .bind(cursor)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Queued recipients whose contact unsubscribed, bounced or was suppressed since the recipients were chosen are not sent to.
pub async fn fail_unsubscribed(
    conn: &mut PgConnection,
    mailing_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update mailing_recipients r set status = 'failed', error = 'Unsubscribed, bounced or suppressed before sending'
             from contacts c
             where r.mailing_id = $1 and r.status = 'queued' and c.id = r.contact_id
               and (c.subscription <> 'subscribed'
                    or exists (select 1 from suppressions x where x.email = c.email and x.lifted_at is null))",
    )
    .bind(mailing_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks `contact_ids` sent: the server accepted their messages.
pub async fn mark_sent(
    conn: &mut PgConnection,
    mailing_id: i64,
    contact_ids: &[i64],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update mailing_recipients set status = 'sent', error = null, sent_at = now()
                 where mailing_id = $1 and contact_id = any ($2)",
    )
    .bind(mailing_id)
    .bind(contact_ids)
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks the still queued among `contact_ids` sent: an earlier attempt handed their messages to the server
/// without living to record it (the send journal says so).
pub async fn mark_handed_over(
    conn: &mut PgConnection,
    mailing_id: i64,
    contact_ids: &[i64],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update mailing_recipients set status = 'sent', error = null, sent_at = now()
             where mailing_id = $1 and contact_id = any ($2) and status = 'queued'",
    )
    .bind(mailing_id)
    .bind(contact_ids)
    .execute(conn)
    .await?;
    Ok(())
}

/// Sets one recipient's status (`status` is a `DeliveryStatus` as stored) and the server's error.
pub async fn mark(
    conn: &mut PgConnection,
    mailing_id: i64,
    contact_id: i64,
    status: &str,
    error: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update mailing_recipients set status = $3, error = $4,
                sent_at = case when $3 = 'sent' then now() else sent_at end
         where mailing_id = $1 and contact_id = $2",
    )
    .bind(mailing_id)
    .bind(contact_id)
    .bind(status)
    .bind(error)
    .execute(conn)
    .await?;
    Ok(())
}

/// The rest of the transaction commits without waiting for the disk: for the frequent `sent` writes, which the
/// send journal covers until the send's final, waiting commit.
pub async fn commit_without_waiting(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query("set local synchronous_commit = off")
        .execute(conn)
        .await?;
    Ok(())
}
