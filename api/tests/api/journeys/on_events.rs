//! A signup wakes the journeys at once (issue 31, "triggers come from the writers that already know"): the events
//! table notifies, and a worker with no scheduler pass at all enrols the contact and mails the welcome within
//! seconds. Without the notification nothing here would move: no test pass, no scheduler.
use super::*;

#[tokio::test]
async fn a_form_signup_is_enrolled_and_mailed_without_waiting_for_a_pass() {
    let f = fixture().await;
    f.active_journey(
        "Welcome",
        json!({ "triggers": [{ "kind": "form_signup", "form_id": f.form }], "start": "welcome",
                "steps": [{ "id": "welcome", "kind": "send", "template_id": f.template,
                            "subject": "Welcome aboard", "on_cap": "skip", "next": null }] }),
    )
    .await;
    let _woken = f
        .app
        .start_worker_on_journey_events(f.session.client.id)
        .await;
    // A signup before the worker listens would only be seen by a pass: wait for its LISTEN.
    wait_until(
        "the worker listens for journey events",
        std::time::Duration::from_secs(20),
        || async {
            let listening = f
                .scalar(
                    "select count(*) from pg_stat_activity where datname = current_database()
                     and query ilike 'listen%compass_journey_events%'",
                )
                .await;
            (listening > 0).then_some(())
        },
    )
    .await;
    f.sign_up("ann@example.org").await;
    f.sign_up("bob@example.org").await;
    assert_eq!(
        f.delivered(2).await,
        vec![
            ("ann@example.org".to_owned(), "Welcome aboard".to_owned()),
            ("bob@example.org".to_owned(), "Welcome aboard".to_owned())
        ]
    );
    assert_eq!(
        f.scalar("select count(*) from journey_contacts where state = 'finished'")
            .await,
        2
    );
    assert_eq!(f.scalar("select count(*) from journey_events").await, 0);
}
