use super::*;

#[tokio::test]
async fn messages_a_killed_send_handed_to_the_server_are_not_sent_again() {
    let (port, inbox) = start_sink_with(std::sync::Arc::new(|_: &str| None)).await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let emails = addresses("handed", 4);
    let id = confirmed_mailing(&app, &session, &emails).await;
    // A worker killed right after writing the final "." of handed0's message left this in its send journal
    // (little-endian contact ids: + before the end of a message, - when the server then refused it): handed0
    // may have been delivered, handed1's message was refused after its end and must go again.
    // That send had started: its start names the journal.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let ids: Vec<i64> =
        sqlx::query_scalar("select id from contacts where email = any ($1) order by email")
            .bind(&emails[..2])
            .fetch_all(&mut *tx)
            .await
            .unwrap();
    let started: i64 = sqlx::query_scalar(
        "update mailings set send_attempt = now(), delivery = 'sending' where id = $1
         returning (extract(epoch from send_attempt) * 1000000)::bigint",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let journal = app
        .send_journal
        .join(format!("client{}-mailing{id}-{started}.journal", client.id));
    std::fs::create_dir_all(&app.send_journal).unwrap();
    let entries: Vec<u8> = [ids[0], ids[1], -ids[1]]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    std::fs::write(&journal, entries).unwrap();

    let _worker = app.start_worker().await;
    jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap()
        .enqueue(
            app.tenancy.begin(&client).await.unwrap(),
            None,
            &jobs::JobKind::SendMailing { mailing_id: id },
        )
        .await
        .unwrap();
    let done = wait_for_delivery(&app, &session, id, "done").await;
    let to = delivered_to(&inbox);
    assert_eq!(to, emails[1..].to_vec(), "handed0 is not mailed twice");
    assert_eq!(done["recipCount"], 4);
    let stats = app
        .get_json(&format!("/api/crm-mailing/{id}/stats"), &session)
        .await;
    assert_eq!(stats["delivered"], 4, "{stats}");
    assert!(
        !journal.exists(),
        "a finished send leaves no journal behind"
    );
}

/// The client's newest job row: status, error, attempts and success.
async fn newest_job(
    app: &TestApp,
    client: &tenancy::Client,
) -> (String, Option<String>, i32, Option<bool>) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let job = sqlx::query_as(
        "select status, error, attempts, success from jobs order by id desc limit 1",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    job
}

#[tokio::test]
async fn item_7_a_send_that_finds_its_mailing_locked_by_another_worker_waits_for_it_without_using_up_its_attempts(
) {
    let (port, inbox) = start_sink_with(std::sync::Arc::new(|_: &str| None)).await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let emails = addresses("patient", 3);
    let id = confirmed_mailing(&app, &session, &emails).await;
    // Another worker is still sending this mailing: it holds the mailing's send lock.
    let other_sender = app
        .tenancy
        .try_exclusive(&client, id)
        .await
        .unwrap()
        .expect("the send lock is free");
    send_now(&app, &client, id).await;

    // Each attempt that meets the lock leaves the job queued for another try, and is not counted: a send that
    // waits longer than the attempts allow (here, past the fifth refusal) is still waiting, not failed.
    let mut refusals = std::collections::BTreeSet::new();
    for _ in 0..3000 {
        if refusals.len() > worker::MAX_ATTEMPTS as usize {
            break;
        }
        let mut tx = app.tenancy.begin(&client).await.unwrap();
        let (status, error, attempts, updated): (
            String,
            Option<String>,
            i32,
            chrono::DateTime<chrono::Utc>,
        ) = sqlx::query_as(
            "select status, error, attempts, updated from jobs order by id desc limit 1",
        )
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
        assert_ne!(status, "done", "the job gave up waiting: {error:?}");
        assert!(
            attempts <= 1,
            "a refusal was counted as an attempt: {attempts}"
        );
        if status == "queued"
            && error.as_deref() == Some("This mailing is being sent by another worker")
        {
            refusals.insert(updated);
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(
        refusals.len() > worker::MAX_ATTEMPTS as usize,
        "{} refusals seen",
        refusals.len()
    );
    assert!(
        inbox.lock().unwrap().is_empty(),
        "nothing sent while locked"
    );

    // The other worker lets go: the retry sends the mailing.
    drop(other_sender);
    let done = wait_for_delivery(&app, &session, id, "done").await;
    assert_eq!(done["recipCount"], 3);
    let mut expected = emails.clone();
    expected.sort();
    assert_eq!(
        delivered_to(&inbox),
        expected,
        "each recipient exactly once"
    );
    // The mailing reads "done" a moment before the job row that sent it is closed.
    let mut job = newest_job(&app, &client).await;
    for _ in 0..500 {
        if job.0 != "running" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        job = newest_job(&app, &client).await;
    }
    let (status, _, attempts, success) = job;
    assert_eq!((status.as_str(), success), ("done", Some(true)));
    assert_eq!(attempts, 1, "only the attempt that sent is counted");
}
