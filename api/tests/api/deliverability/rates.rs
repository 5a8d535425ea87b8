//! The rates' one definition (docs/deliverability.md "Rates") per mailing, sender domain and mailbox provider, and
//! the guard's hard-bounce limit.

use super::*;

#[tokio::test]
async fn rates_follow_one_definition_per_mailing_sender_domain_and_provider() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    // Ten recipients: six at gmail, four at outlook; one refused during the send, one hard bounce and one soft
    // bounce heard later, two complaints (one from the recipient who also soft-bounced).
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let mailing: i64 = sqlx::query_scalar(
        "with s as (insert into senders (name, from_address) values ('Team', 'team@News.example.org') returning id)
         insert into mailings (name, subject_line, sender_id, is_draft, send_time, send_attempt, delivery)
         select 'Rates appeal', 'Hi', s.id, false, now(), now(), 'done' from s returning id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    sqlx::query(
        "with c as (insert into contacts (email, first_name, subscription)
                    select e, 'Pat', 'subscribed'
                    from unnest(array['g0@gmail.com','g1@gmail.com','g2@gmail.com','g3@gmail.com','g4@gmail.com',
                                      'g5@gmail.com','o0@outlook.com','o1@outlook.com','o2@outlook.com',
                                      'o3@outlook.com']) e
                    returning id, email)
         insert into mailing_recipients (mailing_id, contact_id, email, status, sent_at)
         select $1, c.id, c.email, case when c.email = 'g0@gmail.com' then 'bounced' else 'sent' end, now() from c",
    )
    .bind(mailing)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let about = |id: &str, kind: Kind, email: &str| {
        let mut e = event(Source::Sendgrid, id, kind, email, 0);
        e.mailing_id = Some(mailing);
        e
    };
    record(
        &app,
        &client,
        &[
            about("e1", Kind::HardBounce, "g1@gmail.com"),
            about("e2", Kind::SoftBounce, "o0@outlook.com"),
            about("e3", Kind::Complained, "o0@outlook.com"),
            about("e4", Kind::Complained, "g2@gmail.com"),
            // A second report of the same complaint under another id counts the recipient once.
            about("e5", Kind::Complained, "g2@gmail.com"),
        ],
    )
    .await;

    let rates = |by: &str| {
        let path = format!("/api/delivery-rates?by={by}&mailingId={mailing}");
        let app = &app;
        let session = &session;
        async move { app.get_json(&path, session).await }
    };
    let per_mailing = rates("mailing").await;
    assert_eq!(
        per_mailing,
        json!([{ "group": mailing.to_string(), "label": "Rates appeal", "sent": 10, "delivered": 8,
                 "hardBounced": 2, "softBounced": 1, "complained": 2, "hardBounceRate": "0.2000",
                 "softBounceRate": "0.1000", "complaintRate": "0.2500" }])
    );
    let per_domain = rates("sender_domain").await;
    assert_eq!(per_domain[0]["group"], "news.example.org", "{per_domain}");
    let per_provider = rates("provider").await;
    assert_eq!(
        per_provider,
        json!([
            { "group": "gmail", "label": null, "sent": 6, "delivered": 4, "hardBounced": 2, "softBounced": 0,
              "complained": 1, "hardBounceRate": "0.3333", "softBounceRate": "0.0000", "complaintRate": "0.2500" },
            { "group": "microsoft", "label": null, "sent": 4, "delivered": 4, "hardBounced": 0, "softBounced": 1,
              "complained": 1, "hardBounceRate": "0.0000", "softBounceRate": "0.2500", "complaintRate": "0.2500" }
        ])
    );
    // A range that ended before the send holds nothing.
    let old = app
        .get_json(
            "/api/delivery-rates?by=provider&from=2020-01-01&to=2020-01-31",
            &session,
        )
        .await;
    assert_eq!(old, json!([]));
    let reversed = app
        .api(
            Method::GET,
            "/api/delivery-rates?by=provider&from=2020-02-01&to=2020-01-01",
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(reversed.status(), StatusCode::BAD_REQUEST);

    // The guard: 20 % hard bounces is past the 5 % limit once enough were delivered; a complaint rate of 25 % is
    // past 0.3 % too and is named first.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let check = store::deliverability::guard::check(&mut tx, mailing)
        .await
        .unwrap();
    assert_eq!(check, None, "fewer than 2,000 delivered");
    sqlx::query("update app_settings set guard_after_delivered = 8, complaint_pause_percent = 30")
        .execute(&mut *tx)
        .await
        .unwrap();
    let trip = store::deliverability::guard::check(&mut tx, mailing)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        trip.rate,
        store::deliverability::guard::Tripped::HardBounces
    );
    assert!(
        (trip.percent - 20.0).abs() < 1e-9 && trip.limit_percent == 5.0,
        "{trip:?}"
    );
    // The guard counts what the rates show: 10 sent, 8 delivered.
    assert_eq!((trip.sent, trip.delivered), (10, 8));
    // Complaints: 2 of 8 delivered is 25 %, past a 20 % limit and named before the bounces.
    sqlx::query("update app_settings set complaint_pause_percent = 20")
        .execute(&mut *tx)
        .await
        .unwrap();
    let trip = store::deliverability::guard::check(&mut tx, mailing)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (trip.rate, trip.sent, trip.delivered),
        (store::deliverability::guard::Tripped::Complaints, 10, 8)
    );
    assert!((trip.percent - 25.0).abs() < 1e-9, "{trip:?}");
    tx.commit().await.unwrap();
}
