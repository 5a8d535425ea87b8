//! `GET /metrics` in the Prometheus text format, on the `metrics` facade and `metrics-exporter-prometheus`.
//!
//! What it holds is aggregate only: requests counted by operation id (the OpenAPI `operationId`, e.g.
//! `searchContacts`) and HTTP status, with a latency histogram per operation. No client names, ids, paths with
//! ids or user data ever become labels, so the endpoint leaks nothing about any client. Still, when
//! `METRICS_TOKEN` is set, it answers only to `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); deploy
//! with it set whenever the api's port is reachable from outside the scraping network.

use poem::http::StatusCode;
use poem::{handler, Endpoint, IntoResponse, Request, Response};
use std::sync::Arc;
use std::time::Instant;

const REQUESTS: &str = "compass_http_requests_total";
const LATENCY: &str = telemetry::metrics::HTTP_LATENCY;

/// Installs the recorder; call once at start so the first request is counted too.
pub fn install() {
    let _ = telemetry::metrics::handle();
}

/// Counts one api request and its latency, by operation and status.
pub async fn record<E: Endpoint>(inner: Arc<E>, req: Request) -> poem::Result<Response> {
    let started = Instant::now();
    let result = inner.call(req).await.map(IntoResponse::into_response);
    let (status, operation) = match &result {
        Ok(response) => (
            response.status().as_u16(),
            response
                .extensions()
                .get::<poem_openapi::OperationId>()
                .map_or("other", |id| id.0),
        ),
        Err(e) => (e.status().as_u16(), "other"),
    };
    metrics::counter!(REQUESTS, "operation" => operation, "status" => status.to_string())
        .increment(1);
    metrics::histogram!(LATENCY, "operation" => operation).record(started.elapsed().as_secs_f64());
    result
}

/// The Prometheus text; with `METRICS_TOKEN` set, only for its bearer.
#[handler]
pub fn endpoint(req: &Request) -> Response {
    if let Some(token) = std::env::var("METRICS_TOKEN")
        .ok()
        .filter(|t| !t.is_empty())
    {
        let given = req
            .header("Authorization")
            .and_then(|h| h.strip_prefix("Bearer "))
            .unwrap_or("");
        if !constant_time_eq(given.as_bytes(), token.as_bytes()) {
            return StatusCode::UNAUTHORIZED.into_response();
        }
    }
    let body = telemetry::metrics::render();
    Response::builder()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(body)
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
