//! Email › E-mail Analytics against a hand-built fixture in America/New_York (docs/email-analytics.md): every
//! figure below is worked out by hand from the rows inserted here; the rollup is checked against a full recount.

use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tenancy::Client;

async fn recount_differences(app: &TestApp, client: &Client) -> i64 {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let n = store::email_analytics::rollup_differences(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    n
}

/// Contacts a–f, two sends, their events, attributed gifts and one external send (see the module comment).
async fn fixture(app: &TestApp, client: &Client) -> (i64, i64) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let mut ids = std::collections::HashMap::new();
    for (key, email, created, subscription) in [
        ("a", "a@gmail.com", "2030-01-05 12:00Z", "subscribed"),
        ("b", "b@yahoo.com", "2030-01-10 12:00Z", "subscribed"),
        ("c", "c@hotmail.com", "2030-01-20 12:00Z", "unsubscribed"),
        ("d", "d@example.org", "2029-12-01 12:00Z", "bounced"),
        ("e", "e@outlook.com", "2030-02-10 12:00Z", "subscribed"),
        ("f", "f@example.org", "2030-02-15 12:00Z", "unsubscribed"),
    ] {
        let id: i64 = sqlx::query_scalar(
            "insert into contacts (email, created, subscription) values ($1, $2::timestamptz, $3) returning id",
        )
        .bind(email)
        .bind(created)
        .bind(subscription)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        ids.insert(key, (id, email));
    }
    let mailing = |at: &'static str| {
        sqlx::query_scalar::<_, i64>(
            "insert into mailings (name, subject_line, is_draft, send_time, send_attempt, delivery)
             values ('M', 'M', false, $1::timestamptz, $1::timestamptz, 'done') returning id",
        )
        .bind(at)
    };
    // Saturday 2 February 2030, 09:00 in New York; Monday 4 March 2030, 18:30.
    let m1 = mailing("2030-02-02 14:00Z")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let m2 = mailing("2030-03-04 23:30Z")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    // Recipients are written queued, then marked one by one as a send does.
    for (m, keys) in [(m1, vec!["a", "b", "c", "d"]), (m2, vec!["a", "b", "e"])] {
        for k in keys {
            let (id, email) = ids[k];
            sqlx::query("insert into mailing_recipients (mailing_id, contact_id, email) values ($1, $2, $3)")
                .bind(m)
                .bind(id)
                .bind(email)
                .execute(&mut *tx)
                .await
                .unwrap();
        }
    }
    for (m, k, status, at) in [
        (m1, "a", "sent", Some("2030-02-02 14:05Z")),
        (m1, "b", "sent", Some("2030-02-02 14:06Z")),
        (m1, "c", "sent", Some("2030-02-02 14:07Z")),
        (m1, "d", "bounced", None),
        (m2, "a", "sent", Some("2030-03-04 23:31Z")),
        (m2, "b", "sent", Some("2030-03-04 23:32Z")),
        (m2, "e", "sent", Some("2030-03-04 23:33Z")),
    ] {
        sqlx::query(
            "update mailing_recipients set status = $3, sent_at = $4::timestamptz
             where mailing_id = $1 and contact_id = $2",
        )
        .bind(m)
        .bind(ids[k].0)
        .bind(status)
        .bind(at)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
    // Events arrive in their own transactions, as the event writer commits them.
    for (m, k, kind, machine, at) in [
        (m1, "a", "open", false, "2030-02-02 15:00Z"),
        (m1, "a", "open", false, "2030-02-02 16:00Z"),
        (m1, "a", "click", false, "2030-02-02 15:01Z"),
        (m1, "b", "open", true, "2030-02-02 14:06Z"),
        (m1, "c", "open", false, "2030-02-03 11:00Z"),
        (m1, "c", "unsubscribe", false, "2030-02-03 12:00Z"),
        (m2, "e", "click", false, "2030-03-05 12:00Z"),
        (m2, "b", "click", true, "2030-03-04 23:32Z"),
    ] {
        let mut tx = app.tenancy.begin(client).await.unwrap();
        sqlx::query(
            "insert into mailing_events (mailing_id, contact_id, kind, machine, created)
             values ($1, $2, $3, $4, $5::timestamptz)",
        )
        .bind(m)
        .bind(ids[k].0)
        .bind(kind)
        .bind(machine)
        .bind(at)
        .execute(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
    }
    let mut tx = app.tenancy.begin(client).await.unwrap();
    for (line, at, amount, mailing_id) in [
        ("g1", "2030-02-04 12:00Z", "100.00", Some(m1)),
        ("g2", "2030-03-05 12:00Z", "50.00", Some(m2)),
        ("g3", "2030-03-06 12:00Z", "20.00", None),
    ] {
        sqlx::query(
            "insert into contributions (platform, line_item_id, paid_at, amount, mailing_id)
             values ('actblue', $1, $2::timestamptz, $3::numeric, $4)",
        )
        .bind(line)
        .bind(at)
        .bind(amount)
        .bind(mailing_id)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    sqlx::query(
        "insert into external_mailings (source, name, sent_on, recipients, delivered, bounces, opens, clicks,
                                        unsubscribes, revenue)
         values ('esp', 'Partner blast', '2030-03-10', 1000, 990, 10, 200, 50, 5, 400.00)",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    (m1, m2)
}

fn period(v: &Value) -> Value {
    json!({
        "start": v["start"], "last": v["last"], "subscribed": v["subscribed"],
        "newSubscribers": v["newSubscribers"], "unsubscribes": v["unsubscribes"], "bounces": v["bounces"],
        "active": v["active"], "activeRate": v["activeRate"], "sent": v["sent"], "delivered": v["delivered"],
        "deliveryRate": v["deliveryRate"], "bounceRate": v["bounceRate"], "opened": v["opened"],
        "openRate": v["openRate"], "clicked": v["clicked"], "clickRate": v["clickRate"],
        "revenue": v["revenue"], "rpm": v["rpm"],
    })
}

#[tokio::test]
async fn programme_figures_by_month_match_the_hand_count() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    fixture(&app, &client).await;
    assert_eq!(recount_differences(&app, &client).await, 0);

    let body = app
        .get_json(
            "/api/email-analytics?from=2030-02-01&to=2030-03-31&grain=month",
            &session,
        )
        .await;
    let periods: Vec<Value> = body["periods"]
        .as_array()
        .unwrap()
        .iter()
        .map(period)
        .collect();
    assert_eq!(
        periods,
        [
            // Feb: a, b, c delivered, d bounced; human openers a, c; clicker a; c unsubscribed. Subscribed at the
            // end: 6 contacts − c (unsubscribed 3 Feb) − d (bounced 2 Feb) − f (joined unsubscribed) = 3; active: a
            // (c engaged but left). RPM = 100.00 × 1000 / 3.
            json!({ "start": "2030-02-01", "last": "2030-02-28", "subscribed": 3, "newSubscribers": 2,
                    "unsubscribes": 1, "bounces": 1, "active": 1, "activeRate": "0.3333", "sent": 4,
                    "delivered": 3, "deliveryRate": "0.7500", "bounceRate": "0.2500", "opened": 2,
                    "openRate": "0.6667", "clicked": 1, "clickRate": "0.3333", "revenue": "100.00",
                    "rpm": "33333.33" }),
            // Mar: 3 own deliveries (clicker e; b's click is a machine's) + the external send's figures.
            json!({ "start": "2030-03-01", "last": "2030-03-31", "subscribed": 3, "newSubscribers": 0,
                    "unsubscribes": 5, "bounces": 10, "active": 2, "activeRate": "0.6667", "sent": 1003,
                    "delivered": 993, "deliveryRate": "0.9900", "bounceRate": "0.0100", "opened": 200,
                    "openRate": "0.2014", "clicked": 51, "clickRate": "0.0514", "revenue": "450.00",
                    "rpm": "453.17" }),
        ]
    );
    assert_eq!(
        period(&body["total"]),
        json!({ "start": "2030-02-01", "last": "2030-03-31", "subscribed": 3, "newSubscribers": 2,
                "unsubscribes": 6, "bounces": 11, "active": 2, "activeRate": "0.6667", "sent": 1007,
                "delivered": 996, "deliveryRate": "0.9891", "bounceRate": "0.0109", "opened": 202,
                "openRate": "0.2028", "clicked": 52, "clickRate": "0.0522", "revenue": "550.00", "rpm": "552.21" })
    );

    // Heat map: Saturday (6) 09:00 and Monday (1) 18:00 in New York.
    let cells: Vec<(i64, i64, i64, i64, Value)> = body["heatMap"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["weekday"].as_i64().unwrap(),
                c["sendHour"].as_i64().unwrap(),
                c["delivered"].as_i64().unwrap(),
                c["clicked"].as_i64().unwrap(),
                c["clickRate"].clone(),
            )
        })
        .collect();
    assert_eq!(
        cells,
        [
            (1, 18, 3, 1, json!("0.3333")),
            (6, 9, 3, 1, json!("0.3333"))
        ]
    );

    // Providers: gmail a; yahoo b; outlook c (hotmail) and e; other d.
    let providers: Vec<Value> = body["providers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            json!([
                c["provider"],
                c["sent"],
                c["delivered"],
                c["bounced"],
                c["opened"],
                c["clicked"],
                c["unsubscribed"],
                c["clickRate"]
            ])
        })
        .collect();
    assert_eq!(
        providers,
        [
            json!(["gmail", 2, 2, 0, 1, 1, 0, "0.5000"]),
            json!(["yahoo", 2, 2, 0, 0, 0, 0, "0.0000"]),
            json!(["outlook", 2, 2, 0, 1, 1, 1, "0.5000"]),
            json!(["other", 1, 0, 1, 0, 0, 0, null]),
        ]
    );

    // By week: 2030-02-01 is a Friday, so the first week is clipped to 1–3 February.
    let weeks = app
        .get_json(
            "/api/email-analytics?from=2030-02-01&to=2030-02-14&grain=week",
            &session,
        )
        .await;
    let spans: Vec<(Value, Value, Value)> = weeks["periods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["start"].clone(), p["last"].clone(), p["sent"].clone()))
        .collect();
    assert_eq!(
        spans,
        [
            (json!("2030-02-01"), json!("2030-02-03"), json!(4)),
            (json!("2030-02-04"), json!("2030-02-10"), json!(0)),
            (json!("2030-02-11"), json!("2030-02-14"), json!(0)),
        ]
    );

    // The external send is listed and named in the selection data.
    let external = app
        .get_json(
            "/api/external-mailings?from=2030-03-01&to=2030-03-31",
            &session,
        )
        .await;
    assert_eq!(external[0]["name"], "Partner blast");
    assert_eq!(external[0]["revenue"], "400.00");
    let names = app
        .get_json("/api/selection/external-mailing-names", &session)
        .await;
    assert_eq!(names[0]["label"], "Partner blast");
    let lemlist = app
        .get_json("/api/selection/lemlist-campaign-names", &session)
        .await;
    assert_eq!(lemlist, json!([]));

    // Hostile ranges.
    for bad in [
        "/api/email-analytics?from=2030-03-31&to=2030-02-01",
        "/api/email-analytics?from=2020-01-01&to=2030-01-01",
        "/api/email-analytics?from=2030-01-01&to=2030-02-01&grain=day",
    ] {
        let status = app
            .api(Method::GET, bad, &session)
            .send()
            .await
            .unwrap()
            .status();
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    }

    // Another client sees nothing of it.
    let other = app.create_client().await;
    let other_session = app.session(&other).await;
    let theirs = app
        .get_json(
            "/api/email-analytics?from=2030-02-01&to=2030-03-31&grain=month",
            &other_session,
        )
        .await;
    assert_eq!(theirs["total"]["sent"], 0);
}

