//! The SMTP stage of a send: for each mailbox provider, a few connections of its own (the client's pacing), each a
//! task that takes the next rendered message from its provider's queue at its provider's pace, so a slow answer
//! on one connection never holds up the others, and a provider that throttles slows only its own recipients.
//! Accepted messages go straight to the [`SentLog`]; every outcome comes back to the send loop, which decides
//! about bounces, retries and pausing.

use super::journal::Journal;
use super::pace::Pace;
use super::SentLog;
use domain::MailboxProvider;
use lettre::address::Envelope;
use mail::smtp::Connection;
use mail::{MailError, SmtpServer};
use std::collections::HashMap;
use std::sync::Arc;
use store::deliverability::pacing::Pacing;

/// A rendered message: the envelope and the formatted bytes, or why it could not be built.
pub type Rendered = Result<(Envelope, Vec<u8>), MailError>;

pub enum Outcome {
    Sent,
    /// The server refused this recipient for good (5xx), or the message could not be built.
    Bounced(String),
    /// The provider said try again later (4xx): its group slows down.
    Retry(String),
    /// The mail server could not be reached: try again later, at the same pace.
    Unreachable(String),
}

pub struct Outbox {
    /// Each provider's queue; empty once closed.
    queues: HashMap<MailboxProvider, flume::Sender<(i64, Rendered)>>,
    outcomes: flume::Receiver<(i64, Outcome)>,
    connections: Vec<tokio::task::JoinHandle<()>>,
}

impl Outbox {
    /// Opens each provider's connections as `pacing` says, never more than `most_connections` for one provider
    /// (the worker's SMTP pool size, the operator's bound on what the relay is asked to carry).
    pub fn open(
        server: &SmtpServer,
        pacing: &[Pacing],
        most_connections: usize,
        journal: &Arc<Journal>,
        sent: &Arc<SentLog>,
    ) -> Self {
        let (report, outcomes) = flume::unbounded();
        let mut queues = HashMap::new();
        let mut connections = Vec::new();
        for provider in MailboxProvider::ALL {
            let setting = pacing.iter().find(|p| p.provider == provider.as_str());
            let (per_second, lanes) = setting.map_or((0, most_connections), |p| {
                (p.per_second, usize::try_from(p.connections).unwrap_or(1))
            });
            let pace = Arc::new(Pace::new(per_second));
            let (queue, waiting) = flume::unbounded();
            queues.insert(*provider, queue);
            for _ in 0..lanes.clamp(1, most_connections.max(1)) {
                let line = Line {
                    server: server.clone(),
                    connection: None,
                    journal: journal.clone(),
                    sent: sent.clone(),
                    pace: pace.clone(),
                };
                connections.push(tokio::spawn(line.run(waiting.clone(), report.clone())));
            }
        }
        Self {
            queues,
            outcomes,
            connections,
        }
    }

    /// Queues a message for the next free connection of its recipient's provider.
    pub fn send(&self, contact_id: i64, provider: MailboxProvider, message: Rendered) {
        let queue = self
            .queues
            .get(&provider)
            .or_else(|| self.queues.get(&MailboxProvider::Other));
        if let Some(queue) = queue {
            // The receivers live as long as the connection tasks, which end only after `close`.
            let _ = queue.send((contact_id, message));
        }
    }

    /// The next outcome, in the order the server answered.
    pub async fn outcome(&self) -> Option<(i64, Outcome)> {
        self.outcomes.recv_async().await.ok()
    }

    /// Lets the connections finish what is queued, say goodbye and end.
    pub async fn close(mut self) {
        self.queues.clear();
        for connection in std::mem::take(&mut self.connections) {
            let _ = connection.await;
        }
    }
}

impl Drop for Outbox {
    /// A send that is dropped unfinished (its job cancelled) sends nothing more: what is queued stays queued.
    fn drop(&mut self) {
        for connection in &self.connections {
            connection.abort();
        }
    }
}

/// One connection's task.
struct Line {
    server: SmtpServer,
    connection: Option<Connection>,
    journal: Arc<Journal>,
    sent: Arc<SentLog>,
    pace: Arc<Pace>,
}

impl Line {
    async fn run(
        mut self,
        waiting: flume::Receiver<(i64, Rendered)>,
        report: flume::Sender<(i64, Outcome)>,
    ) {
        while let Ok((contact_id, message)) = waiting.recv_async().await {
            self.pace.slot().await;
            let outcome = self.deliver(contact_id, message).await;
            match &outcome {
                Outcome::Sent => self.pace.accepted(),
                Outcome::Retry(_) => self.pace.deferred(),
                Outcome::Bounced(_) | Outcome::Unreachable(_) => {}
            }
            if let Outcome::Retry(e) | Outcome::Bounced(e) | Outcome::Unreachable(e) = &outcome {
                tracing::debug!(contact_id, error = %e, "message not accepted");
            }
            if report.send((contact_id, outcome)).is_err() {
                break;
            }
        }
        if let Some(connection) = self.connection.take() {
            connection.quit().await;
        }
    }

    async fn deliver(&mut self, contact_id: i64, message: Rendered) -> Outcome {
        let (envelope, bytes) = match message {
            Ok(message) => message,
            Err(e) => return Outcome::Bounced(e.to_string()),
        };
        let connection = match self.connection.take() {
            Some(connection) if !connection.is_broken() => connection,
            _ => match self.server.connect().await {
                Ok(connection) => connection,
                Err(e) => return Outcome::Unreachable(e.to_string()),
            },
        };
        let connection = self.connection.insert(connection);
        let journal = &self.journal;
        let mut ended = false;
        let result = connection
            .send(&envelope, &bytes, || {
                ended = true;
                if let Err(e) = journal.ending(contact_id) {
                    tracing::warn!(contact_id, error = %telemetry::Chain(&e), "send journal not written");
                }
            })
            .await;
        if result.is_err() && ended {
            // Refused after its end, or the answer was lost with the connection: the row stays queued and the
            // journal must agree.
            if let Err(e) = journal.refused(contact_id) {
                tracing::warn!(contact_id, error = %telemetry::Chain(&e), "send journal not written");
            }
        }
        match result {
            Ok(()) => {
                self.sent.push(contact_id);
                Outcome::Sent
            }
            Err(MailError::Permanent(e) | MailError::Address(e) | MailError::Build(e)) => {
                Outcome::Bounced(e)
            }
            Err(e) => Outcome::Retry(e.to_string()),
        }
    }
}
