//! Accepted messages written as `sent` in small, frequent statements.

use super::*;

/// Contacts whose messages the server accepted, waiting to be written as `sent`.
#[derive(Default)]
pub(super) struct SentLog {
    pub(super) ids: std::sync::Mutex<Vec<i64>>,
    /// Set once no more ids will come.
    pub(super) finished: std::sync::atomic::AtomicBool,
    /// Wakes the recorder for its last write as soon as the send ends.
    pub(super) ended: tokio::sync::Notify,
}

impl SentLog {
    pub(super) fn push(&self, contact_id: i64) {
        telemetry::metrics::message_sent();
        self.ids
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(contact_id);
    }

    pub(super) fn finish(&self) {
        self.finished
            .store(true, std::sync::atomic::Ordering::Release);
        self.ended.notify_one();
    }

    pub(super) fn take(&self) -> Vec<i64> {
        std::mem::take(
            &mut *self
                .ids
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }
}

/// How often accepted messages are written. The journal covers a crash in between, so this only sets how fresh
/// the mailing's figures are and how many rows one statement writes.
pub(super) const RECORD_EVERY: Duration = Duration::from_millis(100);

/// Writes `sent` for the contacts in `log` every [`RECORD_EVERY`] until the log is finished and empty.
pub(super) async fn record_sent(
    ctx: &JobContext<'_>,
    mailing_id: i64,
    log: &SentLog,
) -> Result<(), JobError> {
    let mut tick = tokio::time::interval(RECORD_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = log.ended.notified() => {}
        }
        // Read the flag before taking the ids: every id pushed before it was set is in this take.
        let finished = log.finished.load(std::sync::atomic::Ordering::Acquire);
        let group = log.take();
        if !group.is_empty() {
            let mut tx = ctx.tenancy.begin(ctx.client).await?;
            // These commits do not wait for the disk; the final status update of the send does, and the journal
            // is kept until then, so a crash of the database server loses nothing either.
            store::send::recipients::commit_without_waiting(&mut tx).await?;
            store::send::recipients::mark_sent(&mut tx, mailing_id, &group).await?;
            tx.commit().await?;
        }
        if finished {
            return Ok(());
        }
    }
}