#[tokio::test]
async fn the_rollup_equals_a_full_recount_after_every_kind_of_change() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let (m1, m2) = fixture(&app, &client).await;
    assert_eq!(recount_differences(&app, &client).await, 0);

    let steps = [
        // The bounced recipient (no sent_at) takes its hour from its mailing's send attempt.
        format!("update mailings set send_attempt = send_attempt + interval '3 hours' where id = {m1}"),
        // A resend marks a bounced recipient sent; an e-mail address changes; one recipient row goes.
        format!("update mailing_recipients set status = 'sent', sent_at = '2030-02-02 18:00Z' where mailing_id = {m1} and status = 'bounced'"),
        format!("update mailing_recipients set email = 'changed@yahoo.com' where mailing_id = {m2} and email = 'a@gmail.com'"),
        format!("delete from mailing_recipients where mailing_id = {m2} and email = 'e@outlook.com'"),
        // Many events in one statement, repeats included.
        format!("insert into mailing_events (mailing_id, contact_id, kind, machine)
                 select mailing_id, contact_id, k, false from mailing_recipients, unnest(array['open', 'open', 'click']) k
                 where mailing_id = {m2}"),
        // A whole mailing goes.
        format!("delete from mailings where id = {m1}"),
        // A new zone moves every day and hour.
        "update app_settings set time_zone = 'Europe/Berlin'".to_owned(),
    ];
    for step in steps {
        let mut tx = app.tenancy.begin(&client).await.unwrap();
        sqlx::query(sqlx::AssertSqlSafe(step.clone()))
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        assert_eq!(recount_differences(&app, &client).await, 0, "after: {step}");
    }
}
