//! Sending a confirmed mailing. Every recipient gets a row before anything is sent, and the row is marked `sent`
//! once the server accepts its message, so a crashed or retried send resumes where it stopped. What the database
//! has not heard yet when a worker is killed, the send journal knows (see [`journal`]): a resumed send never
//! mails anyone twice. One worker sends a mailing at a time (a lock per mailing).

mod batch;
mod guard;
mod heard;
mod journal;
mod outbox;
mod pace;
mod sent_log;

use crate::JobContext;
use batch::*;
use domain::DeliveryStatus;
use guard::{guard, thousands};
use heard::heard;
use jobs::{JobError, JobResult};
use journal::Journal;
use mail::dkim::Signers;
use mail::links::LinkSigner;
use mail::render::{render, Letter};
use mail::MergeValues;
use outbox::{Outbox, Outcome, Rendered};
use sent_log::*;
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};
use store::deliverability::Kind;
use store::send;

const BATCH: i64 = 1000;
/// Consecutive failures after which the server is taken to be refusing everything: the mailing is paused.
const PAUSE_AFTER: u32 = 25;

/// One variant as the send uses it: the letter, and the bounce domain of its From domain (when the client set
/// one) that its copies' VERP envelope senders use.
struct Mailing {
    letter: Letter,
    bounce_domain: Option<String>,
}

/// The mailing's variants, `a` (the mailing itself) first; empty when the mailing or a variant's sender is gone.
async fn load_variants(
    tx: &mut sqlx::PgConnection,
    mailing_id: i64,
) -> Result<Vec<Mailing>, JobError> {
    let rows = send::variants(&mut *tx, mailing_id).await?;
    let mut out = Vec::with_capacity(rows.len());
    for (letter, subject, preview, body, from_name, from_address, reply_to) in rows {
        let (Some(from_name), Some(from_address)) = (from_name, from_address) else {
            return Ok(Vec::new());
        };
        let body =
            mail::links::refcode_donation_links(&mut *tx, mailing_id, &letter, &body).await?;
        let domain = from_address.rsplit_once('@').map_or("", |(_, d)| d);
        let bounce_domain =
            store::deliverability::sender_domains::bounce_domain(&mut *tx, domain).await?;
        out.push(Mailing {
            letter: Letter {
                letter,
                subject,
                preview,
                body,
                from_name,
                from_address,
                reply_to,
            },
            bounce_domain,
        });
    }
    Ok(out)
}

/// The DKIM signers of the variants' From domains, their keys opened once for the whole send.
async fn signers(
    ctx: &JobContext<'_>,
    tx: &mut sqlx::PgConnection,
    variants: &[Mailing],
) -> Result<Signers, JobError> {
    let mut domains: Vec<String> = variants
        .iter()
        .filter_map(|v| mail::dkim::domain_of(&v.letter.from_address))
        .collect();
    domains.sort();
    domains.dedup();
    let rows = store::deliverability::sender_domains::signing_keys(tx, &domains).await?;
    mail::dkim::open_signers(
        ctx.services.dkim.as_ref(),
        ctx.client.id,
        rows.iter().map(|r| {
            (
                r.domain.as_str(),
                r.dkim_selector.as_str(),
                r.dkim_algorithm.as_str(),
                r.dkim_private_key.as_slice(),
            )
        }),
    )
    .map_err(|e| JobError::Invalid(format!("The mailing cannot be signed: {e}")))
}

