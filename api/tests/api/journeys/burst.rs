//! A burst of events after the events table sat empty (issue 31): the worker's connection has by then run the
//! taking statement many times on an empty table, and Postgres would keep one generic plan for it that re-runs
//! the locking subquery for every row. The burst must still be taken in batches, not stall for minutes.
use super::*;

#[tokio::test]
async fn a_burst_of_events_after_an_idle_time_is_taken_batch_by_batch() {
    let f = fixture().await;
    f.active_journey(
        "Welcome",
        json!({ "triggers": [{ "kind": "list_added", "list_id": f.list }], "start": "pause",
                "steps": [{ "id": "pause", "kind": "wait", "hours": 24, "next": null }] }),
    )
    .await;
    let mut tx = f.app.tenancy.begin(&f.session.client).await.unwrap();
    // Autovacuum analyses the table once an earlier burst was taken: its statistics say it is empty.
    sqlx::query("analyze journey_events")
        .execute(&mut *tx)
        .await
        .unwrap();
    // Idle passes on one connection: more than the five runs after which a generic plan is kept.
    for _ in 0..8 {
        let taken = store::journeys::engine::consume_events(&mut tx, 5000)
            .await
            .unwrap();
        assert_eq!(taken, (0, 0));
    }
    sqlx::query(
        "with c as (insert into contacts (email, first_name)
                    select 'b' || g || '@example.org', 'B' from generate_series(1, 20000) g returning id)
         insert into crm_list_members (list_id, contact_id) select $1, id from c",
    )
    .bind(f.list)
    .execute(&mut *tx)
    .await
    .unwrap();
    // The plan that re-ran the subquery per row needed minutes for this; a batch takes milliseconds.
    sqlx::query("set local statement_timeout = '30s'")
        .execute(&mut *tx)
        .await
        .unwrap();
    let mut enrolled = 0;
    for _ in 0..4 {
        let (taken, entered) = store::journeys::engine::consume_events(&mut tx, 5000)
            .await
            .expect("a batch of the burst is taken within the statement timeout");
        assert_eq!(taken, 5000);
        enrolled += entered;
    }
    assert_eq!(enrolled, 20000);
    let left: i64 = sqlx::query_scalar("select count(*) from journey_events")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(left, 0);
}
