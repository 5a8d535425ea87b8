//! Prometheus metrics of the process, on the `metrics` facade and `metrics-exporter-prometheus`, and the
//! worker's `/metrics` listener.
//!
//! One recorder per process: the api's request metrics and the worker's job metrics both go through
//! [`handle`], so a process running both (the tests do) shows both. Labels are job kinds and outcomes, never
//! clients.

use crate::JobQueue;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Jobs finished, by `kind` (the job row's command) and `outcome`: succeeded, failed (for good) or retried.
pub const JOBS: &str = "compass_jobs_total";
/// How long a job's run took, by kind.
pub const JOB_DURATION: &str = "compass_job_duration_seconds";
/// Messages waiting in the job queue (queued and scheduled for a retry), read when scraped.
pub const QUEUE_DEPTH: &str = "compass_queue_depth";
/// Mailing messages the SMTP server accepted; the send rate is `rate(compass_mail_messages_sent_total[1m])`.
pub const MAIL_SENT: &str = "compass_mail_messages_sent_total";
/// The api's request latency histogram (named here so its buckets are set with the recorder).
pub const HTTP_LATENCY: &str = "compass_http_request_duration_seconds";

/// The process's recorder, installed on first use.
pub fn handle() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full(HTTP_LATENCY.to_owned()),
                    &[
                        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
                    ],
                )
                .ok()?
                .set_buckets_for_metric(
                    Matcher::Full(JOB_DURATION.to_owned()),
                    &[0.1, 0.5, 1.0, 5.0, 15.0, 60.0, 300.0, 1800.0],
                )
                .ok()?
                .install_recorder()
                .map_err(|e| tracing::warn!(error = %e, "metrics recorder not installed"))
                .ok()
        })
        .as_ref()
}

/// The Prometheus text of everything recorded so far.
pub fn render() -> String {
    handle().map(PrometheusHandle::render).unwrap_or_default()
}

pub(crate) fn job_finished(kind: &str, outcome: &'static str, took: Duration) {
    metrics::counter!(JOBS, "kind" => kind.to_owned(), "outcome" => outcome).increment(1);
    metrics::histogram!(JOB_DURATION, "kind" => kind.to_owned()).record(took.as_secs_f64());
}

pub(crate) fn message_sent() {
    metrics::counter!(MAIL_SENT).increment(1);
}

/// Answers `GET /metrics` on `listener` with the Prometheus text, the queue's depth read fresh; anything else
/// gets 404. Deliberately tiny: it serves one scraper, so it reads one request per connection and closes it.
pub async fn serve(listener: TcpListener, queue: JobQueue) {
    let _ = handle();
    loop {
        let Ok((mut stream, _)) = listener.accept().await else {
            continue;
        };
        let queue = queue.clone();
        tokio::spawn(async move {
            let mut buf = vec![0u8; 4096];
            let mut read = 0;
            // Until the end of the request's head, or a full buffer, or a slow client gives up.
            while read < buf.len() && !buf[..read].windows(4).any(|w| w == b"\r\n\r\n") {
                match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf[read..]))
                    .await
                {
                    Ok(Ok(n)) if n > 0 => read += n,
                    _ => return,
                }
            }
            let response = if buf[..read].starts_with(b"GET /metrics ") {
                if let Ok(depth) = queue.depth().await {
                    metrics::gauge!(QUEUE_DEPTH).set(depth as f64);
                }
                let body = render();
                format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/plain; version=0.0.4; charset=utf-8\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                )
            } else {
                "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                    .to_owned()
            };
            let _ = stream.write_all(response.as_bytes()).await;
            let _ = stream.shutdown().await;
        });
    }
}
