//! Sending a confirmed mailing. Every recipient gets a row before anything is sent, and the row is marked `sent`
//! the moment the server accepts its message, so a crashed or retried send resumes where it stopped and never
//! mails anyone twice (only a message whose acceptance was not yet written when the process died — a window of
//! milliseconds — can go again). One worker sends a mailing at a time (a lock per mailing).

use crate::mail::links::{LinkSigner, Recipient};
use crate::mail::{merge, MailError, MergeValues, Outgoing};
use crate::{JobContext, JobError, JobResult};
use futures::StreamExt;
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

const BATCH: i64 = 1000;
/// Consecutive failures after which the server is taken to be refusing everything: the mailing is paused.
const PAUSE_AFTER: u32 = 25;

/// Subject, body, and the sender's name, address and reply-to (the sender may have been deleted).
type MailingRow = (
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
);

#[derive(Clone)]
struct Mailing {
    subject: String,
    body: String,
    from_name: String,
    from_address: String,
    reply_to: Option<String>,
}

enum Outcome {
    Sent,
    /// The server refused this recipient for good (5xx): the address is treated as a hard bounce.
    Bounced(String),
    /// Try again later (4xx throttle, connection trouble).
    Retry(String),
}

pub async fn run(ctx: &JobContext<'_>, mailing_id: i64) -> Result<JobResult, JobError> {
    let started = Instant::now();
    // One sender per mailing at a time. A worker that died released the lock with its connection; one that is
    // still sending (a job handed over too early) makes this attempt fail and retry later.
    let Some(_sending) = ctx.tenancy.try_exclusive(ctx.client, mailing_id).await? else {
        return Err(JobError::Io(
            "This mailing is being sent by another worker".to_owned(),
        ));
    };
    let mut tx = ctx.tenancy.begin(ctx.client).await?;
    let mailing: Option<MailingRow> = sqlx::query_as(
        "select m.subject_line, m.body_html, s.name, s.from_address, s.reply_to
         from mailings m left join senders s on s.id = m.sender_id where m.id = $1",
    )
    .bind(mailing_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((subject, body, Some(from_name), Some(from_address), reply_to)) = mailing else {
        return Err(JobError::BadFile(
            "The mailing or its sender no longer exists".to_owned(),
        ));
    };
    let mailing = Mailing {
        subject,
        body,
        from_name,
        from_address,
        reply_to,
    };
    // Recipients: the list's subscribed members, once. Rows claimed by a worker that died go back to the queue.
    sqlx::query(
        "insert into mailing_recipients (mailing_id, contact_id, email, first_name)
         select m.id, c.id, c.email, c.first_name
         from mailings m join crm_lists l on l.id = m.list_id
         join contacts c on c.subscription = 'subscribed' and (
              (l.kind = 'query' and c.origin_code_id = any (l.origin_code_ids))
           or (l.kind = 'upload' and exists (select 1 from crm_list_members x where x.list_id = l.id and x.contact_id = c.id)))
         where m.id = $1
         on conflict do nothing",
    )
    .bind(mailing_id)
    .execute(&mut *tx)
    .await?;
    // The rows just written change the table's size by orders of magnitude: fresh statistics keep the batch
    // reads on the primary key's order instead of sorting everything left for each batch.
    sqlx::query("analyze mailing_recipients")
        .execute(&mut *tx)
        .await?;
    sqlx::query("update mailing_recipients set status = 'queued' where mailing_id = $1 and status = 'sending'")
        .bind(mailing_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("update mailings set delivery = 'sending', delivery_message = null where id = $1")
        .bind(mailing_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(
        mailing_id,
        elapsed_ms = started.elapsed().as_millis() as u64,
        "recipients chosen"
    );

    // Accepted messages are recorded by one task every few milliseconds, whatever has gathered, one statement
    // each: the send loop never waits on the database, no message wakes another thread, and the write follows
    // the server's answer within milliseconds.
    let log = Arc::new(SentLog::default());
    let recorder = record_sent(ctx, mailing_id, &log);
    let sending = async {
        let outcome = send_all(ctx, &mailing, mailing_id, &log).await;
        log.finished
            .store(true, std::sync::atomic::Ordering::Release);
        outcome
    };
    let (outcome, recorded) = tokio::join!(sending, recorder);
    recorded?;
    tracing::info!(
        mailing_id,
        elapsed_ms = started.elapsed().as_millis() as u64,
        "send finished"
    );
    if let Some(paused) = outcome? {
        return summary(ctx, mailing_id, paused).await;
    }
    let mut tx = ctx.tenancy.begin(ctx.client).await?;
    sqlx::query("update mailings set delivery = 'done' where id = $1")
        .bind(mailing_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    summary(ctx, mailing_id, String::new()).await
}

/// Contacts whose messages the server accepted, waiting to be written as `sent`.
#[derive(Default)]
struct SentLog {
    ids: std::sync::Mutex<Vec<i64>>,
    /// Set once no more ids will come.
    finished: std::sync::atomic::AtomicBool,
}

impl SentLog {
    fn push(&self, contact_id: i64) {
        self.ids
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(contact_id);
    }

    fn take(&self) -> Vec<i64> {
        std::mem::take(
            &mut *self
                .ids
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }
}

/// How often accepted messages are written: the longest a delivered message goes unrecorded, plus the write.
const RECORD_EVERY: Duration = Duration::from_millis(2);

/// Writes `sent` for the contacts in `log` every [`RECORD_EVERY`] until the log is finished and empty.
async fn record_sent(ctx: &JobContext<'_>, mailing_id: i64, log: &SentLog) -> Result<(), JobError> {
    let mut tick = tokio::time::interval(RECORD_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        // Read the flag before taking the ids: every id pushed before it was set is in this take.
        let finished = log.finished.load(std::sync::atomic::Ordering::Acquire);
        let group = log.take();
        if !group.is_empty() {
            let mut tx = ctx.tenancy.begin(ctx.client).await?;
            // These commits do not wait for the disk: the row is visible to a restarted worker at once, which is
            // what keeps a killed send from mailing anyone twice. Only a crash of the database server itself
            // could lose the last fraction of a second of them (those messages would go again).
            sqlx::query("set local synchronous_commit = off")
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "update mailing_recipients set status = 'sent', error = null, sent_at = now()
                 where mailing_id = $1 and contact_id = any ($2)",
            )
            .bind(mailing_id)
            .bind(&group)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
        }
        if finished {
            return Ok(());
        }
    }
}

/// Sends every queued recipient; `Some(message)` when the send had to pause.
async fn send_all(
    ctx: &JobContext<'_>,
    mailing: &Mailing,
    mailing_id: i64,
    sent: &Arc<SentLog>,
) -> Result<Option<String>, JobError> {
    let started = Instant::now();
    let mut consecutive_failures = 0u32;
    let mut backoff = Duration::from_millis(500);
    let rate = ctx.services.send_rate_per_second;
    let mut sent_so_far: u64 = 0;
    let mailing = Arc::new(mailing.clone());
    // The next batch is claimed, rendered, signed and built by a task of its own while this one is sent, so the
    // SMTP stage never waits on the database or on the CPU work.
    let mut next = spawn_batch(ctx, &mailing, mailing_id, 0);
    // Recipients to try again sit behind the cursor: once the rest is sent, the reading starts over for them.
    let mut retries_pending = false;
    loop {
        let waited = Instant::now();
        let claimed = next.await.map_err(|e| JobError::Io(e.to_string()))??;
        let waited = waited.elapsed();
        let Some((cursor, rendered)) = claimed else {
            if !retries_pending {
                break;
            }
            retries_pending = false;
            tokio::time::sleep(backoff).await;
            next = spawn_batch(ctx, &mailing, mailing_id, 0);
            continue;
        };
        next = spawn_batch(ctx, &mailing, mailing_id, cursor);
        let sending = Instant::now();
        let batch_size = rendered.len();
        // Each message is its own task, so the SMTP client's work spreads over the runtime's threads instead of
        // running on the one thread that polls the stream.
        let outcomes: Vec<(i64, Outcome)> =
            futures::stream::iter(rendered.into_iter().map(|(contact_id, message)| {
                let sent = sent.clone();
                let mailer = ctx.services.mailer.clone();
                tokio::spawn(async move {
                    let outcome = match message {
                        Ok(m) => match mailer.send_message(m).await {
                            Ok(()) => Outcome::Sent,
                            Err(MailError::Permanent(e)) => Outcome::Bounced(e),
                            Err(MailError::Address(e)) | Err(MailError::Build(e)) => {
                                Outcome::Bounced(e)
                            }
                            Err(e) => Outcome::Retry(e.to_string()),
                        },
                        Err(e) => Outcome::Bounced(e.to_string()),
                    };
                    if let Outcome::Retry(e) | Outcome::Bounced(e) = &outcome {
                        tracing::debug!(contact_id, error = %e, "message not accepted");
                    }
                    if matches!(outcome, Outcome::Sent) {
                        // Recorded within milliseconds by the recorder: the smaller this window, the closer to once.
                        sent.push(contact_id);
                    }
                    (contact_id, outcome)
                })
            }))
            .buffer_unordered(ctx.services.send_concurrency.max(1))
            .map(|joined| joined.map_err(|e| JobError::Io(e.to_string())))
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .collect::<Result<_, _>>()?;

        tracing::debug!(
            recipients = batch_size,
            waited_ms = waited.as_secs_f64() * 1000.0,
            sent_ms = sending.elapsed().as_secs_f64() * 1000.0,
            "batch sent"
        );
        let mut retry_any = false;
        for (contact_id, outcome) in outcomes {
            match outcome {
                Outcome::Sent => {
                    consecutive_failures = 0;
                    sent_so_far += 1;
                }
                Outcome::Bounced(e) => {
                    consecutive_failures += 1;
                    mark(ctx, mailing_id, contact_id, "bounced", Some(&e)).await?;
                    let mut tx = ctx.tenancy.begin(ctx.client).await?;
                    sqlx::query("update contacts set subscription = 'bounced' where id = $1 and subscription = 'subscribed'")
                        .bind(contact_id)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                }
                Outcome::Retry(e) => {
                    consecutive_failures += 1;
                    retry_any = true;
                    retries_pending = true;
                    mark(ctx, mailing_id, contact_id, "queued", Some(&e)).await?;
                }
            }
        }
        if consecutive_failures >= PAUSE_AFTER {
            let message = "Paused: the mail server refused every recent message. Check the SMTP settings and the sender, then resume sending.";
            let mut tx = ctx.tenancy.begin(ctx.client).await?;
            sqlx::query(
                "update mailings set delivery = 'paused', delivery_message = $2 where id = $1",
            )
            .bind(mailing_id)
            .bind(message)
            .execute(&mut *tx)
            .await?;
            // The rows just written change the table's size by orders of magnitude: fresh statistics keep the batch
            // reads on the primary key's order instead of sorting everything left for each batch.
            sqlx::query("analyze mailing_recipients")
                .execute(&mut *tx)
                .await?;
            sqlx::query("update mailing_recipients set status = 'queued' where mailing_id = $1 and status = 'sending'")
                .bind(mailing_id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            return Ok(Some(message.to_owned()));
        }
        if retry_any {
            // A throttling server (4xx) gets more room each time.
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(30));
        } else {
            backoff = Duration::from_millis(500);
        }
        if rate > 0 {
            let due = Duration::from_secs_f64(sent_so_far as f64 / f64::from(rate));
            if let Some(wait) = due.checked_sub(started.elapsed()) {
                tokio::time::sleep(wait).await;
            }
        }
    }
    Ok(None)
}

type Rendered = Vec<(i64, Result<lettre::Message, MailError>)>;

/// Reads the next batch of queued recipients after `cursor` (a contact id) and renders it on blocking threads,
/// in a task of its own; the task answers the batch's last contact id and the messages, or `None` when no
/// recipient is left. Contacts who unsubscribed or bounced since the recipients were chosen are never sent to.
fn spawn_batch(
    ctx: &JobContext<'_>,
    mailing: &Arc<Mailing>,
    mailing_id: i64,
    cursor: i64,
) -> tokio::task::JoinHandle<Result<Option<(i64, Rendered)>, JobError>> {
    let (tenancy, client) = (ctx.tenancy.clone(), ctx.client.clone());
    let (mailing, links) = (mailing.clone(), ctx.services.links.clone());
    tokio::spawn(async move {
        let batch = next_recipients(&tenancy, &client, mailing_id, cursor).await?;
        let Some(last) = batch.last().map(|r| r.0) else {
            return Ok(None);
        };
        // Two halves on two blocking threads: the machine's two cores render in parallel.
        let client_id = client.id;
        let mut first = batch;
        let second = first.split_off(first.len() / 2);
        let work = |part: Vec<(i64, String, String)>, mailing: Arc<Mailing>, links: LinkSigner| {
            tokio::task::spawn_blocking(move || {
                part.into_iter()
                    .map(|(contact_id, email, first_name)| {
                        let message = render(
                            &links,
                            client_id,
                            &mailing,
                            mailing_id,
                            contact_id,
                            &email,
                            &first_name,
                        )
                        .build();
                        (contact_id, message)
                    })
                    .collect::<Rendered>()
            })
        };
        let a = work(first, mailing.clone(), links.clone());
        let b = work(second, mailing, links);
        let mut out = a.await.map_err(|e| JobError::Io(e.to_string()))?;
        out.extend(b.await.map_err(|e| JobError::Io(e.to_string()))?);
        Ok(Some((last, out)))
    })
}

/// The next queued recipients after `cursor`, in contact order. Reading takes no lock and writes nothing: the
/// mailing's send lock keeps other senders away, and only an accepted message changes a row (to `sent`). When
/// none is left, what is still queued belongs to contacts who unsubscribed or bounced since the recipients were
/// chosen: those are marked failed.
async fn next_recipients(
    tenancy: &tenancy::Tenancy,
    client: &tenancy::Client,
    mailing_id: i64,
    cursor: i64,
) -> Result<Vec<(i64, String, String)>, JobError> {
    let mut tx = tenancy.begin(client).await?;
    let batch: Vec<(i64, String, String)> = sqlx::query_as(
        "select r.contact_id, r.email, r.first_name
         from (select contact_id, email, first_name from mailing_recipients
               where mailing_id = $1 and status = 'queued' and contact_id > $2
               order by contact_id limit $3) r
         join contacts c on c.id = r.contact_id and c.subscription = 'subscribed'
         order by r.contact_id",
    )
    .bind(mailing_id)
    .bind(cursor)
    .bind(BATCH)
    .fetch_all(&mut *tx)
    .await?;
    if batch.is_empty() {
        sqlx::query(
            "update mailing_recipients r set status = 'failed', error = 'Unsubscribed or bounced before sending'
             from contacts c
             where r.mailing_id = $1 and r.status = 'queued' and c.id = r.contact_id
               and c.subscription <> 'subscribed'",
        )
        .bind(mailing_id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(batch)
}

fn render(
    links: &LinkSigner,
    client_id: i64,
    mailing: &Mailing,
    mailing_id: i64,
    contact_id: i64,
    email: &str,
    first_name: &str,
) -> Outgoing {
    let recipient = Recipient {
        client_id,
        mailing_id,
        contact_id,
    };
    let values = MergeValues {
        first_name: first_name.to_owned(),
        email: email.to_owned(),
    };
    Outgoing {
        from_name: mailing.from_name.clone(),
        from_address: mailing.from_address.clone(),
        reply_to: mailing.reply_to.clone(),
        to: email.to_owned(),
        subject: merge(&mailing.subject, &values),
        html: links.instrument(&merge(&mailing.body, &values), recipient),
        unsubscribe_url: Some(links.unsubscribe_url(recipient)),
        message_id: Some(format!(
            "m{mailing_id}.c{contact_id}.k{client_id}@{}",
            mailing
                .from_address
                .rsplit_once('@')
                .map_or("compass.invalid", |(_, domain)| domain)
        )),
    }
}

async fn mark(
    ctx: &JobContext<'_>,
    mailing_id: i64,
    contact_id: i64,
    status: &str,
    error: Option<&str>,
) -> Result<(), JobError> {
    let mut tx = ctx.tenancy.begin(ctx.client).await?;
    sqlx::query(
        "update mailing_recipients set status = $3, error = $4,
                sent_at = case when $3 = 'sent' then now() else sent_at end
         where mailing_id = $1 and contact_id = $2",
    )
    .bind(mailing_id)
    .bind(contact_id)
    .bind(status)
    .bind(error)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

async fn summary(
    ctx: &JobContext<'_>,
    mailing_id: i64,
    note: String,
) -> Result<JobResult, JobError> {
    let mut tx = ctx.tenancy.begin(ctx.client).await?;
    let (total, sent, failed, bounced): (i64, i64, i64, i64) = sqlx::query_as(
        "select count(*), count(*) filter (where status = 'sent'), count(*) filter (where status = 'failed'),
                count(*) filter (where status = 'bounced')
         from mailing_recipients where mailing_id = $1",
    )
    .bind(mailing_id)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    let message = if note.is_empty() {
        format!("Sent {sent} of {total} messages; {bounced} bounced, {failed} not sent.")
    } else {
        note
    };
    Ok(JobResult {
        message,
        link: Some(format!("/crm-mailing-detail/{mailing_id}")),
        segment_id: None,
        details: json!({ "recipients": total, "sent": sent, "bounced": bounced, "failed": failed }),
    })
}
