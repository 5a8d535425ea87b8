//! Warm-up plans (issue 30): a new sender domain sends at most its day's cap; the rest waits for the next day and
//! then goes on by itself.

use super::*;

#[tokio::test]
async fn a_send_stops_at_the_domains_warm_up_cap_and_goes_on_by_itself_the_next_day() {
    let (port, inbox) = start_sink_with(std::sync::Arc::new(|_: &str| None)).await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    // example.org (the test sender's domain) started warming up today with five a day.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query(
        "insert into sender_domains (domain, warmup_start, warmup_daily_cap, warmup_growth_percent)
         values ('example.org', current_date, 5, 50)",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let emails = addresses("warming", 8);
    let id = confirmed_mailing(&app, &session, &emails).await;
    send_now(&app, &client, id).await;
    let paused = wait_for_delivery(&app, &session, id, "paused").await;
    assert_eq!(
        paused["deliveryMessage"],
        "Paused: the warm-up plan of example.org allows 5 messages today, and they are sent. Sending goes on by itself tomorrow (UTC)."
    );
    assert_eq!(inbox.lock().unwrap().len(), 5, "no more than the day's cap");
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let tomorrow: bool = sqlx::query_scalar(
        "select resume_at = (current_date + 1)::timestamp at time zone 'UTC' from mailings where id = $1",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    assert!(tomorrow, "held until the next UTC day");

    // The next day: the plan started yesterday (cap 5 × 1.5 = 7), and the five went out yesterday.
    sqlx::raw_sql(
        "update sender_domains set warmup_start = current_date - 1;
         update mailing_recipients set sent_at = sent_at - interval '1 day' where status = 'sent';
         update mailings set resume_at = now() - interval '1 second';",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    // The scheduler's pass for this client (the test's other clients are not its business).
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    assert_eq!(
        worker::start_due(&app.tenancy, &queue, &client)
            .await
            .unwrap(),
        1
    );
    let done = wait_for_delivery(&app, &session, id, "done").await;
    assert_eq!(done["recipCount"], 8);
    let mut expected = emails.clone();
    expected.sort();
    assert_eq!(
        delivered_to(&inbox),
        expected,
        "each recipient exactly once"
    );
}
