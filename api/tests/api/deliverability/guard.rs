//! The send that pauses itself: complaints from early recipients past the limit stop a real send, which says why,
//! and it resumes only when a person resumes it.

use super::*;
use crate::mailings::{
    addresses, confirmed_mailing, delivered_to, send_now, start_sink_with, wait_for_delivery,
};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn complaints_past_the_limit_pause_the_send_until_a_person_resumes_it() {
    // The sink holds the 300th recipient until the test has recorded complaints about the first ones, so they are
    // heard while the first batch (1,000) is still being sent.
    let seen = Arc::new(AtomicUsize::new(0));
    let complaints_in = Arc::new(AtomicBool::new(false));
    let (count, go) = (seen.clone(), complaints_in.clone());
    let (port, inbox) = start_sink_with(Arc::new(move |_: &str| {
        if count.fetch_add(1, Ordering::SeqCst) == 300 {
            let started = std::time::Instant::now();
            while !go.load(Ordering::SeqCst)
                && started.elapsed() < std::time::Duration::from_secs(60)
            {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
        None
    }))
    .await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    app.exec_in(
        &client,
        "update app_settings set guard_after_delivered = 100",
    )
    .await;
    let emails = addresses("early", 1500);
    let id = confirmed_mailing(&app, &session, &emails).await;
    send_now(&app, &client, id).await;

    // Ten of the first recipients report the message as spam (0.3 % of 1,000 would be three).
    let first: Vec<String> = wait_until(
        "the first copies",
        std::time::Duration::from_secs(60),
        || async {
            let to: Vec<String> = inbox
                .lock()
                .unwrap()
                .iter()
                .map(|m| m.recipients[0].clone())
                .collect();
            (to.len() >= 10).then_some(to)
        },
    )
    .await;
    let reports: Vec<NewEvent> = first[..10]
        .iter()
        .enumerate()
        .map(|(i, email)| {
            let mut e = event(Source::Arf, &format!("arf-{i}"), Kind::Complained, email, 0);
            e.mailing_id = Some(id);
            e
        })
        .collect();
    assert_eq!(record(&app, &client, &reports).await.stored, 10);
    complaints_in.store(true, Ordering::SeqCst);

    let paused = wait_for_delivery(&app, &session, id, "paused").await;
    let message = paused["deliveryMessage"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        message.starts_with("Paused: ")
            && message.contains("delivered complained (limit 0.3 %)")
            && message.contains("Resume when you have checked the list"),
        "{paused}"
    );
    let sent_when_paused = inbox.lock().unwrap().len();
    assert!(
        sent_when_paused < 1500,
        "the send stopped early: {sent_when_paused}"
    );

    // The rates say the same, per mailing and per mailbox provider.
    let rates = app
        .get_json(
            &format!("/api/delivery-rates?by=mailing&mailingId={id}"),
            &session,
        )
        .await;
    assert_eq!(rates[0]["complained"], 10, "{rates}");
    assert_eq!(rates[0]["label"], "Appeal", "{rates}");
    let providers = app
        .get_json(
            &format!("/api/delivery-rates?by=provider&mailingId={id}"),
            &session,
        )
        .await;
    assert_eq!(providers[0]["group"], "other", "{providers}");

    // The dashboard's alerts name it.
    let alerts = app.get_json("/api/dashboard", &session).await["alerts"].clone();
    assert!(alerts.to_string().contains("complained"), "{alerts}");

    // Nothing moves until a person resumes it; then the rest is sent, everyone once, and it is not paused again.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(inbox.lock().unwrap().len(), sent_when_paused);
    let resumed = app
        .api(
            Method::POST,
            &format!("/api/crm-mailing/{id}/resume"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(resumed.status(), StatusCode::OK);
    wait_for_delivery(&app, &session, id, "done").await;
    let to = delivered_to(&inbox);
    let mut expected = emails.clone();
    expected.sort();
    assert_eq!(to.len(), 1500);
    assert_eq!(to, expected, "each recipient exactly once");
}
