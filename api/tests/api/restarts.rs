//! Restarts and faults (issue 18): a job whose queue message Redis lost is queued again by the worker, and a job
//! is never run twice.
use crate::helpers::*;
use jobs::{JobMessage, JobQueue};
use reqwest::{Method, StatusCode};
use serde_json::Value;
use std::time::Duration;

async fn seed(app: &TestApp, client: &tenancy::Client) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::raw_sql(
        "insert into origin_codes (name) values ('web');
         insert into contacts (email, origin_code_id) select 'p' || g || '@example.org', (select id from origin_codes)
         from generate_series(1, 3) g;
         insert into crm_lists (name, origin_code_ids, count) select 'Web', array[id], 0 from origin_codes",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

/// Removes everything the queue holds in Redis, as a Redis restart without persistence would.
async fn lose_the_queue(queue_name: &str) -> usize {
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
    keys.len()
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
async fn a_job_whose_queue_message_was_lost_is_queued_again_and_runs_once() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    seed(&app, &client).await;
    // No worker runs: the job waits in Postgres and in Redis.
    let response = app
        .api(Method::POST, "/api/crm-list/recount", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let id = response.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap();
    let queue = JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let message = JobMessage {
        client_id: client.id,
        job_id: id,
    };
    assert!(queue.messages().await.unwrap().contains(&message));

    // While the message is there, reconcile leaves the job alone (even once it has waited past the grace time).
    backdate(&app, &client, id).await;
    assert_eq!(
        worker::reconcile::once(&app.tenancy, &queue, Some(client.id))
            .await
            .unwrap(),
        0
    );

    // Redis loses the queue; the row still says queued, and has waited longer than the grace time.
    assert!(lose_the_queue(&app.queue_name).await > 0);
    assert!(queue.messages().await.unwrap().is_empty());
    backdate(&app, &client, id).await;

    // A worker starts: reconcile queues the job again at start and it runs, once.
    let worker = app
        .start_worker_reconciling(client.id, Duration::from_secs(60))
        .await;
    let done = app.wait_for_job(&session, id).await;
    assert_eq!(done["status"], "done");
    assert_eq!(done["success"], true);
    assert_eq!(job_row(&app, &client, id).await, ("done".to_owned(), 1));

    // A stray second message for the finished job changes nothing.
    queue.redeliver(message.clone()).await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while queue_still_has_undone(&app.queue_name).await && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(job_row(&app, &client, id).await, ("done".to_owned(), 1));
    // And a finished job is not reconciled.
    assert_eq!(
        worker::reconcile::once(&app.tenancy, &queue, Some(client.id))
            .await
            .unwrap(),
        0
    );
    worker.stop().await;
    println!("restarts: 1 lost message re-queued, job ran 1 time, 1 duplicate dropped");
}

async fn backdate(app: &TestApp, client: &tenancy::Client, id: i64) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query("update jobs set updated = now() - interval '1 minute' where id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// True while the queue's active list still holds a message to hand out.
async fn queue_still_has_undone(queue_name: &str) -> bool {
    let client = redis::Client::open(redis_url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let active: usize = redis::cmd("LLEN")
        .arg(format!("{queue_name}:active"))
        .query_async(&mut conn)
        .await
        .unwrap();
    active > 0
}

/// A Redis server of the test's own, so it can be restarted without touching other tests' queues.
struct PrivateRedis {
    port: u16,
    process: std::process::Child,
}

impl PrivateRedis {
    async fn start(port: u16) -> Self {
        let process = std::process::Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server is installed");
        let redis = Self { port, process };
        let client = redis::Client::open(redis.url()).unwrap();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(mut conn) = client.get_multiplexed_async_connection().await {
                if redis::cmd("PING")
                    .query_async::<String>(&mut conn)
                    .await
                    .is_ok()
                {
                    return redis;
                }
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "redis-server started"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Stops the server (as a crash would: no save) and starts a new one, empty, on the same port.
    async fn restart(mut self) -> Self {
        self.process.kill().unwrap();
        self.process.wait().unwrap();
        Self::start(self.port).await
    }
}

impl Drop for PrivateRedis {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Issue 33, item 3: after a Redis restart, the first sign-in and the first job are answered as usual (the
/// connection is made again and the call tried once more), and the job's message is in the new Redis at once.
#[tokio::test]
async fn after_a_redis_restart_the_first_sign_in_and_the_first_job_succeed() {
    let redis = PrivateRedis::start(free_port()).await;
    let app = spawn_app_with(|s| s.redis_url = redis.url()).await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let email = app.create_user(true, &[]).await;
    seed(&app, &client).await;

    let redis = redis.restart().await;
    assert_eq!(
        app.login(&email, PASSWORD).await.status(),
        StatusCode::OK,
        "the first sign-in after the restart"
    );
    let redis = redis.restart().await;
    let response = app
        .api(Method::POST, "/api/crm-list/recount", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.status(),
        StatusCode::ACCEPTED,
        "the first job after the restart"
    );
    let id = response.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap();
    let queue = JobQueue::connect(&redis.url(), &app.queue_name)
        .await
        .unwrap();
    assert!(
        queue.messages().await.unwrap().contains(&JobMessage {
            client_id: client.id,
            job_id: id,
        }),
        "the message went to the new Redis, not to reconcile a minute later"
    );
    assert_eq!(job_row(&app, &client, id).await, ("queued".to_owned(), 0));
}