pub async fn run(ctx: &JobContext<'_>, mailing_id: i64) -> Result<JobResult, JobError> {
    let started = Instant::now();
    // One sender per mailing at a time. A worker that died released the lock with its connection; one that is
    // still sending (a job handed over too early) makes this attempt fail and retry later.
    let Some(_sending) = ctx.tenancy.try_exclusive(ctx.client, mailing_id).await? else {
        return Err(JobError::Busy(
            "This mailing is being sent by another worker".to_owned(),
        ));
    };
    let mut tx = ctx.tenancy.begin(ctx.client).await?;
    let variants = load_variants(&mut tx, mailing_id).await?;
    if variants.is_empty() {
        return Err(JobError::Invalid(
            "The mailing or its sender no longer exists".to_owned(),
        ));
    }
    let signers = Arc::new(signers(ctx, &mut tx, &variants).await?);
    let mailing = Arc::new(variants);
    let attempt = send::send_attempt(&mut tx, mailing_id).await?;
    // Recipients: the mailing's audience (its list or segment, minus its suppressions) with each one's variant,
    // minus those the frequency cap holds back, written once, by the first attempt (an attempt that died before
    // committing wrote nothing): a resumed send does not count the cap again.
    let written = send::recipients_written(&mut tx, mailing_id).await?;
    if !written {
        let held_back = send::write_recipients(&mut tx, mailing_id).await?;
        if held_back > 0 {
            tracing::info!(
                mailing_id,
                held_back,
                "recipients held back by the frequency cap"
            );
        }
    }
    // Messages an earlier attempt handed to the server without living to record it are sent: not again.
    let (journal, handed_over) = Journal::open(
        &ctx.services.send_journal,
        ctx.client.id,
        mailing_id,
        attempt.unwrap_or(0),
    )
    .map_err(journal_error)?;
    if !handed_over.is_empty() {
        tracing::info!(
            mailing_id,
            recipients = handed_over.len(),
            "recipients mailed by an earlier attempt, recorded from the send journal"
        );
        send::recipients::mark_handed_over(&mut tx, mailing_id, &handed_over).await?;
    }
    send::set_sending(&mut tx, mailing_id).await?;
    tx.commit().await?;
    let journal = Arc::new(journal);
    tracing::info!(
        mailing_id,
        elapsed_ms = started.elapsed().as_millis() as u64,
        "recipients chosen"
    );

    // Accepted messages are recorded by one task, whatever has gathered, one statement each: the send loop never
    // waits on the database and no message wakes another thread.
    let log = Arc::new(SentLog::default());
    let recorder = record_sent(ctx, mailing_id, &log);
    let sending = async {
        let outcome = send_all(ctx, &mailing, &signers, mailing_id, &journal, &log).await;
        log.finish();
        outcome
    };
    let (outcome, recorded) = tokio::join!(sending, recorder);
    recorded?;
    let paused = outcome?;
    tracing::info!(
        mailing_id,
        elapsed_ms = started.elapsed().as_millis() as u64,
        "send finished"
    );
    // This commit waits for the disk, and with it every faster commit of the recorder before it: only then has
    // the journal nothing left to tell.
    let mut tx = ctx.tenancy.begin(ctx.client).await?;
    let delivery = if paused.is_some() { "paused" } else { "done" };
    send::set_delivery(&mut tx, mailing_id, delivery, paused.as_deref()).await?;
    tx.commit().await?;
    if let Ok(journal) = Arc::try_unwrap(journal) {
        journal.remove().map_err(journal_error)?;
    }
    summary(ctx, mailing_id, paused.unwrap_or_default()).await
}

fn journal_error(e: std::io::Error) -> JobError {
    JobError::Journal(e)
}

/// Sends every queued recipient; `Some(message)` when the send had to pause.
async fn send_all(
    ctx: &JobContext<'_>,
    mailing: &Arc<Vec<Mailing>>,
    signers: &Arc<Signers>,
    mailing_id: i64,
    journal: &Arc<Journal>,
    sent: &Arc<SentLog>,
) -> Result<Option<String>, JobError> {
    let pacing = {
        let mut tx = ctx.tenancy.begin(ctx.client).await?;
        let pacing = store::deliverability::pacing::all(&mut tx).await?;
        tx.commit().await?;
        pacing
    };
    let outbox = Outbox::open(
        &ctx.services.smtp,
        &pacing,
        ctx.services.send_concurrency,
        journal,
        sent,
    );
    let outcome = send_batches(ctx, mailing, signers, mailing_id, &outbox).await;
    outbox.close().await;
    outcome
}

