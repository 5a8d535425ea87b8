//! A worker whose queue poll stalls (Redis stops answering) is noticed by the watchdog: restarted, and ended when
//! the restart brings no poll back.
use super::recount;
use crate::helpers::*;
use jobs::{JobError, JobQueue};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use worker::run_pool;

/// A TCP proxy to the test Redis that can stop forwarding, as a Redis reply that never comes would.
struct FreezingProxy {
    port: u16,
    frozen: Arc<AtomicBool>,
}

impl FreezingProxy {
    async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let frozen = Arc::new(AtomicBool::new(false));
        let upstream = redis_url()
            .trim_start_matches("redis://")
            .trim_end_matches('/')
            .to_owned();
        let flag = Arc::clone(&frozen);
        tokio::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                let Ok(outbound) = tokio::net::TcpStream::connect(&upstream).await else {
                    continue;
                };
                let (ri, wi) = inbound.into_split();
                let (ro, wo) = outbound.into_split();
                tokio::spawn(forward(ri, wo, Arc::clone(&flag)));
                tokio::spawn(forward(ro, wi, Arc::clone(&flag)));
            }
        });
        Self { port, frozen }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    fn freeze(&self) {
        self.frozen.store(true, Ordering::SeqCst);
    }

    fn thaw(&self) {
        self.frozen.store(false, Ordering::SeqCst);
    }
}

/// A worker pool whose queue goes through `proxy`, with the watchdog's threshold `stall_after`, no database claim
/// and no reconcile.
async fn pool_behind(
    app: &TestApp,
    proxy: &FreezingProxy,
    stall_after: Duration,
) -> (
    tokio::task::JoinHandle<Result<(), JobError>>,
    Arc<worker::Liveness>,
) {
    let queue = JobQueue::connect(&proxy.url(), &app.queue_name)
        .await
        .unwrap();
    let mut config = app.pool_config(None, None);
    config.stall_after = stall_after;
    config.shutdown_timeout = Duration::from_secs(1);
    let liveness = Arc::clone(&config.liveness);
    let (services, tenancy) = (app.worker_services(), app.tenancy.clone());
    let pool = tokio::spawn(async move {
        run_pool(tenancy, queue, services, config, std::future::pending()).await
    });
    (pool, liveness)
}

/// Waits until the worker's row in `public.workers` says its queue poll ran in the last second.
async fn wait_until_polling(app: &TestApp, liveness: &worker::Liveness) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut tx = app.tenancy.public().await.unwrap();
        let polled: Option<f64> = sqlx::query_scalar(
            "select extract(epoch from now() - polled)::float8 from workers where name = $1",
        )
        .bind(liveness.name())
        .fetch_optional(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
        if polled.is_some_and(|age| age < 1.0) {
            return;
        }
        assert!(Instant::now() < deadline, "the worker did not beat");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn forward(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    frozen: Arc<AtomicBool>,
) {
    let mut buf = vec![0u8; 16384];
    loop {
        let Ok(n) = from.read(&mut buf).await else {
            return;
        };
        if n == 0 {
            return;
        }
        // Frozen: the bytes are held for good, the connection stays open, nothing answers.
        while frozen.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

#[tokio::test]
async fn a_worker_whose_queue_poll_stalls_is_restarted_and_then_exits() {
    let app = spawn_app().await;
    let proxy = FreezingProxy::start().await;
    // The watchdog's threshold is injectable: a second here, 15 s in production.
    let (pool, liveness) = pool_behind(&app, &proxy, Duration::from_secs(1)).await;

    // While Redis answers, the poll runs and the worker beats in Postgres.
    wait_until_polling(&app, &liveness).await;
    assert!(!pool.is_finished());

    // Redis stops answering: the poll stalls, the watchdog restarts the workers, and when that brings no poll
    // back the pool ends with an error, so the process exits non-zero and its supervisor starts a new one.
    proxy.freeze();
    let frozen_at = Instant::now();
    let ended = tokio::time::timeout(Duration::from_secs(30), pool)
        .await
        .expect("the stalled pool ended")
        .unwrap();
    assert!(
        matches!(ended, Err(JobError::Stalled(_))),
        "ended with {ended:?}"
    );
    println!(
        "liveness: stalled poll ended the pool {:?} after Redis froze",
        frozen_at.elapsed()
    );
}

#[tokio::test]
async fn a_worker_whose_queue_poll_stalls_for_a_moment_is_restarted_and_takes_jobs_again() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let proxy = FreezingProxy::start().await;
    // No database claim and no reconcile: only the queue's restarted workers can run the job below.
    let (pool, liveness) = pool_behind(&app, &proxy, Duration::from_secs(3)).await;
    wait_until_polling(&app, &liveness).await;

    // Redis stops answering long enough for the watchdog to restart the workers, then answers again.
    proxy.freeze();
    let deadline = Instant::now() + Duration::from_secs(20);
    while liveness.restarts() == 0 {
        assert!(
            !pool.is_finished(),
            "the pool ended instead of restarting its workers"
        );
        assert!(
            Instant::now() < deadline,
            "the watchdog did not restart the workers"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    proxy.thaw();

    let id = recount(&app, &session).await;
    let done = app.wait_for_job(&session, id).await;
    assert_eq!(done["success"], true, "{done}");
    assert!(!pool.is_finished(), "the pool carried on after the restart");
    assert_eq!(liveness.restarts(), 1);
    pool.abort();
}
