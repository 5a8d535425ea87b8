//! The worker's `/metrics` and `/readyz` listener (the names and the recorder are `telemetry::metrics`).

use crate::Liveness;
use jobs::JobQueue;
use std::sync::Arc;
use std::time::Duration;
use telemetry::metrics::{handle, render, OLDEST_QUEUED, QUEUE_DEPTH, WORKERS_LIVE};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// What the listener reads when asked.
pub struct Sources {
    pub queue: JobQueue,
    pub tenancy: tenancy::Tenancy,
    pub liveness: Arc<Liveness>,
    /// `/readyz` fails once the queue poll has not run for this long.
    pub stall_after: Duration,
}

/// Answers `GET /metrics` on `listener` with the Prometheus text (queue depth, live workers and the age of each
/// client's oldest queued job read fresh) and `GET /readyz` with 200 while this process's queue poll runs, 503
/// once it has not for `stall_after`; anything else gets 404. Deliberately tiny: it serves one scraper and one
/// probe, so it reads one request per connection and closes it.
pub async fn serve(listener: TcpListener, sources: Sources) {
    let _ = handle();
    let sources = Arc::new(sources);
    loop {
        let Ok((mut stream, _)) = listener.accept().await else {
            continue;
        };
        let sources = Arc::clone(&sources);
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
            let head = &buf[..read];
            let response = if head.starts_with(b"GET /metrics ") {
                scrape(&sources).await;
                answer(
                    "200 OK",
                    "text/plain; version=0.0.4; charset=utf-8",
                    &render(),
                )
            } else if head.starts_with(b"GET /readyz ") {
                let since = sources.liveness.since_poll();
                let live = since <= sources.stall_after;
                let body = serde_json::json!({
                    "ready": live,
                    "checks": { "poll": if live { "ok" } else { "stalled" } },
                    "secondsSincePoll": since.as_secs(),
                })
                .to_string();
                let status = if live {
                    "200 OK"
                } else {
                    "503 Service Unavailable"
                };
                answer(status, "application/json", &body)
            } else {
                answer("404 Not Found", "text/plain", "")
            };
            let _ = stream.write_all(response.as_bytes()).await;
            let _ = stream.shutdown().await;
        });
    }
}

fn answer(status: &str, content_type: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\
         cache-control: no-store\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Reads the gauges that are measured, not counted.
async fn scrape(sources: &Sources) {
    if let Ok(depth) = sources.queue.depth().await {
        metrics::gauge!(QUEUE_DEPTH).set(depth as f64);
    }
    if let Ok(live) = jobs::liveness::live_workers(&sources.tenancy, sources.queue.name()).await {
        metrics::gauge!(WORKERS_LIVE).set(live as f64);
    }
    match crate::liveness::oldest_queued(&sources.tenancy).await {
        Ok(ages) => {
            for (client, age) in ages {
                metrics::gauge!(OLDEST_QUEUED, "client_id" => client).set(age);
            }
        }
        Err(e) => tracing::warn!(error = %telemetry::Chain(&e), "oldest queued jobs not read"),
    }
}
