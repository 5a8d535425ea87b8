//! Sending a confirmed mailing: what the send reads of the mailing (its variants with their senders, its send
//! attempt), the recipient rows it writes once, and the mailing's delivery state. Each recipient row's status as
//! the server answers is in [`recipients`]. The worker's send job holds the transactions and the order.

pub mod recipients;

use sqlx::PgConnection;

/// A variant's letter, subject line, preview text and body, and its sender's name, address and reply-to (all
/// three `None` when the sender was deleted).
pub type VariantRow = (
    String,
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// The mailing's variants, `a` (the mailing itself) first, each with its own fields or else the mailing's;
/// empty when the mailing is gone.
pub async fn variants(
    conn: &mut PgConnection,
    mailing_id: i64,
) -> Result<Vec<VariantRow>, sqlx::Error> {
    sqlx::query_as(
        "select v.letter, v.subject_line, v.preview_text, v.body_html, s.name, s.from_address, s.reply_to
         from (select 'a' as letter, m.subject_line, m.preview_text, m.body_html, m.sender_id
               from mailings m where m.id = $1
               union all
               select x.letter, coalesce(x.subject_line, m.subject_line),
                      coalesce(x.preview_text, m.preview_text), coalesce(x.body_html, m.body_html),
                      coalesce(x.sender_id, m.sender_id)
               from mailing_variants x join mailings m on m.id = x.mailing_id where x.mailing_id = $1) v
         left join senders s on s.id = v.sender_id
         order by v.letter",
    )
    .bind(mailing_id)
    .fetch_all(conn)
    .await
}

/// When the send was confirmed, in microseconds since the epoch: it names the attempt's send journal.
pub async fn send_attempt(
    conn: &mut PgConnection,
    mailing_id: i64,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "select (extract(epoch from send_attempt) * 1000000)::bigint from mailings where id = $1",
    )
    .bind(mailing_id)
    .fetch_one(conn)
    .await
}

/// Whether an earlier attempt already wrote the recipient rows.
pub async fn recipients_written(
    conn: &mut PgConnection,
    mailing_id: i64,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from mailing_recipients where mailing_id = $1)")
        .bind(mailing_id)
        .fetch_one(conn)
        .await
}

/// Writes the recipient rows: the mailing's audience (its list or segment, minus its suppressions) with each
/// one's variant, minus those the programme's frequency cap holds back (unless the mailing ignores the cap),
/// who are recorded in `mailing_held_back`. Answers how many were held back.
pub async fn write_recipients(
    conn: &mut PgConnection,
    mailing_id: i64,
) -> Result<u64, sqlx::Error> {
    // The journeys' clock: in tests it may be moved, and the cap must count the same day as the engine does.
    let at = crate::journeys::clock::now(&mut *conn).await?;
    let held: i64 = sqlx::query_scalar(
        "with held as (
             insert into mailing_held_back (mailing_id, contact_id)
             select $1, contact_id from mailing_capped($1, $2)
             on conflict do nothing
             returning contact_id
         ),
         written as (
             insert into mailing_recipients (mailing_id, contact_id, email, first_name, variant, segment_id)
             select $1, c.id, c.email, c.first_name, a.variant,
                    coalesce((select m.segment_id from mailings m where m.id = $1), 0)
             from mailing_audience_split($1) a join contacts c on c.id = a.contact_id
             where not exists (select 1 from held h where h.contact_id = a.contact_id)
         )
         select count(*) from held",
    )
    .bind(mailing_id)
    .bind(at)
    .fetch_one(&mut *conn)
    .await?;
    // The rows just written change the table's size by orders of magnitude: fresh statistics keep the batch
    // reads and the recorder's updates on the primary key instead of scanning the table each time.
    sqlx::query("analyze mailing_recipients")
        .execute(&mut *conn)
        .await?;
    Ok(u64::try_from(held).unwrap_or(0))
}

/// The mailing is being sent: its delivery shows so, without an earlier pause's message.
pub async fn set_sending(conn: &mut PgConnection, mailing_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("update mailings set delivery = 'sending', delivery_message = null where id = $1")
        .bind(mailing_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The send ended: `paused` with the reason in `message`, or `done`.
pub async fn set_delivery(
    conn: &mut PgConnection,
    mailing_id: i64,
    delivery: &str,
    message: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query("update mailings set delivery = $2, delivery_message = $3 where id = $1")
        .bind(mailing_id)
        .bind(delivery)
        .bind(message)
        .execute(conn)
        .await?;
    Ok(())
}

/// The mailing's recipients by status.
#[derive(Debug)]
pub struct SendCounts {
    pub total: i64,
    pub sent: i64,
    pub failed: i64,
    pub bounced: i64,
}

pub async fn counts(conn: &mut PgConnection, mailing_id: i64) -> Result<SendCounts, sqlx::Error> {
    let (total, sent, failed, bounced): (i64, i64, i64, i64) = sqlx::query_as(
        "select count(*), count(*) filter (where status = 'sent'), count(*) filter (where status = 'failed'),
                count(*) filter (where status = 'bounced')
         from mailing_recipients where mailing_id = $1",
    )
    .bind(mailing_id)
    .fetch_one(conn)
    .await?;
    Ok(SendCounts {
        total,
        sent,
        failed,
        bounced,
    })
}

/// Claims the mailings whose send time has come (confirmed, not sent yet), and those a warm-up plan held until
/// now: each shows as sending (a new one gets its send attempt), in the caller's transaction, which also queues
/// their sends. Rows another scheduler holds are skipped. The claimed ids.
pub async fn claim_due(conn: &mut PgConnection) -> Result<Vec<i64>, sqlx::Error> {
    // A mailing its warm-up plan held until today goes on first, where it stopped.
    let mut resumed: Vec<i64> = sqlx::query_scalar(
        "update mailings set delivery = 'sending', delivery_message = null, resume_at = null
         where id in (select id from mailings
                      where delivery = 'paused' and resume_at <= now()
                      for update skip locked)
         returning id",
    )
    .fetch_all(&mut *conn)
    .await?;
    let due: Vec<i64> = sqlx::query_scalar(
        "update mailings set send_attempt = now(), delivery = 'sending'
         where id in (select id from mailings
                      where not is_draft and send_attempt is null and send_time <= now()
                      for update skip locked)
         returning id",
    )
    .fetch_all(conn)
    .await?;
    resumed.extend(due);
    Ok(resumed)
}
