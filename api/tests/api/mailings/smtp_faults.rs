use super::*;

#[tokio::test]
async fn a_throttling_server_slows_the_send_and_everyone_still_gets_one_message() {
    let refusals = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = refusals.clone();
    // The first four recipients are told to come back later (4xx), as a throttling server does.
    let (port, inbox) = start_sink_with(std::sync::Arc::new(move |_: &str| {
        (counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < 4)
            .then(|| "451 4.7.1 Too many messages, slow down".to_owned())
    }))
    .await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let emails = addresses("throttled", 6);
    let id = confirmed_mailing(&app, &session, &emails).await;
    let started = std::time::Instant::now();
    send_now(&app, &client, id).await;
    let done = wait_for_delivery(&app, &session, id, "done").await;
    assert!(
        started.elapsed() >= std::time::Duration::from_millis(500),
        "the send backed off before trying again"
    );
    assert_eq!(done["recipCount"], 6);
    let to = delivered_to(&inbox);
    let mut expected = emails.clone();
    expected.sort();
    assert_eq!(to, expected, "each recipient exactly once");
}

#[tokio::test]
async fn a_refused_address_bounces_and_is_never_mailed_again() {
    let (port, inbox) = start_sink_with(std::sync::Arc::new(|address: &str| {
        address
            .starts_with("nobody")
            .then(|| "550 5.1.1 No such user here".to_owned())
    }))
    .await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mut emails = addresses("reader", 3);
    emails.push("nobody@example.org".to_owned());
    let id = confirmed_mailing(&app, &session, &emails).await;
    send_now(&app, &client, id).await;
    wait_for_delivery(&app, &session, id, "done").await;
    assert_eq!(inbox.lock().unwrap().len(), 3);
    let stats = app
        .get_json(&format!("/api/crm-mailing/{id}/stats"), &session)
        .await;
    assert_eq!(
        (stats["delivered"].clone(), stats["bounced"].clone()),
        (json!(3), json!(1)),
        "{stats}"
    );
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let subscription: String =
        sqlx::query_scalar("select subscription from contacts where email = 'nobody@example.org'")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(
        subscription, "bounced",
        "a bounced contact is not sent to again"
    );
}

#[tokio::test]
async fn a_mail_server_that_refuses_everything_pauses_the_mailing() {
    // The default test settings point at a port where nothing listens.
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let id = confirmed_mailing(&app, &session, &addresses("waiting", 30)).await;
    send_now(&app, &client, id).await;
    let paused = wait_for_delivery(&app, &session, id, "paused").await;
    assert!(
        paused["deliveryMessage"]
            .as_str()
            .unwrap()
            .starts_with("Paused: the mail server refused every recent message."),
        "{paused}"
    );
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let queued: i64 = sqlx::query_scalar(
        "select count(*) from mailing_recipients where mailing_id = $1 and status = 'queued'",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(queued, 30, "nobody was marked sent or bounced");
}

#[tokio::test]
async fn a_paused_mailing_resumes_and_mails_only_those_not_yet_sent() {
    // A sink that refuses everyone until it is told to accept.
    let accepting = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let open = accepting.clone();
    let (port, inbox) = start_sink_with(std::sync::Arc::new(move |_: &str| {
        (!open.load(std::sync::atomic::Ordering::SeqCst))
            .then(|| "421 4.3.2 Service shutting down".to_owned())
    }))
    .await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let emails = addresses("resumed", 30);
    let id = confirmed_mailing(&app, &session, &emails).await;
    let resume = || {
        app.api(
            Method::POST,
            &format!("/api/crm-mailing/{id}/resume"),
            &session,
        )
        .send()
    };
    assert_eq!(
        resume().await.unwrap().status(),
        StatusCode::CONFLICT,
        "not paused"
    );
    send_now(&app, &client, id).await;
    wait_for_delivery(&app, &session, id, "paused").await;
    accepting.store(true, std::sync::atomic::Ordering::SeqCst);
    let resumed: Value = resume().await.unwrap().json().await.unwrap();
    assert_eq!(resumed["delivery"], "sending");
    wait_for_delivery(&app, &session, id, "done").await;
    let to = delivered_to(&inbox);
    let mut expected = emails.clone();
    expected.sort();
    assert_eq!(to, expected, "each recipient exactly once");

    // Deleting the mailing takes its send records with it.
    let deleted = app
        .api(Method::DELETE, &format!("/api/crm-mailing/{id}"), &session)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let left: i64 =
        sqlx::query_scalar("select count(*) from mailing_recipients where mailing_id = $1")
            .bind(id)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(left, 0);
}
