//! A job never waits for a worker that stopped listening (issue 28): the database path runs a job whose queue
//! message is gone, a worker whose queue poll stalls is noticed and ends, and the api says when no worker is live.
use crate::helpers::*;
use jobs::{JobError, JobQueue};
use reqwest::{Method, StatusCode};
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use worker::run_pool;

/// Starts a recount job through the api and returns its id.
async fn recount(app: &TestApp, session: &Session) -> i64 {
    let response = app
        .api(Method::POST, "/api/crm-list/recount", session)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    response.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap()
}

/// Deletes every key of the queue, as a flushed or restarted Redis would: the job's message is gone.
async fn lose_the_queue(queue_name: &str) {
    let client = redis::Client::open(redis_url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{queue_name}*"))
        .query_async(&mut conn)
        .await
        .unwrap();
    if !keys.is_empty() {
        let _: () = redis::cmd("DEL")
            .arg(&keys)
            .query_async(&mut conn)
            .await
            .unwrap();
    }
}

async fn job_row(app: &TestApp, client: &tenancy::Client, id: i64) -> (String, i32) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query_as("select status, attempts from jobs where id = $1")
        .bind(id)
        .fetch_one(&mut *tx)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_job_whose_queue_message_is_gone_is_claimed_from_the_database_within_seconds() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let id = recount(&app, &session).await;
    lose_the_queue(&app.queue_name).await;

    // The worker does not reconcile (that waits a minute in production): only the database path can run it.
    let started = Instant::now();
    let worker = app.start_worker_claiming(client.id).await;
    let deadline = started + Duration::from_secs(20);
    while job_row(&app, &client, id).await.0 != "done" {
        assert!(
            Instant::now() < deadline,
            "the job was not claimed from the database"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let took = started.elapsed();
    assert_eq!(job_row(&app, &client, id).await, ("done".to_owned(), 1));
    let job = app.get_json(&format!("/api/jobs/{id}"), &session).await;
    assert_eq!(job["success"], true);
    worker.stop().await;
    println!("liveness: job without a queue message ran after {took:?} through the database");
}

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
    let deadline = Instant::now() + Duration::from_secs(10);
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

#[tokio::test]
async fn a_job_tried_before_waits_longer_before_the_database_path_claims_it_again() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let id = recount(&app, &session).await;
    let claimable = |attempts: i32, ago: &'static str| {
        let (app, client) = (&app, &client);
        async move {
            let mut tx = app.tenancy.begin(client).await.unwrap();
            sqlx::query(
                "update jobs set attempts = $2, updated = now() - $3::interval where id = $1",
            )
            .bind(id)
            .bind(attempts)
            .bind(ago)
            .execute(&mut *tx)
            .await
            .unwrap();
            tx.commit().await.unwrap();
            let claimed = worker::claim::claim(&app.tenancy, Some(client.id))
                .await
                .unwrap();
            claimed.map(|(_, job, _lock)| job)
        }
    };
    // Never tried: claimable 2 s after it was queued.
    assert_eq!(claimable(0, "1 second").await, None);
    assert_eq!(claimable(0, "3 seconds").await, Some(id));
    // Three attempts: 2 s × 2² = 8 s after the last.
    assert_eq!(claimable(3, "5 seconds").await, None);
    assert_eq!(claimable(3, "9 seconds").await, Some(id));
    // Many attempts: never more than 30 s.
    assert_eq!(claimable(12, "29 seconds").await, None);
    assert_eq!(claimable(12, "31 seconds").await, Some(id));
}

