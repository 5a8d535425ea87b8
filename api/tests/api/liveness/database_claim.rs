//! The database path: a job whose queue message is gone is claimed from its row, and a job tried before waits
//! longer before it is claimed again.
use super::recount;
use crate::helpers::*;
use std::time::{Duration, Instant};

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
