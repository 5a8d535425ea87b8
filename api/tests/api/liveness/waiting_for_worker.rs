//! The api says when a queued job waits for a worker because none is live, and the job runs once one is back.
use super::recount;
use crate::helpers::*;

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
