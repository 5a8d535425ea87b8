//! The worker's `/metrics` (issue 18): the real binary started with `WORKER_METRICS_ADDR` runs a send and a
//! recount, and its Prometheus text counts both jobs by kind and outcome, the messages the SMTP server accepted
//! and the queue's depth. Real Postgres, Redis and SMTP sink.

use jobs::{JobKind, JobQueue};
use mail::sink::{serve, Delivered};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tenancy::{ClientShort, Tenancy};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{env, unique};

/// Kills the worker when the test ends, passed or not.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The body of `GET /metrics` at `addr`, or `None` while nothing answers there.
async fn scrape(addr: &str) -> Option<String> {
    let mut stream = tokio::net::TcpStream::connect(addr).await.ok()?;
    stream
        .write_all(b"GET /metrics HTTP/1.1\r\nhost: worker\r\nconnection: close\r\n\r\n")
        .await
        .ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).await.ok()?;
    let (head, body) = response.split_once("\r\n\r\n")?;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.contains("content-type: text/plain; version=0.0.4"),
        "{head}"
    );
    Some(body.to_owned())
}

/// The value of the sample whose line starts with `series` (name and labels, as Prometheus prints them).
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

#[tokio::test]
async fn worker_metrics_count_jobs_by_kind_and_outcome_messages_sent_and_queue_depth() {
    let _alone = crate::ONE_AT_A_TIME.lock().await;
    let database_url = env(
        "TEST_DATABASE_URL",
        "postgres://postgres@127.0.0.1:5432/compass_test",
    );
    let redis_url = env("TEST_REDIS_URL", "redis://127.0.0.1:6379");
    let queue_name = unique("compass-worker-metrics-");

    let smtp = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let smtp_url = format!("smtp://127.0.0.1:{}", smtp.local_addr().unwrap().port());
    let delivered = Arc::new(AtomicUsize::new(0));
    let count = delivered.clone();
    tokio::spawn(serve(
        smtp,
        Arc::new(move |m: Delivered| {
            count.fetch_add(m.recipients.len(), Ordering::SeqCst);
        }),
    ));

    let tenancy = Tenancy::connect(&database_url, 2).await.unwrap();
    tenancy.migrate_all().await.unwrap();
    let client = tenancy
        .create_client(&ClientShort::parse(&unique("m")).unwrap(), "Worker metrics")
        .await
        .unwrap();
    let mut tx = tenancy.begin(&client).await.unwrap();
    for statement in [
        "insert into contacts (email, first_name) select 'p' || i || '@metrics.example.org', 'Pat' from generate_series(1, 3) i",
        "insert into crm_lists (name, kind) values ('Everyone', 'upload')",
        "insert into crm_list_members (list_id, contact_id) select 1, id from contacts",
        "insert into senders (name, from_address) values ('Team', 'team@example.org')",
        "insert into mailings (name, subject_line, sender_id, send_time, list_id, body_html, is_draft, send_attempt, delivery)
         values ('Appeal', 'Hello', 1, now(), 1, '<p>Dear {{First.Name}}</p>', false, now(), 'sending')",
    ] {
        sqlx::query(statement).execute(&mut *tx).await.unwrap();
    }
    let queue = JobQueue::connect(&redis_url, &queue_name).await.unwrap();
    queue
        .enqueue_many(
            tx,
            None,
            &[
                JobKind::SendMailing { mailing_id: 1 },
                JobKind::RecountLists {},
            ],
        )
        .await
        .unwrap();
    assert_eq!(
        queue.depth().await.unwrap(),
        2,
        "both jobs queued before the worker starts"
    );

    let metrics_addr = {
        let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        free.local_addr().unwrap().to_string()
    };
    let _worker = Running(
        Command::new(env!("CARGO_BIN_EXE_worker"))
            .env("DATABASE_URL", &database_url)
            .env("REDIS_URL", &redis_url)
            .env("JOB_QUEUE", &queue_name)
            .env("SMTP_URL", &smtp_url)
            .env(
                "SEND_JOURNAL_DIR",
                std::env::temp_dir().join(unique("compass-journal-")),
            )
            .env("TRACKING_SECRET", "worker-metrics-test")
            .env("WORKER_METRICS_ADDR", &metrics_addr)
            // Only the jobs this test queues: the scheduler's first pass must not pick up other tests' mailings.
            .env("SCHEDULE_SECONDS", "86400")
            // Nor may its reconcile pass re-queue other tests' jobs onto this queue (they would count here).
            .env("RECONCILE_ONLY_CLIENT", client.id.to_string())
            .env("RUST_LOG", "warn")
            .spawn()
            .unwrap(),
    );

    let started = Instant::now();
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the jobs were not counted as succeeded within 60 s"
        );
        if let Some(text) = scrape(&metrics_addr).await {
            let succeeded = |kind: &str| {
                sample(
                    &text,
                    &format!("compass_jobs_total{{kind=\"{kind}\",outcome=\"succeeded\"}}"),
                )
            };
            if succeeded("send-mailing") == Some(1.0) && succeeded("recount-lists") == Some(1.0) {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The gauges are read at the start of a scrape, the counters when it renders: a scrape that began before the
    // jobs ran can show them succeeded beside a queue depth of 2. A scrape that starts after both ran is the one to read.
    let text = scrape(&metrics_addr)
        .await
        .expect("the worker answers /metrics after its jobs ran");
    assert_eq!(
        delivered.load(Ordering::SeqCst),
        3,
        "the sink received the send"
    );
    assert_eq!(
        sample(&text, "compass_mail_messages_sent_total"),
        Some(3.0),
        "{text}"
    );
    assert_eq!(sample(&text, "compass_queue_depth"), Some(0.0), "{text}");
    assert!(
        text.contains("compass_job_duration_seconds_bucket{kind=\"send-mailing\",le=\"0.1\"}"),
        "{text}"
    );
    assert!(
        !text.contains(&client.short_name) && !text.contains("metrics.example.org"),
        "a client or a recipient in /metrics:\n{text}"
    );
    // Issue 28: the live workers of the queue and the age of each client's oldest queued job (none waits here).
    assert_eq!(sample(&text, "compass_workers_live"), Some(1.0), "{text}");
    let oldest = format!(
        "compass_oldest_queued_job_seconds{{client_id=\"{}\"}}",
        client.id
    );
    assert_eq!(sample(&text, &oldest), Some(0.0), "{text}");
    // And its own /readyz: ready while its queue poll runs.
    let mut stream = tokio::net::TcpStream::connect(&metrics_addr).await.unwrap();
    stream
        .write_all(b"GET /readyz HTTP/1.1\r\nhost: worker\r\nconnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("\"poll\":\"ok\""), "{response}");
}
