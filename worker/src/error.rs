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
}

impl JobError {
    /// Errors worth another attempt: the database or queue may be back soon. A bad payload never will.
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Tenancy(_) | Self::Database(_) | Self::Queue(_))
    }
}
