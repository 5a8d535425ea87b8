//! The suppression rules, through `store::deliverability::record` on a real client schema, and a real send that
//! leaves suppressed addresses out.

use super::*;
use crate::mailings::{
    addresses, confirmed_mailing, delivered_to, post, send_now, start_sink_with, wait_for_delivery,
};

#[tokio::test]
async fn a_hard_bounce_suppresses_at_once_and_marks_the_contact_bounced() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    subscribed_contact(&app, &client, "gone@example.org").await;
    let recorded = record(
        &app,
        &client,
        &[event(
            Source::Dsn,
            "dsn-1",
            Kind::HardBounce,
            "Gone@Example.org ",
            0,
        )],
    )
    .await;
    assert_eq!((recorded.stored, recorded.suppressed), (1, 1));
    assert_eq!(
        subscription(&app, &client, "gone@example.org").await,
        "bounced"
    );
    let rows = suppressed(&app, &session, "gone").await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["email"], "gone@example.org");
    assert_eq!(rows[0]["reason"], "hard_bounce");
    assert_eq!(rows[0]["reasonText"], "Hard bounce");
    assert_eq!(rows[0]["source"], "dsn");
    assert_eq!(rows[0]["statusCode"], "5.1.1");
    assert_eq!(rows[0]["diagnostic"], "550 5.1.1 No such user");
}

#[tokio::test]
async fn soft_bounces_suppress_only_at_the_third_within_the_window() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    subscribed_contact(&app, &client, "full@example.org").await;
    // One 40 days ago falls outside the 30-day window: with two recent ones that makes two, not three.
    let old = event(
        Source::Ses,
        "s-old",
        Kind::SoftBounce,
        "full@example.org",
        40,
    );
    let first = event(Source::Ses, "s-1", Kind::SoftBounce, "full@example.org", 10);
    let second = event(Source::Ses, "s-2", Kind::SoftBounce, "full@example.org", 1);
    for e in [old, first, second] {
        let recorded = record(&app, &client, &[e]).await;
        assert_eq!((recorded.stored, recorded.suppressed), (1, 0));
    }
    assert!(suppressed(&app, &session, "full").await.is_empty());
    assert_eq!(
        subscription(&app, &client, "full@example.org").await,
        "subscribed"
    );
    let third = event(Source::Ses, "s-3", Kind::SoftBounce, "full@example.org", 0);
    let recorded = record(&app, &client, &[third]).await;
    assert_eq!((recorded.stored, recorded.suppressed), (1, 1));
    let rows = suppressed(&app, &session, "full").await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["reason"], "soft_bounces");
    assert_eq!(rows[0]["reasonText"], "Repeated soft bounces");
    // A soft bounce suppresses but does not mark the contact bounced.
    assert_eq!(
        subscription(&app, &client, "full@example.org").await,
        "subscribed"
    );
}

