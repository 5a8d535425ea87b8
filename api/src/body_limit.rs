//! Caps request bodies. poem's `SizeLimit` refuses every request without `Content-Length` (411), including
//! plain GETs, so this one checks the declared length when there is one and otherwise reads at most the limit.
//!
//! Which operations take the larger upload limit is read from the operations themselves: one that declares a
//! `multipart/form-data` body (a file `Upload`; poem-openapi keeps it in a temp file, not memory) is an upload.
//! A new upload operation gets the limit by being one, with no list of paths to keep.

use crate::error::ApiError;
use poem::http::header::CONTENT_LENGTH;
use poem::http::{Method, StatusCode};
use poem::{Body, Endpoint, Middleware, Request, Result};
use std::sync::Arc;

/// The operations (method and path pattern, `{param}` matching any one segment) whose body is a multipart form.
#[derive(Debug, Clone, Default)]
pub struct UploadOperations(Vec<(Method, Vec<String>)>);

impl UploadOperations {
    /// Every operation of the API whose declared request body is `multipart/form-data`.
    pub fn of<T: poem_openapi::OpenApi>() -> Self {
        let mut found = Vec::new();
        for api in T::meta() {
            for path in api.paths {
                for op in path.operations {
                    let multipart = op.request.as_ref().is_some_and(|r| {
                        r.content
                            .iter()
                            .any(|c| c.content_type.starts_with("multipart/form-data"))
                    });
                    if multipart {
                        found.push((op.method.clone(), segments(&path.path)));
                    }
                }
            }
        }
        Self(found)
    }

    pub fn matches(&self, method: &Method, path: &str) -> bool {
        let path = segments(path);
        self.0.iter().any(|(m, pattern)| {
            m == method
                && pattern.len() == path.len()
                && pattern
                    .iter()
                    .zip(&path)
                    .all(|(p, s)| p == s || (p.starts_with('{') && p.ends_with('}')))
        })
    }

    /// The operations as `METHOD /path`, for tests and logs.
    pub fn list(&self) -> Vec<String> {
        self.0
            .iter()
            .map(|(m, p)| format!("{m} /{}", p.join("/")))
            .collect()
    }
}

fn segments(path: &str) -> Vec<String> {
    path.split('/')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

pub struct BodyLimit {
    max_bytes: usize,
    max_upload_bytes: usize,
    uploads: Arc<UploadOperations>,
}

impl BodyLimit {
    /// `max_bytes` for ordinary bodies, `max_upload_bytes` for the operations in `uploads`.
    pub fn new(max_bytes: usize, max_upload_bytes: usize, uploads: UploadOperations) -> Self {
        Self {
            max_bytes,
            max_upload_bytes,
            uploads: Arc::new(uploads),
        }
    }
}

impl<E: Endpoint> Middleware<E> for BodyLimit {
    type Output = BodyLimitEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        BodyLimitEndpoint {
            inner,
            max_bytes: self.max_bytes,
            max_upload_bytes: self.max_upload_bytes,
            uploads: self.uploads.clone(),
        }
    }
}

pub struct BodyLimitEndpoint<E> {
    inner: E,
    max_bytes: usize,
    max_upload_bytes: usize,
    uploads: Arc<UploadOperations>,
}

fn too_large() -> poem::Error {
    poem::Error::from_status(StatusCode::PAYLOAD_TOO_LARGE)
}

impl<E: Endpoint> Endpoint for BodyLimitEndpoint<E> {
    type Output = E::Output;

    async fn call(&self, mut req: Request) -> Result<Self::Output> {
        let max = if self.uploads.matches(req.method(), req.uri().path()) {
            self.max_upload_bytes
        } else {
            self.max_bytes
        };
        let declared = req
            .headers()
            .get(CONTENT_LENGTH)
            .map(|v| v.to_str().ok().and_then(|s| s.parse::<u64>().ok()));
        match declared {
            Some(Some(len)) if len > max as u64 => return Err(too_large()),
            Some(Some(_)) => {}
            Some(None) => {
                return Err(ApiError::BadRequest("Invalid Content-Length header".to_owned()).into())
            }
            None => {
                // A chunked body: read no more than the limit, then hand the bytes on.
                let bytes = req
                    .take_body()
                    .into_bytes_limit(max)
                    .await
                    .map_err(|_| too_large())?;
                req.set_body(Body::from_bytes(bytes));
            }
        }
        self.inner.call(req).await
    }
}
