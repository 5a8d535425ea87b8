//! Caps request bodies. poem's `SizeLimit` refuses every request without `Content-Length` (411), including
//! plain GETs, so this one checks the declared length when there is one and otherwise reads at most the limit.

use crate::error::ApiError;
use poem::http::header::CONTENT_LENGTH;
use poem::http::StatusCode;
use poem::{Body, Endpoint, Middleware, Request, Result};

pub struct BodyLimit {
    max_bytes: usize,
    max_upload_bytes: usize,
}

impl BodyLimit {
    /// `max_bytes` for ordinary bodies, `max_upload_bytes` for the file-upload operations.
    pub fn new(max_bytes: usize, max_upload_bytes: usize) -> Self {
        Self {
            max_bytes,
            max_upload_bytes,
        }
    }
}

/// The operations that take files: their bodies go to a temp file, not memory.
fn is_upload(path: &str) -> bool {
    let path = path.trim_end_matches('/');
    path == "/api/crm-list/upload"
        || path == "/api/contacts/ngp-import"
        || path == "/api/imports/contacts"
        || path == "/api/contributions/import"
}

impl<E: Endpoint> Middleware<E> for BodyLimit {
    type Output = BodyLimitEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        BodyLimitEndpoint {
            inner,
            max_bytes: self.max_bytes,
            max_upload_bytes: self.max_upload_bytes,
        }
    }
}

pub struct BodyLimitEndpoint<E> {
    inner: E,
    max_bytes: usize,
    max_upload_bytes: usize,
}

fn too_large() -> poem::Error {
    poem::Error::from_status(StatusCode::PAYLOAD_TOO_LARGE)
}

impl<E: Endpoint> Endpoint for BodyLimitEndpoint<E> {
    type Output = E::Output;

    async fn call(&self, mut req: Request) -> Result<Self::Output> {
        let max = if is_upload(req.uri().path()) {
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
