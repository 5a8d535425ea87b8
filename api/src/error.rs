//! The api's one error type and the one place errors become responses.
//!
//! Handlers return `Result<_, ApiError>`. poem's own errors (bad JSON, unknown route, body too large, missing
//! token) never pass through a handler, so [`render`] also turns them into the same `{"message": …}` body,
//! keeping their status codes.

use poem::http::StatusCode;
use poem::{IntoResponse, Response};
use poem_openapi::registry::{MetaHeader, MetaMediaType, MetaResponse, MetaResponses, Registry};
use poem_openapi::types::Type;
use poem_openapi::{ApiResponse, Object};
use telemetry::Chain;
use thiserror::Error;

/// The body of every error answer.
#[derive(Debug, Object, serde::Deserialize)]
pub struct ErrorMessage {
    pub message: String,
}

#[derive(Debug, Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    TooManyRequests(String),
    /// 429 with `Retry-After`: the server is busy (a queue is full) or the caller must wait this many seconds.
    #[error("{message}")]
    RetryLater { message: String, after_secs: u64 },
    #[error("{0}")]
    Unavailable(String),
    /// The cause goes to the log, with its chain, when the answer is made; never to the caller.
    #[error("Internal server error")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::TooManyRequests(_) | Self::RetryLater { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// An internal error keeping its cause: any error type, or a message for a state that should not happen.
    pub fn internal(cause: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self::Internal(cause.into())
    }
}

impl From<tenancy::TenancyError> for ApiError {
    fn from(e: tenancy::TenancyError) -> Self {
        use tenancy::TenancyError as T;
        match e {
            T::InvalidShortName(_) | T::InvalidClientName => Self::BadRequest(e.to_string()),
            T::DuplicateClient(_) => Self::Conflict(e.to_string()),
            T::UnknownClient(_) => Self::NotFound(e.to_string()),
            T::Database(db) => db.into(),
            T::Migrate(_)
            | T::DuplicateMigration(_)
            | T::MigrationState(_)
            | T::SchemasFailed(_) => Self::internal(e),
        }
    }
}

impl From<domain::InvalidListName> for ApiError {
    fn from(e: domain::InvalidListName) -> Self {
        Self::BadRequest(e.to_string())
    }
}

/// The unique name indexes of the client data and what the caller is told when a name is taken.
const TAKEN_NAMES: [(&str, &str); 3] = [
    (
        "crm_lists_name_unique",
        "A list with this name already exists",
    ),
    (
        "mailing_templates_name_unique",
        "A template with this name already exists",
    ),
    ("forms_name_unique", "A form with this name already exists"),
];

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        let taken = e
            .as_database_error()
            .filter(|db| db.is_unique_violation())
            .and_then(|db| db.constraint())
            .and_then(|name| TAKEN_NAMES.iter().find(|(index, _)| *index == name));
        match taken {
            Some((_, message)) => Self::Conflict((*message).to_owned()),
            None if database_unreachable(&e) => {
                tracing::error!(error = %Chain(&e), "database unavailable");
                Self::Unavailable(DATABASE_UNAVAILABLE.to_owned())
            }
            None => Self::internal(e),
        }
    }
}

const DATABASE_UNAVAILABLE: &str = "The database is unavailable; try again shortly";

/// A database that is restarting or out of reach is a passing condition the caller can retry (503), not a fault
/// of the server (500): no connection could be had, the connection broke, or the server is shutting down or
/// starting up (SQLSTATE class 08, 57P01–57P03).
fn database_unreachable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| {
            code.starts_with("08") || matches!(&*code, "57P01" | "57P02" | "57P03")
        }),
        _ => false,
    }
}

impl From<jobs::JobError> for ApiError {
    fn from(e: jobs::JobError) -> Self {
        match e {
            jobs::JobError::Queue(_) => {
                tracing::error!(error = %Chain(&e), "job queue unavailable");
                Self::Unavailable("The job queue is unavailable; try again shortly".to_owned())
            }
            other => Self::internal(other),
        }
    }
}

