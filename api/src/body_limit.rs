//! Caps request bodies. poem's `SizeLimit` refuses every request without `Content-Length` (411), including
//! plain GETs, so this one checks the declared length when there is one and otherwise reads at most the limit.

use crate::error::ApiError;
use poem::http::header::CONTENT_LENGTH;
use poem::http::StatusCode;
use poem::{Body, Endpoint, Middleware, Request, Result};

pub struct BodyLimit {
    max_bytes: usize,
}

impl BodyLimit {
    pub fn new(max_bytes: usize) -> Self {
        Self { max_bytes }
    }
}

impl<E: Endpoint> Middleware<E> for BodyLimit {
    type Output = BodyLimitEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        BodyLimitEndpoint {
            inner,
            max_bytes: self.max_bytes,
        }
    }
}

pub struct BodyLimitEndpoint<E> {
    inner: E,
    max_bytes: usize,
}

fn too_large() -> poem::Error {
    poem::Error::from_status(StatusCode::PAYLOAD_TOO_LARGE)
}

impl<E: Endpoint> Endpoint for BodyLimitEndpoint<E> {
    type Output = E::Output;

    async fn call(&self, mut req: Request) -> Result<Self::Output> {
        let declared = req
            .headers()
            .get(CONTENT_LENGTH)
            .map(|v| v.to_str().ok().and_then(|s| s.parse::<u64>().ok()));
        match declared {
            Some(Some(len)) if len > self.max_bytes as u64 => return Err(too_large()),
            Some(Some(_)) => {}
            Some(None) => {
                return Err(ApiError::BadRequest("Invalid Content-Length header".to_owned()).into())
            }
            None => {
                // A chunked body: read no more than the limit, then hand the bytes on.
                let bytes = req
                    .take_body()
                    .into_bytes_limit(self.max_bytes)
                    .await
                    .map_err(|_| too_large())?;
                req.set_body(Body::from_bytes(bytes));
            }
        }
        self.inner.call(req).await
    }
}
