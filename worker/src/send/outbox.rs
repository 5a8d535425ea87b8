//! The SMTP stage of a send: a fixed number of connections, each a task of its own that takes the next rendered
//! message from one shared queue, so a slow answer on one connection never holds up the others and the work
//! spreads over the runtime's threads. Accepted messages go straight to the [`SentLog`]; every outcome comes
//! back to the send loop, which decides about bounces, retries and pausing.

use super::journal::Journal;
use super::SentLog;
use lettre::address::Envelope;
use mail::smtp::Connection;
use mail::{MailError, SmtpServer};
use std::sync::Arc;

/// A rendered message: the envelope and the formatted bytes, or why it could not be built.
pub type Rendered = Result<(Envelope, Vec<u8>), MailError>;

pub enum Outcome {
    Sent,
    /// The server refused this recipient for good (5xx), or the message could not be built.
    Bounced(String),
    /// Try again later (4xx throttle, connection trouble).
    Retry(String),
}

pub struct Outbox {
    /// `None` once closed.
    queue: Option<flume::Sender<(i64, Rendered)>>,
    outcomes: flume::Receiver<(i64, Outcome)>,
    connections: Vec<tokio::task::JoinHandle<()>>,
}

impl Outbox {
    pub fn open(
        server: &SmtpServer,
        connections: usize,
        journal: &Arc<Journal>,
        sent: &Arc<SentLog>,
    ) -> Self {
        let (queue, waiting) = flume::unbounded();
        let (report, outcomes) = flume::unbounded();
        let connections = (0..connections.max(1))
            .map(|_| {
                let line = Line {
                    server: server.clone(),
                    connection: None,
                    journal: journal.clone(),
                    sent: sent.clone(),
                };
                tokio::spawn(line.run(waiting.clone(), report.clone()))
            })
            .collect();
        Self {
            queue: Some(queue),
            outcomes,
            connections,
        }
    }

    /// Queues a message for the next free connection.
    pub fn send(&self, contact_id: i64, message: Rendered) {
        if let Some(queue) = &self.queue {
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
        self.queue = None;
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
}

impl Line {
    async fn run(
        mut self,
        waiting: flume::Receiver<(i64, Rendered)>,
        report: flume::Sender<(i64, Outcome)>,
    ) {
        while let Ok((contact_id, message)) = waiting.recv_async().await {
            let outcome = self.deliver(contact_id, message).await;
            if let Outcome::Retry(e) | Outcome::Bounced(e) = &outcome {
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
                Err(e) => return Outcome::Retry(e.to_string()),
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