#[tokio::test]
async fn reconcile_moves_a_retry_overdue_in_the_scheduled_set_to_the_waiting_list() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let id = recount(&app, &session).await;
    let redis = redis::Client::open(redis_url()).unwrap();
    let mut conn = redis.get_multiplexed_async_connection().await.unwrap();
    let (active, scheduled) = (
        format!("{}:active", app.queue_name),
        format!("{}:scheduled", app.queue_name),
    );
    // The api queues the job's message in the scheduled set, due now; a worker's poll moves due messages to the
    // waiting list, so with no poll running it stays there. Backdated a minute, it is what the walk saw: overdue
    // messages that no poll moved. One due in an hour stays where it is.
    let pending: Vec<String> = redis::cmd("ZRANGE")
        .arg(&scheduled)
        .arg(0)
        .arg(-1)
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(pending.len(), 1, "the job's message: {pending:?}");
    let task = pending[0].clone();
    let now = chrono::Utc::now().timestamp();
    let _: () = redis::pipe()
        .cmd("ZADD")
        .arg(&scheduled)
        .arg(now - 60)
        .arg(&task)
        .cmd("ZADD")
        .arg(&scheduled)
        .arg(now + 3600)
        .arg("due-later")
        .query_async(&mut conn)
        .await
        .unwrap();

    let queue = JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    assert_eq!(
        queue
            .promote_overdue(Duration::from_secs(10))
            .await
            .unwrap(),
        1
    );
    let waiting: Vec<String> = redis::cmd("LRANGE")
        .arg(&active)
        .arg(0)
        .arg(-1)
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(waiting, vec![task]);
    let left: Vec<String> = redis::cmd("ZRANGE")
        .arg(&scheduled)
        .arg(0)
        .arg(-1)
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(left, vec!["due-later".to_owned()]);

    // A worker takes it from the waiting list.
    let _: () = redis::cmd("ZREM")
        .arg(&scheduled)
        .arg("due-later")
        .query_async(&mut conn)
        .await
        .unwrap();
    let worker = app.start_worker().await;
    let done = app.wait_for_job(&session, id).await;
    assert_eq!(done["success"], true, "{done}");
    worker.stop().await;
}

async fn set_job_updated(app: &TestApp, client: &tenancy::Client, id: i64, ago: &str) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query("update jobs set updated = now() - $2::interval where id = $1")
        .bind(id)
        .bind(ago)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// A worker row of the app's queue whose last beat was `ago`.
async fn worker_beat(app: &TestApp, name: &str, ago: &str) {
    let mut tx = app.tenancy.public().await.unwrap();
    sqlx::query(
        "insert into workers (name, queue, beat) values ($1, $2, now() - $3::interval)
         on conflict (name) do update set beat = excluded.beat",
    )
    .bind(name)
    .bind(&app.queue_name)
    .bind(ago)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

#[tokio::test]
async fn a_job_queued_with_no_live_worker_says_it_is_waiting_for_one_and_runs_when_one_is_back() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let id = recount(&app, &session).await;
    let job = app.get_json(&format!("/api/jobs/{id}"), &session).await;
    assert_eq!(job["waitingForWorker"], false, "queued a moment ago");

    // Queued for 20 s (backdated) and no worker on the queue: the answer says so, one job and the list alike.
    set_job_updated(&app, &client, id, "20 seconds").await;
    let job = app.get_json(&format!("/api/jobs/{id}"), &session).await;
    assert_eq!(job["status"], "queued");
    assert_eq!(job["waitingForWorker"], true);
    let list = app.get_json("/api/jobs", &session).await;
    assert_eq!(list[0]["id"], id);
    assert_eq!(list[0]["waitingForWorker"], true);

    // A worker that beat just now is live; one whose last beat is 16 s old is not.
    let name = unique("liveness-probe-");
    worker_beat(&app, &name, "0 seconds").await;
    let job = app.get_json(&format!("/api/jobs/{id}"), &session).await;
    assert_eq!(job["waitingForWorker"], false);
    worker_beat(&app, &name, "16 seconds").await;
    let job = app.get_json(&format!("/api/jobs/{id}"), &session).await;
    assert_eq!(job["waitingForWorker"], true);

    // A worker comes back: the job runs.
    let worker = app.start_worker().await;
    let done = app.wait_for_job(&session, id).await;
    assert_eq!(done["success"], true);
    assert_eq!(done["waitingForWorker"], false);
    worker.stop().await;
}
