//! Outgoing mail, for the api and the worker alike: merge tags, the message builder (headers can't be injected:
//! lettre builds them from typed values and our subjects and names are single lines), signed tracking links and
//! donation refcodes, one recipient's copy of a mailing, SMTP sending (a pooled transport for one-off messages, a
//! pipelining connection for sends) and a local SMTP sink for the run command and tests.

use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

pub mod dkim;
pub mod dns;
pub mod links;
mod merge;
mod message;
pub mod render;
pub mod sink;
pub mod smtp;
mod text;
pub mod verp;

pub use merge::{merge, merge_tags, MergeTag, MergeValues, MERGE_TAGS};
pub use message::{without_design, Outgoing};
pub use smtp::SmtpServer;

/// `MAIL_FROM_ADDRESS` when unset, for the api and the worker alike.
pub const DEFAULT_MAIL_FROM_ADDRESS: &str = "no-reply@compass.test";

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("mail address: {0}")]
    Address(String),
    #[error("message: {0}")]
    Build(String),
    /// The server refused for now (4xx) or could not be reached: worth another try later.
    #[error("smtp (temporary): {0}")]
    Transient(String),
    /// The server refused for good (5xx).
    #[error("smtp (permanent): {0}")]
    Permanent(String),
    #[error("smtp configuration: {0}")]
    Config(String),
}

/// One pooled SMTP transport for one-off messages; clone it freely.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
}

impl Mailer {
    /// See [`SmtpServer::from_url`]; `pool_size` connections at most.
    pub fn from_url(url: &str, pool_size: u32) -> Result<Self, MailError> {
        Ok(Self::new(&SmtpServer::from_url(url)?, pool_size))
    }

    pub fn new(server: &SmtpServer, pool_size: u32) -> Self {
        Self {
            transport: server.transport(pool_size),
        }
    }

    pub async fn send(&self, message: &Outgoing) -> Result<(), MailError> {
        let built = message.build()?;
        self.send_message(built).await
    }

    /// Sends `message`, DKIM-signed when `signers` has a key for its From domain.
    pub async fn send_signed(
        &self,
        message: &Outgoing,
        signers: &dkim::Signers,
    ) -> Result<(), MailError> {
        let built = message.build()?;
        let raw = dkim::format(&built, &message.from_address, signers)?;
        self.transport
            .send_raw(built.envelope(), &raw)
            .await
            .map(|_| ())
            .map_err(smtp::classify)
    }

    pub async fn send_message(&self, message: Message) -> Result<(), MailError> {
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(smtp::classify)
    }
}