impl poem::error::ResponseError for ApiError {
    fn status(&self) -> StatusCode {
        ApiError::status(self)
    }

    fn as_response(&self) -> Response {
        if let Self::Internal(cause) = self {
            tracing::error!(error = %Chain(cause.as_ref()), "internal error");
        }
        let response = json_message(ApiError::status(self), &self.to_string());
        match self {
            Self::RetryLater { after_secs, .. } => response
                .with_header(poem::http::header::RETRY_AFTER, after_secs.to_string())
                .into_response(),
            _ => response,
        }
    }
}

/// Lists the error answers in the OpenAPI document so generated clients know their shape.
impl ApiResponse for ApiError {
    fn meta() -> MetaResponses {
        // 413 and 415 come from the body limit and from poem-openapi's payload parsing, before any handler runs;
        // they are listed for every operation, as the rest are, since a caller can meet them on any of them.
        let errors: [(u16, &'static str); 9] = [
            (400, "The request is malformed or invalid"),
            (401, "Missing, invalid or expired token"),
            (403, "Not allowed for this user or client"),
            (404, "Not found"),
            (409, "Conflicts with existing data"),
            (413, "The body is larger than this operation takes"),
            (
                415,
                "The body's Content-Type is missing or not one this operation takes",
            ),
            (429, "Too many requests, or too many at once: retry later"),
            (503, "A service the api needs is unavailable"),
        ];
        MetaResponses {
            responses: errors
                .into_iter()
                .map(|(status, description)| MetaResponse {
                    description,
                    status: Some(status),
                    status_range: None,
                    content: vec![MetaMediaType {
                        content_type: "application/json; charset=utf-8",
                        schema: ErrorMessage::schema_ref(),
                    }],
                    headers: if status == 429 {
                        vec![MetaHeader {
                            name: "Retry-After".to_owned(),
                            description: Some(
                                "Seconds to wait before retrying, when the server says".to_owned(),
                            ),
                            required: false,
                            deprecated: false,
                            schema: u64::schema_ref(),
                        }]
                    } else {
                        vec![]
                    },
                })
                .collect(),
        }
    }

    fn register(registry: &mut Registry) {
        ErrorMessage::register(registry);
    }
}

fn json_message(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({ "message": message });
    poem::web::Json(body).with_status(status).into_response()
}

/// Every error that leaves the server passes here (installed with `catch_all_error`).
pub async fn render(err: poem::Error) -> Response {
    if let Some(api) = err.downcast_ref::<ApiError>() {
        return poem::error::ResponseError::as_response(api);
    }
    let status = err.status();
    let message = match status {
        StatusCode::NOT_FOUND => "Not found".to_owned(),
        StatusCode::METHOD_NOT_ALLOWED => "Method not allowed".to_owned(),
        StatusCode::PAYLOAD_TOO_LARGE => "Request body is too large".to_owned(),
        StatusCode::UNAUTHORIZED => "Missing or invalid token".to_owned(),
        s if s.is_server_error() => {
            tracing::error!(error = %err, "unhandled server error");
            "Internal server error".to_owned()
        }
        _ => err.to_string(),
    };
    json_message(status, &message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_later_is_a_429_saying_how_long_to_wait() {
        let busy = ApiError::RetryLater {
            message: "Busy".to_owned(),
            after_secs: 5,
        };
        let response = poem::error::ResponseError::as_response(&busy);
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(
            response.headers().get(poem::http::header::RETRY_AFTER),
            Some(&poem::http::HeaderValue::from_static("5"))
        );
    }

    #[test]
    fn a_database_out_of_reach_answers_503_and_any_other_database_error_500() {
        for e in [sqlx::Error::PoolTimedOut, sqlx::Error::PoolClosed] {
            let api = ApiError::from(e);
            assert_eq!(api.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(api.to_string(), DATABASE_UNAVAILABLE);
        }
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert_eq!(
            ApiError::from(sqlx::Error::Io(refused)).status(),
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(
            ApiError::from(sqlx::Error::RowNotFound).status(),
            StatusCode::INTERNAL_SERVER_ERROR
        );
    }
}
