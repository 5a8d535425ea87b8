//! Prometheus metrics of the process, on the `metrics` facade and `metrics-exporter-prometheus`: the names, the
//! recorder and its text. The api serves it at `GET /metrics`, the worker on its own listener.
//!
//! One recorder per process: the api's request metrics and the worker's job metrics both go through
//! [`handle`], so a process running both (the tests do) shows both. Labels are job kinds and outcomes, never
//! client names; only the oldest queued job's age is by client, and by its id.

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Duration;

/// Jobs finished, by `kind` (the job row's command) and `outcome`: succeeded, failed (for good) or retried.
pub const JOBS: &str = "compass_jobs_total";
/// How long a job's run took, by kind.
pub const JOB_DURATION: &str = "compass_job_duration_seconds";
/// Messages waiting in the job queue (queued and scheduled for a retry), read when scraped.
pub const QUEUE_DEPTH: &str = "compass_queue_depth";
/// Mailing messages the SMTP server accepted; the send rate is `rate(compass_mail_messages_sent_total[1m])`.
pub const MAIL_SENT: &str = "compass_mail_messages_sent_total";
/// Worker processes on this queue that beat in the last 15 s, read when scraped.
pub const WORKERS_LIVE: &str = "compass_workers_live";
/// Seconds the oldest queued job of each client has waited (0 when none waits), by `client_id` (an id, never a
/// name), read when scraped: a job waiting long means no worker takes it.
pub const OLDEST_QUEUED: &str = "compass_oldest_queued_job_seconds";
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

/// Counts one finished job and its run time.
pub fn job_finished(kind: &str, outcome: &'static str, took: Duration) {
    metrics::counter!(JOBS, "kind" => kind.to_owned(), "outcome" => outcome).increment(1);
    metrics::histogram!(JOB_DURATION, "kind" => kind.to_owned()).record(took.as_secs_f64());
}

/// Counts one mailing message the SMTP server accepted.
pub fn message_sent() {
    metrics::counter!(MAIL_SENT).increment(1);
}