#[tokio::test]
async fn a_complaint_suppresses_and_unsubscribes_and_a_duplicate_changes_nothing() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    subscribed_contact(&app, &client, "angry@example.org").await;
    let complaint = event(
        Source::Arf,
        "arf-1",
        Kind::Complained,
        "angry@example.org",
        0,
    );
    let recorded = record(&app, &client, std::slice::from_ref(&complaint)).await;
    assert_eq!((recorded.stored, recorded.suppressed), (1, 1));
    assert_eq!(
        subscription(&app, &client, "angry@example.org").await,
        "unsubscribed"
    );
    let rows = suppressed(&app, &session, "angry").await;
    assert_eq!(rows[0]["reason"], "complaint");

    // A person lifts it; the same report delivered again neither stores a second event nor suppresses again.
    let id = rows[0]["id"].as_i64().unwrap();
    let lifted = app
        .api(
            Method::POST,
            &format!("/api/suppressions/{id}/lift"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(lifted.status(), StatusCode::NO_CONTENT);
    let again = record(&app, &client, &[complaint]).await;
    assert_eq!((again.stored, again.suppressed), (0, 0));
    assert!(suppressed(&app, &session, "angry").await.is_empty());
    let events = app
        .scalar_in(
            &client,
            "select count(*) from delivery_events where email = 'angry@example.org'",
        )
        .await;
    assert_eq!(events, 1);
}

#[tokio::test]
async fn a_suppressed_address_is_never_mailed_by_a_list_or_a_segment_mailing() {
    let (port, inbox) = start_sink_with(std::sync::Arc::new(|_: &str| None)).await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let emails = addresses("reader", 4);
    let list_mailing = confirmed_mailing(&app, &session, &emails).await;
    // One suppressed by a complaint, one by a person.
    record(
        &app,
        &client,
        &[event(
            Source::Arf,
            "arf-r0",
            Kind::Complained,
            &emails[0],
            0,
        )],
    )
    .await;
    let added: Value = app
        .api(Method::POST, "/api/suppressions", &session)
        .json(&json!({ "emails": [emails[1].to_uppercase()] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(added["added"], 1, "{added}");
    // The person-suppressed contact is still subscribed: only the suppression keeps it out.
    assert_eq!(subscription(&app, &client, &emails[1]).await, "subscribed");

    send_now(&app, &client, list_mailing).await;
    wait_for_delivery(&app, &session, list_mailing, "done").await;
    assert_eq!(delivered_to(&inbox), emails[2..].to_vec());

    // A segment holding all four, as the audience of a second mailing.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let segment: i64 = sqlx::query_scalar(
        "with s as (insert into segments (name, size, computed) values ('Everyone', 4, now()) returning id),
              m as (insert into segment_members (segment_id, contact_id)
                    select s.id, c.id from s, contacts c returning segment_id)
         select distinct segment_id from m",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    let sender: i64 = sqlx::query_scalar("select id from senders limit 1")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let mailing = post(
        &app,
        &session,
        "/api/crm-mailing",
        json!({ "name": "Segment appeal", "subjectLine": "Hello again", "senderId": sender,
                "sendTime": (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339(),
                "segmentId": segment, "bodyHtml": "<p>Hi</p>", "isDraft": false }),
    )
    .await;
    let segment_mailing = mailing["id"].as_i64().unwrap();
    send_now(&app, &client, segment_mailing).await;
    wait_for_delivery(&app, &session, segment_mailing, "done").await;
    let to = delivered_to(&inbox);
    assert_eq!(
        to.len(),
        4,
        "two copies each for the two not suppressed: {to:?}"
    );
    assert!(
        !to.contains(&emails[0]) && !to.contains(&emails[1]),
        "{to:?}"
    );
}

/// The bounce listener and the webhooks record many events at once: one batch must end as the same events one at
/// a time would (the statements are per batch, not per event).
#[tokio::test]
async fn one_batch_applies_every_rule_as_its_events_one_by_one_would() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mut ids = Vec::new();
    for email in [
        "both@example.org",
        "hard@example.org",
        "soft3@example.org",
        "soft2@example.org",
        "softold@example.org",
    ] {
        ids.push(subscribed_contact(&app, &client, email).await);
    }
    app.exec_in(
        &client,
        "insert into mailings (name, subject_line, is_draft, send_attempt, delivery)
         values ('Appeal', 'Hello', false, now() - interval '1 hour', 'done');
         insert into mailing_recipients (mailing_id, contact_id, email, status, sent_at)
         select (select max(id) from mailings), id, email, 'sent', now() - interval '1 hour' from contacts",
    )
    .await;
    let mailing = app.scalar_in(&client, "select max(id) from mailings").await;
    // One soft bounce stored before: with two in the batch, three within the window.
    record(
        &app,
        &client,
        &[event(
            Source::Ses,
            "old-1",
            Kind::SoftBounce,
            "softold@example.org",
            2,
        )],
    )
    .await;
    // As the listener sends it: the token names the mailing and the contact, not the address.
    let hard = NewEvent {
        email: String::new(),
        mailing_id: Some(mailing),
        contact_id: Some(ids[1]),
        ..event(Source::Dsn, "b-hard", Kind::HardBounce, "", 0)
    };
    let soft = |id: &str, email: &str| event(Source::Ses, id, Kind::SoftBounce, email, 0);
    let batch = vec![
        event(
            Source::Dsn,
            "b-both-dsn",
            Kind::HardBounce,
            "both@example.org",
            0,
        ),
        event(
            Source::Arf,
            "b-both-arf",
            Kind::Complained,
            "both@example.org",
            0,
        ),
        hard.clone(),
        hard,
        soft("b-s3-1", "soft3@example.org"),
        soft("b-s3-2", "soft3@example.org"),
        soft("b-s3-3", "soft3@example.org"),
        soft("b-s2-1", "soft2@example.org"),
        soft("b-s2-2", "soft2@example.org"),
        soft("b-so-1", "softold@example.org"),
        soft("b-so-2", "softold@example.org"),
    ];
    let recorded = record(&app, &client, &batch).await;
    // The hard bounce given twice is stored once; soft2 has two soft bounces, under the limit of three.
    assert_eq!((recorded.stored, recorded.suppressed), (10, 4));
    let reasons: Vec<(String, String)> = {
        let mut tx = app.tenancy.begin(&client).await.unwrap();
        let rows = sqlx::query_as(
            "select email, reason from suppressions where lifted_at is null order by email",
        )
        .fetch_all(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
        rows
    };
    let expected = [
        ("both@example.org", "complaint"),
        ("hard@example.org", "hard_bounce"),
        ("soft3@example.org", "soft_bounces"),
        ("softold@example.org", "soft_bounces"),
    ];
    assert_eq!(
        reasons,
        expected.map(|(e, r)| (e.to_owned(), r.to_owned())).to_vec()
    );
    assert_eq!(suppressed(&app, &session, "hard").await[0]["source"], "dsn");
    // A complaint in the same batch as a hard bounce unsubscribes; a soft bounce changes no contact.
    for (email, expected) in [
        ("both@example.org", "unsubscribed"),
        ("hard@example.org", "bounced"),
        ("soft3@example.org", "subscribed"),
        ("soft2@example.org", "subscribed"),
        ("softold@example.org", "subscribed"),
    ] {
        assert_eq!(
            subscription(&app, &client, email).await,
            expected,
            "{email}"
        );
    }
    // Only the copy whose event names the mailing is marked bounced.
    let bounced_rows = app
        .scalar_in(
            &client,
            "select count(*) from mailing_recipients where status = 'bounced'",
        )
        .await;
    assert_eq!(bounced_rows, 1);
    let row_contact = app
        .scalar_in(
            &client,
            "select contact_id from mailing_recipients where status = 'bounced'",
        )
        .await;
    assert_eq!(row_contact, ids[1]);
    // E-mail Analytics' list figures moved with the contacts (the batch refreshes them once, not per contact).
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let today = chrono::Utc::now().date_naive();
    let differences = store::email_analytics::list_differences(
        &mut tx,
        today - chrono::Duration::days(3),
        today + chrono::Duration::days(1),
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(differences, 0);

    // The same batch again changes nothing.
    let again = record(&app, &client, &batch).await;
    assert_eq!((again.stored, again.suppressed), (0, 0));
}
