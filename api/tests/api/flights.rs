//! Issue 15: Email › Performance. Every figure of a flight checked against numbers worked out by hand, and the
//! rollups the send and the event writer keep checked against a full recount.

use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn post(app: &TestApp, session: &Session, path: &str, body: Value) -> Value {
    let response = app
        .api(Method::POST, path, session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED, "{path}");
    response.json().await.unwrap()
}

type Inbox = std::sync::Arc<std::sync::Mutex<Vec<mail::sink::Delivered>>>;

/// An SMTP sink that refuses addresses starting with "bounce".
async fn sink() -> (u16, Inbox) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let inbox: Inbox = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let store = inbox.clone();
    tokio::spawn(mail::sink::serve_with_policy(
        listener,
        std::sync::Arc::new(move |m| store.lock().unwrap().push(m)),
        std::sync::Arc::new(|a: &str| {
            a.starts_with("bounce")
                .then(|| "550 5.1.1 No such user".to_owned())
        }),
    ));
    (port, inbox)
}

/// A confirmed mailing to `n` subscribed contacts e0@… (plus `bounce@…`), with `variants` extra variants.
async fn mailing(
    app: &TestApp,
    client: &tenancy::Client,
    session: &Session,
    n: usize,
    variants: usize,
) -> i64 {
    let mut emails: Vec<String> = (0..n).map(|i| format!("e{i}@example.org")).collect();
    emails.push("bounce@example.org".to_owned());
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let list: i64 = sqlx::query_scalar(
        "with l as (insert into crm_lists (name, kind) values ('Everyone', 'upload') returning id),
              c as (insert into contacts (email, first_name, subscription)
                    select e, 'Pat', 'subscribed' from unnest($1::text[]) e returning id)
         insert into crm_list_members (list_id, contact_id) select l.id, c.id from l, c returning list_id",
    )
    .bind(&emails)
    .fetch_all(&mut *tx)
    .await
    .unwrap()[0];
    tx.commit().await.unwrap();
    let sender = post(
        app,
        session,
        "/api/sender",
        json!({ "name": "Team", "fromAddress": "team@example.org" }),
    )
    .await;
    let m = post(
        app,
        session,
        "/api/crm-mailing",
        json!({ "name": "June appeal", "subjectLine": "Hello", "senderId": sender["id"],
                "sendTime": (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339(), "listId": list,
                "bodyHtml": "<p>Hi <a href=\"https://example.org/a\">A</a></p>", "isDraft": false,
                "variants": vec![json!({ "subjectLine": "Other" }); variants] }),
    )
    .await;
    m["id"].as_i64().unwrap()
}

async fn send(app: &TestApp, client: &tenancy::Client, session: &Session, id: i64) {
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query("update mailings set send_attempt = now(), delivery = 'sending' where id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await
        .unwrap();
    queue
        .enqueue(tx, None, &jobs::JobKind::SendMailing { mailing_id: id })
        .await
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let m = app
            .get_json(&format!("/api/crm-mailing/{id}"), session)
            .await;
        if m["delivery"] == "done" {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "{m}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// Writes events as the event writer does: one statement per batch. `who` are e-addresses' numbers.
async fn events(app: &TestApp, client: &tenancy::Client, id: i64, batch: &[(usize, &str, bool)]) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let who: Vec<String> = batch
        .iter()
        .map(|b| format!("e{}@example.org", b.0))
        .collect();
    let kinds: Vec<&str> = batch.iter().map(|b| b.1).collect();
    let machine: Vec<bool> = batch.iter().map(|b| b.2).collect();
    sqlx::query(
        "insert into mailing_events (mailing_id, contact_id, kind, machine, url)
         select $1, c.id, x.kind, x.machine, case when x.kind = 'click' then 'https://example.org/a' end
         from unnest($2::text[], $3::text[], $4::bool[]) x (email, kind, machine)
         join contacts c on c.email = x.email",
    )
    .bind(id)
    .bind(&who)
    .bind(&kinds)
    .bind(&machine)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

#[tokio::test]
async fn issue_15_a_flights_figures_match_the_definitions_worked_by_hand() {
    let (port, _inbox) = sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    // 10 good addresses and one that bounces: recipients 11, delivered 10, bounces 1.
    let id = mailing(&app, &client, &session, 10, 0).await;
    send(&app, &client, &session, id).await;
    // Opens: e0 twice (two batches), e1, e2 by people; e3 by a machine only. Human opens 3.
    // Clicks: e0 twice, e1 once by people, e4 by a scanner. Clickers 2, clicks 3.
    // Unsubscribes: e5.
    events(
        &app,
        &client,
        id,
        &[(0, "open", false), (1, "open", false), (3, "open", true)],
    )
    .await;
    events(
        &app,
        &client,
        id,
        &[
            (0, "open", false),
            (2, "open", false),
            (0, "click", false),
            (4, "click", true),
        ],
    )
    .await;
    events(
        &app,
        &client,
        id,
        &[
            (0, "click", false),
            (1, "click", false),
            (5, "unsubscribe", false),
        ],
    )
    .await;
    // Gifts: e0 gives 25.00 and 10.50, e1 gives 5.00 that is refunded. Gifts 3, revenue 35.50.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query(
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email, mailing_id,
                                    attribution, refunded_at)
         select 'actblue', x.line, now(), x.amount, c.id, c.email, $1, 'refcode', x.refunded
         from (values ('G1', 25.00, 'e0@example.org', null::timestamptz),
                      ('G2', 10.50, 'e0@example.org', null),
                      ('G3', 5.00, 'e1@example.org', now())) x (line, amount, email, refunded)
         join contacts c on c.email = x.email",
    )
    .bind(id)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();

    let rows = app.get_json("/api/flights", &session).await;
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["flightId"] == id && r["variant"] == "A")
        .unwrap_or_else(|| panic!("{rows}"));
    assert_eq!(row["name"], "June appeal");
    assert_eq!(row["segmentName"], "List: Everyone");
    assert_eq!(row["recipients"], 11);
    assert_eq!(row["delivered"], 10);
    assert_eq!(row["bounces"], 1);
    assert_eq!(row["humanOpens"], 3);
    assert_eq!(row["machineOpens"], 1);
    // open rate = human opens ÷ recipients = 3 / 11
    assert!((row["openRate"].as_f64().unwrap() - 3.0 / 11.0).abs() < 1e-12);
    assert_eq!(row["clickers"], 2);
    assert_eq!(row["clicks"], 3);
    // click rate = clickers ÷ delivered = 2 / 10
    assert!((row["clickRate"].as_f64().unwrap() - 0.2).abs() < 1e-12);
    assert_eq!(row["unsubscribes"], 1);
    assert_eq!(row["gifts"], 3);
    // revenue: 25.00 + 10.50 + 0 (refunded)
    assert_eq!(row["revenue"], "35.50");
    // average gift = 35.50 / 3 = 11.8333… → 11.83
    assert_eq!(row["averageGift"], "11.83");
    // response rate = gifts ÷ delivered = 3 / 10
    assert!((row["responseRate"].as_f64().unwrap() - 0.3).abs() < 1e-12);
    // RPM = 35.50 / 10 × 1000
    assert_eq!(row["rpm"], "3550.00");
    let total = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["flightId"].is_null())
        .unwrap();
    assert_eq!(
        (total["recipients"].clone(), total["revenue"].clone()),
        (json!(11), json!("35.50"))
    );

    let links = app
        .get_json(&format!("/api/flights/{id}/links"), &session)
        .await;
    assert_eq!(
        links,
        json!([{ "url": "https://example.org/a", "clicks": 3, "clickers": 2 }])
    );
    let hours = app
        .get_json(&format!("/api/crm-mailing/{id}/first-48-hours"), &session)
        .await;
    assert_eq!(hours.as_array().unwrap().len(), 48);
    assert_eq!(
        (hours[0]["opens"].clone(), hours[0]["clicks"].clone()),
        (json!(4), json!(3))
    );

    let csv = app
        .api(Method::GET, "/api/flights/export/csv", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), StatusCode::OK);
    let text = csv.text().await.unwrap();
    assert!(
        text.starts_with("Flight,Day (America/New_York),Variant,Segment,Recipients"),
        "{text}"
    );
    assert!(text.contains(",A,List: Everyone,11,10,1,3,1,0.2727,2,3,0.2000,1,3,35.50,11.83,0.3000,3550.00,Variant"), "{text}");
    let xlsx = app
        .api(Method::GET, "/api/flights/export/xlsx", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(xlsx.status(), StatusCode::OK);
    let bytes = xlsx.bytes().await.unwrap();
    // The flight's day is a real date cell, under a header naming the client's zone.
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let sheet = calamine::Reader::worksheet_range_at(&mut book, 0)
        .unwrap()
        .unwrap();
    assert_eq!(
        sheet.get((0, 1)),
        Some(&calamine::Data::String("Day (America/New_York)".to_owned()))
    );
    let day_cell = sheet
        .rows()
        .skip(1)
        .find(|r| matches!(r.get(19), Some(calamine::Data::String(k)) if k == "Variant"))
        .and_then(|r| r.get(1).cloned());
    assert!(
        matches!(day_cell, Some(calamine::Data::DateTime(_))),
        "{day_cell:?}"
    );

    let reversed = app
        .api(
            Method::GET,
            "/api/flights?from=2026-02-01&to=2026-01-01",
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(reversed.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn issue_15_the_rollups_equal_a_full_recount() {
    let (port, _inbox) = sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let id = mailing(&app, &client, &session, 40, 2).await;
    send(&app, &client, &session, id).await;
    // Events in several batches, with repeats, machines and unsubscribes, across the variants.
    for round in 0..4 {
        let batch: Vec<(usize, &str, bool)> = (0..40)
            .filter(|i| (i + round) % 3 == 0)
            .map(|i| {
                (
                    i,
                    ["open", "click", "unsubscribe", "open"][(i + round) % 4],
                    i % 5 == 0,
                )
            })
            .collect();
        events(&app, &client, id, &batch).await;
    }
    // One statement with a person's repeated opens and clicks, some their first, some not: each person once.
    let repeats = [
        (7, "open", false),
        (7, "open", false),
        (8, "click", false),
        (8, "click", false),
        (1, "open", false),
        (1, "click", false),
        (38, "open", true),
        (38, "open", false),
    ];
    events(&app, &client, id, &repeats).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let rollups = store::flights::rollup_counts(&mut tx, id).await.unwrap();
    let recount = store::flights::recount(&mut tx, id).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(rollups.len(), 3, "three variants: {rollups:?}");
    assert_eq!(rollups, recount);
    assert_eq!(rollups.iter().map(|r| r.recipients).sum::<i64>(), 41);
}

/// Found by the fuzz step: a client without a single flight got 500 (the range's total summed nothing to null).
#[tokio::test]
async fn issue_15_a_range_without_flights_answers_a_zero_total() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let rows = app.get_json("/api/flights", &session).await;
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 1, "only the range's total: {rows:?}");
    assert_eq!(
        (
            &rows[0]["flightId"],
            &rows[0]["recipients"],
            &rows[0]["revenue"],
            &rows[0]["rpm"]
        ),
        (&Value::Null, &json!(0), &json!("0.00"), &json!("0.00"))
    );
    for path in ["/api/flights/export/csv", "/api/flights/export/xlsx"] {
        let answer = app.api(Method::GET, path, &session).send().await.unwrap();
        assert_eq!(answer.status(), StatusCode::OK, "{path}");
    }
}
