use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::Value;

/// Fills a client with contacts and lists whose stored counts are wrong, as after an import.
async fn seed_lists(app: &TestApp, client: &tenancy::Client) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query(
        "with codes as (insert into origin_codes (name) values ('web'), ('event') returning id, name)
         insert into contacts (email, origin_code_id)
         select 'person' || i || '@example.org', (select id from codes where name = case when i <= 7 then 'web' else 'event' end)
         from generate_series(1, 10) i",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    sqlx::query(
        "insert into crm_lists (name, kind, origin_code_ids, count)
         select 'Web sign-ups', 'query', array_agg(id), 0 from origin_codes where name = 'web'
         union all select 'Uploaded', 'upload', '{}', 99",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    sqlx::query(
        "insert into crm_list_members (list_id, contact_id)
         select (select l.id from crm_lists l where l.name = 'Uploaded'), c.id from contacts c order by c.id limit 4",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

async fn list_counts(app: &TestApp, client: &tenancy::Client) -> Vec<(String, i32)> {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query_as("select name, count from crm_lists order by name")
        .fetch_all(&mut *tx)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_job_goes_from_the_api_through_redis_to_the_worker_and_back() {
    let app = spawn_app().await;
    let worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    seed_lists(&app, &client).await;

    let response = app
        .api(Method::POST, "/api/crm-list/recount", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let queued: Value = response.json().await.unwrap();
    assert_eq!(queued["label"], "Recount lists");
    assert_eq!(queued["completed"], false);
    assert_eq!(queued["_id"], queued["id"]);

    let done = app
        .wait_for_job(&session, queued["id"].as_i64().unwrap())
        .await;
    assert_eq!(done["status"], "done");
    assert_eq!(done["success"], true);
    assert_eq!(done["progress"], 100);
    assert_eq!(done["result"]["message"], "Recounted 2 lists; 2 changed.");
    assert_eq!(done["result"]["link"], "/crm-lists");
    assert_eq!(
        list_counts(&app, &client).await,
        vec![("Uploaded".to_owned(), 4), ("Web sign-ups".to_owned(), 7)]
    );

    let jobs: Vec<Value> = app
        .api(Method::GET, "/api/jobs", &session)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0]["id"], done["id"]);
    assert!(jobs[0]["user"]["id"].as_i64().is_some());
    worker.stop().await;
}

#[tokio::test]
async fn a_job_queued_while_no_worker_runs_finishes_once_one_starts_again() {
    let app = spawn_app().await;
    // A worker that dies before the job arrives.
    app.start_worker().await.kill();
    let client = app.create_client().await;
    let session = app.session(&client).await;
    seed_lists(&app, &client).await;

    let queued: Value = app
        .api(Method::POST, "/api/crm-list/recount", &session)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = queued["id"].as_i64().unwrap();
    // No worker took it: its message waits in the queue (nothing to wait for, since no worker runs).
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    assert_eq!(queue.depth().await.unwrap(), 1);
    let still: Value = app
        .api(Method::GET, &format!("/api/jobs/{id}"), &session)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(still["status"], "queued");

    let worker = app.start_worker().await;
    let done = app.wait_for_job(&session, id).await;
    assert_eq!(done["success"], true);
    assert_eq!(
        list_counts(&app, &client).await[1],
        ("Web sign-ups".to_owned(), 7)
    );
    worker.stop().await;
}

/// Queues a recount of the client's lists; the job's id.
async fn recount(app: &TestApp, session: &Session) -> i64 {
    let queued: Value = app
        .api(Method::POST, "/api/crm-list/recount", session)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    queued["id"].as_i64().unwrap()
}

#[tokio::test]
async fn a_redelivered_message_for_a_finished_job_changes_nothing() {
    let app = spawn_app().await;
    // One job at a time, so a job queued after the redelivered message finishing means that message was handled.
    let worker = app.start_worker_one_at_a_time().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let id = recount(&app, &session).await;
    let first = app.wait_for_job(&session, id).await;

    // Deliver the same message again, as at-least-once delivery may.
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    queue
        .redeliver(jobs::JobMessage {
            client_id: client.id,
            job_id: id,
        })
        .await
        .unwrap();
    let marker = recount(&app, &session).await;
    app.wait_for_job(&session, marker).await;
    let second: Value = app
        .api(Method::GET, &format!("/api/jobs/{id}"), &session)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(second["updated"], first["updated"]);
    assert_eq!(second["result"], first["result"]);
    worker.stop().await;
}

#[tokio::test]
async fn an_unknown_job_is_a_json_404() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let response = app
        .api(Method::GET, "/api/jobs/424242/", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(response).await,
        (StatusCode::NOT_FOUND, "Job not found".to_owned())
    );
    let bad = app
        .api(Method::GET, "/api/jobs/abc", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_job_that_fails_for_a_passing_reason_is_retried_with_backoff_and_then_succeeds() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    seed_lists(&app, &client).await;
    // Break the client's schema so the first attempt fails with a database error.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("alter table crm_lists rename to crm_lists_away")
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let worker = app.start_worker().await;
    let queued: Value = app
        .api(Method::POST, "/api/crm-list/recount", &session)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = queued["id"].as_i64().unwrap();

    // Wait for the failed first attempt: the row goes back to queued with the error and one attempt counted.
    let mut first_failure = None;
    for _ in 0..100 {
        let mut tx = app.tenancy.begin(&client).await.unwrap();
        let row = jobs::JobRow::find(&mut tx, id).await.unwrap().unwrap();
        if row.attempts >= 1 && row.error.is_some() {
            first_failure = Some(row);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let first_failure = first_failure.expect("the first attempt failed");
    assert_eq!(first_failure.status, "queued");
    assert!(first_failure.error.unwrap().contains("crm_lists"));

    // Mend the schema; the retry (after its backoff) succeeds.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("alter table crm_lists_away rename to crm_lists")
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let done = app.wait_for_job(&session, id).await;
    assert_eq!(done["success"], true);
    assert_eq!(done["error"], Value::Null);
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    assert!(
        jobs::JobRow::find(&mut tx, id)
            .await
            .unwrap()
            .unwrap()
            .attempts
            >= 2
    );
    worker.stop().await;
}
