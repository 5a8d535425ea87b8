use thiserror::Error;

/// What went wrong in a job, named for what happened. Whether another attempt can help is decided once, in
/// [`JobError::is_transient`].
#[derive(Debug, Error)]
pub enum JobError {
    #[error(transparent)]
    Tenancy(#[from] tenancy::TenancyError),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// Redis refused or lost a queue operation.
    #[error("could not queue the job: {0}")]
    Queue(String),
    /// The mail server turned a message away for now (a 4xx answer or a dropped connection).
    #[error("the mail server deferred the message: {0}")]
    MailDeferred(String),
    /// The mail server refused a message for good, or the message could not be built.
    #[error("the message was refused: {0}")]
    MailRefused(String),
    /// The uploaded file cannot be imported; the message is for the user.
    #[error("{0}")]
    BadFile(String),
    /// What the job works on cannot be used as it is (a mailing gone, a segment rule or report no longer valid);
    /// the message is for the user.
    #[error("{0}")]
    Invalid(String),
    /// A local file the job writes or reads (a temporary copy of an upload, a send journal) failed.
    #[error("file error: {0}")]
    File(String),
    /// A part of the job running beside it (a parser thread, an SMTP connection) ended before its work was done.
    #[error("the job stopped: {0}")]
    Stopped(String),
    /// The row's command or payload is not one this build knows.
    #[error("bad job payload: {0}")]
    Payload(#[from] serde_json::Error),
    /// Another worker holds what this job needs (a mailing's send lock); once it lets go, this job can run.
    #[error("{0}")]
    Busy(String),
}

impl From<tokio::task::JoinError> for JobError {
    fn from(e: tokio::task::JoinError) -> Self {
        Self::Stopped(e.to_string())
    }
}

impl JobError {
    /// Errors worth another attempt: the database, queue or mail server may be back soon, a busy lock free. A bad
    /// file or payload never will be.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Self::Tenancy(_)
                | Self::Database(_)
                | Self::Queue(_)
                | Self::MailDeferred(_)
                | Self::Busy(_)
        )
    }
}
