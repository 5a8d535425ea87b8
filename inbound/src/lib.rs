//! Hearing back by mail: a small SMTP server for the bounce domains. It accepts mail only for VERP addresses
//! whose token is valid (see [`mail::verp`]), keeps each message whole in the client's `delivery_evidence`, reads
//! it as a delivery status notification (RFC 3464), a feedback report (RFC 5965) or a plain bounce that names a
//! status code, and records the events it tells of — all in one transaction, committed before the message is
//! answered with 250. A sender that gets no 250 sends again; the same report twice is one event. Messages that
//! arrive while others are committing share the next transaction (group commit, see [`commit`]).

pub mod commit;
pub mod ingest;
pub mod report;
pub mod smtp;

pub use smtp::{serve, Limits, Listener};

#[derive(Debug, thiserror::Error)]
pub enum InboundError {
    #[error(transparent)]
    Tenancy(#[from] tenancy::TenancyError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}
