use thiserror::Error;

#[derive(Debug, Error)]
pub enum JobError {
    #[error(transparent)]
    Tenancy(#[from] tenancy::TenancyError),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("could not queue the job: {0}")]
    Queue(String),
    #[error("unknown job command {0:?}")]
    UnknownCommand(String),
    /// The uploaded file cannot be imported; the message is for the user.
    #[error("{0}")]
    BadFile(String),
    #[error("file error: {0}")]
    Io(String),
    #[error("bad job payload: {0}")]
    Payload(#[from] serde_json::Error),
    /// Another worker holds what this job needs (a mailing's send lock); once it lets go, this job can run.
    #[error("{0}")]
    Busy(String),
}

impl JobError {
    /// Errors worth another attempt: the database or queue may be back soon, a busy lock free. A bad payload never
    /// will be.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Self::Tenancy(_) | Self::Database(_) | Self::Queue(_) | Self::Busy(_)
        )
    }
}