async fn send_batches(
    ctx: &JobContext<'_>,
    mailing: &Arc<Vec<Mailing>>,
    signers: &Arc<Signers>,
    mailing_id: i64,
    outbox: &Outbox,
) -> Result<Option<String>, JobError> {
    let started = Instant::now();
    let mut consecutive_failures = 0u32;
    let mut backoff = Duration::from_millis(500);
    let rate = ctx.services.send_rate_per_second;
    let mut sent_so_far: u64 = 0;
    // A new sender domain's warm-up plan: what its cap leaves for today, counted down as copies go out.
    let mut allowance = {
        let mut tx = ctx.tenancy.begin(ctx.client).await?;
        let allowance = store::deliverability::warmup::allowance_today(&mut tx, mailing_id).await?;
        tx.commit().await?;
        allowance
    };
    // The next batch is read, rendered, signed and formatted by a task of its own while this one is sent, so the
    // SMTP stage never waits on the database or on the CPU work.
    let mut next = spawn_batch(ctx, mailing, signers, mailing_id, 0);
    // Recipients to try again sit behind the cursor: once the rest is sent, the reading starts over for them.
    let mut retries_pending = false;
    loop {
        let waited = Instant::now();
        let claimed = next.await??;
        let waited = waited.elapsed();
        let Some((cursor, rendered)) = claimed else {
            if !retries_pending {
                break;
            }
            retries_pending = false;
            // Deferred recipients are tried again once the rest is sent, after a pause that grows each round. A
            // deferral already slowed its own provider's group (see `pace`), and no other.
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(30));
            next = spawn_batch(ctx, mailing, signers, mailing_id, 0);
            continue;
        };
        next = spawn_batch(ctx, mailing, signers, mailing_id, cursor);
        let sending = Instant::now();
        let mut rendered = rendered;
        let mut capped = false;
        if let Some(allowance) = allowance.as_mut() {
            let left = usize::try_from(allowance.remaining.max(0)).unwrap_or(0);
            if rendered.len() > left {
                // The copies past today's cap stay queued for tomorrow.
                rendered.truncate(left);
                capped = true;
            }
            allowance.remaining -= rendered.len() as i64;
        }
        let batch_size = rendered.len();
        for (contact_id, provider, message) in rendered {
            outbox.send(contact_id, provider, message);
        }
        for _ in 0..batch_size {
            let Some((contact_id, outcome)) = outbox.outcome().await else {
                return Err(JobError::Stopped("The SMTP connections stopped".into()));
            };
            let deferred_by_provider = matches!(outcome, Outcome::Retry(_));
            match outcome {
                Outcome::Sent => {
                    consecutive_failures = 0;
                    sent_so_far += 1;
                }
                Outcome::Bounced(e) => {
                    consecutive_failures += 1;
                    mark(
                        ctx,
                        mailing_id,
                        contact_id,
                        DeliveryStatus::Bounced,
                        Some(&e),
                    )
                    .await?;
                    heard(ctx, mailing_id, contact_id, Kind::HardBounce, &e).await?;
                }
                Outcome::Retry(e) | Outcome::Unreachable(e) => {
                    consecutive_failures += 1;
                    retries_pending = true;
                    // The provider's answer counts in its rates; an unreachable relay says nothing of it.
                    if deferred_by_provider {
                        heard(ctx, mailing_id, contact_id, Kind::Deferred, &e).await?;
                    }
                    mark(
                        ctx,
                        mailing_id,
                        contact_id,
                        DeliveryStatus::Queued,
                        Some(&e),
                    )
                    .await?;
                }
            }
        }
        tracing::debug!(
            recipients = batch_size,
            waited_ms = waited.as_secs_f64() * 1000.0,
            sent_ms = sending.elapsed().as_secs_f64() * 1000.0,
            "batch sent"
        );
        if let Some(message) = guard(ctx, mailing_id).await? {
            return Ok(Some(message));
        }
        if let (true, Some(allowance)) = (capped, &allowance) {
            let mut tx = ctx.tenancy.begin(ctx.client).await?;
            store::deliverability::warmup::hold_until_tomorrow(&mut tx, mailing_id).await?;
            tx.commit().await?;
            return Ok(Some(format!(
                "Paused: the warm-up plan of {} allows {} messages today, and they are sent. Sending goes on by itself tomorrow (UTC).",
                allowance.domain,
                thousands(allowance.cap)
            )));
        }
        if consecutive_failures >= PAUSE_AFTER {
            return Ok(Some("Paused: the mail server refused every recent message. Check the SMTP settings and the sender, then resume sending.".to_owned()));
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

async fn mark(
    ctx: &JobContext<'_>,
    mailing_id: i64,
    contact_id: i64,
    status: DeliveryStatus,
    error: Option<&str>,
) -> Result<(), JobError> {
    let mut tx = ctx.tenancy.begin(ctx.client).await?;
    send::recipients::mark(&mut tx, mailing_id, contact_id, status.as_str(), error).await?;
    tx.commit().await?;
    Ok(())
}

async fn summary(
    ctx: &JobContext<'_>,
    mailing_id: i64,
    note: String,
) -> Result<JobResult, JobError> {
    let mut tx = ctx.tenancy.begin(ctx.client).await?;
    let send::SendCounts {
        total,
        sent,
        failed,
        bounced,
    } = send::counts(&mut tx, mailing_id).await?;
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
