use store::reports::ReportError;
use thiserror::Error;

/// An error as the library that made it made it, kept whole so the log shows its chain (`telemetry::Chain`).
pub type Cause = Box<dyn std::error::Error + Send + Sync>;

/// What went wrong in a job, named for what happened. Whether another attempt can help is decided once, in
/// [`JobError::is_transient`]. Its text is what the job's row records (the jobs page shows it), so a variant
/// that keeps a cause also shows the cause's text, as it did when it held the text alone.
#[derive(Debug, Error)]
pub enum JobError {
    #[error(transparent)]
    Tenancy(#[from] tenancy::TenancyError),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// Redis refused or lost a queue operation.
    #[error("could not queue the job: {0}")]
    Queue(#[source] Cause),
    /// The mail server turned a message away for now (a 4xx answer or a dropped connection).
    #[error("the mail server deferred the message: mail to {to}: {source}")]
    MailDeferred {
        to: String,
        #[source]
        source: mail::MailError,
    },
    /// The mail server refused a message for good.
    #[error("the message was refused: mail to {to}: {source}")]
    MailRefused {
        to: String,
        #[source]
        source: mail::MailError,
    },
    /// The message could not be built.
    #[error("the message was refused: {0}")]
    MailUnbuilt(#[source] mail::MailError),
    /// The uploaded file cannot be imported; the message is for the user.
    #[error("{0}")]
    BadFile(String),
    /// What the job works on cannot be used as it is (a mailing gone, a segment rule or report no longer valid);
    /// the message is for the user.
    #[error("{0}")]
    Invalid(String),
    /// What the job works on cannot be used as it is, as the store found it; its error says why, for the user.
    #[error("{0}")]
    Unusable(#[source] Cause),
    /// A local file the job writes or reads (a temporary copy of an upload, a report's file) failed.
    #[error("file error: {0}")]
    File(#[source] Cause),
    /// The send journal (see `worker/src/send/journal.rs`) could not be written or read.
    #[error("file error: send journal: {0}")]
    Journal(#[source] std::io::Error),
    /// A part of the job running beside it (a parser thread, an SMTP connection) ended before its work was done.
    #[error("the job stopped: {0}")]
    Stopped(#[source] Cause),
    /// The row's command or payload is not one this build knows.
    #[error("bad job payload: {0}")]
    Payload(#[from] serde_json::Error),
    /// Another worker holds what this job needs (a mailing's send lock); once it lets go, this job can run.
    #[error("{0}")]
    Busy(String),
    /// The worker's queue poll has not run for this long and a restart did not bring it back (its `pool.rs`).
    #[error("the queue poll stalled for {0:?}")]
    Stalled(std::time::Duration),
}

impl From<tokio::task::JoinError> for JobError {
    fn from(e: tokio::task::JoinError) -> Self {
        Self::Stopped(Box::new(e))
    }
}

impl From<ReportError> for JobError {
    fn from(e: ReportError) -> Self {
        match e {
            ReportError::Sql(e) => JobError::Database(e),
            ReportError::Invalid(m) => JobError::Invalid(m),
            ReportError::File(m) => JobError::File(m.into()),
        }
    }
}

impl JobError {
    /// A queue operation that failed, its error kept.
    pub fn queue(e: impl Into<Cause>) -> Self {
        Self::Queue(e.into())
    }

    /// A local file that failed, its error kept.
    pub fn file(e: impl Into<Cause>) -> Self {
        Self::File(e.into())
    }

    /// Errors worth another attempt: the database, queue or mail server may be back soon, a busy lock free. A bad
    /// file or payload never will be.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Self::Tenancy(_)
                | Self::Database(_)
                | Self::Queue(_)
                | Self::MailDeferred { .. }
                | Self::Busy(_)
        )
    }
}
