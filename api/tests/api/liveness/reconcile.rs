//! Reconcile: a message overdue in the scheduled set, which no poll moved, goes to the waiting list.
use super::recount;
use crate::helpers::*;
use jobs::JobQueue;
use std::time::Duration;

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
