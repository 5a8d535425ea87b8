use thiserror::Error;

#[derive(Debug, Error)]
pub enum TenancyError {
    #[error("invalid client short name {0:?}: use 2 to 31 lower-case letters, digits or _, starting with a letter")]
    InvalidShortName(String),
    #[error("a client with short name {0:?} already exists")]
    DuplicateClient(String),
    #[error("client name must be 1 to 200 characters")]
    InvalidClientName,
    #[error("no such client: {0}")]
    UnknownClient(String),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("tenant migration {0} is defined twice")]
    DuplicateMigration(i64),
    #[error("{0}")]
    MigrationState(String),
    #[error("migrations failed in {} schema(s): {}", .0.len(), .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    SchemasFailed(Vec<crate::SchemaFailure>),
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}
