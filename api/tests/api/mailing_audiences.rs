//! Issue 15: a mailing's audience (a list or a segment, minus suppressions) and its variants, sent for real to a
//! local SMTP sink.

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

type Inbox = std::sync::Arc<std::sync::Mutex<Vec<worker::mail::sink::Delivered>>>;

async fn start_sink() -> (u16, Inbox) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let inbox: Inbox = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let store = inbox.clone();
    tokio::spawn(worker::mail::sink::serve_with_policy(
        listener,
        std::sync::Arc::new(move |m| store.lock().unwrap().push(m)),
        std::sync::Arc::new(|_: &str| None),
    ));
    (port, inbox)
}

/// Contacts `emails` (subscribed), their ids in order.
async fn contacts(app: &TestApp, client: &tenancy::Client, emails: &[&str]) -> Vec<i64> {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let ids: Vec<i64> = sqlx::query_scalar(
        "insert into contacts (email, first_name, subscription)
         select e, initcap(split_part(e, '@', 1)), 'subscribed' from unnest($1::text[]) with ordinality x (e, n)
         order by n returning id",
    )
    .bind(emails)
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    ids
}

async fn upload_list(app: &TestApp, client: &tenancy::Client, name: &str, members: &[i64]) -> i64 {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let id: i64 =
        sqlx::query_scalar("insert into crm_lists (name, kind) values ($1, 'upload') returning id")
            .bind(name)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    sqlx::query(
        "insert into crm_list_members (list_id, contact_id) select $1, unnest($2::bigint[])",
    )
    .bind(id)
    .bind(members)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    id
}

async fn segment(app: &TestApp, client: &tenancy::Client, name: &str, members: &[i64]) -> i64 {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let id: i64 = sqlx::query_scalar(
        "insert into segments (name, size, computed) values ($1, $2, now()) returning id",
    )
    .bind(name)
    .bind(members.len() as i32)
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    sqlx::query(
        "insert into segment_members (segment_id, contact_id) select $1, unnest($2::bigint[])",
    )
    .bind(id)
    .bind(members)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    id
}

async fn sender(app: &TestApp, session: &Session) -> i64 {
    post(
        app,
        session,
        "/api/sender",
        json!({ "name": "Team", "fromAddress": "team@example.org" }),
    )
    .await["id"]
        .as_i64()
        .unwrap()
}

async fn send_now(app: &TestApp, client: &tenancy::Client, mailing_id: i64) {
    let queue = worker::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query("update mailings set send_attempt = now(), delivery = 'sending' where id = $1")
        .bind(mailing_id)
        .execute(&mut *tx)
        .await
        .unwrap();
    queue
        .enqueue(tx, None, &worker::JobKind::SendMailing { mailing_id })
        .await
        .unwrap();
}

async fn wait_done(app: &TestApp, session: &Session, id: i64) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let m = app
            .get_json(&format!("/api/crm-mailing/{id}"), session)
            .await;
        if m["delivery"] == "done" {
            return m;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "mailing {id} never finished: {m}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

fn delivered_to(inbox: &Inbox) -> Vec<String> {
    let mut to: Vec<String> = inbox
        .lock()
        .unwrap()
        .iter()
        .map(|m| m.recipients[0].clone())
        .collect();
    to.sort();
    to
}

fn tomorrow() -> String {
    (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339()
}

#[tokio::test]
async fn issue_15_suppressed_contacts_get_no_mail_and_a_segment_audience_is_sent() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let ids = contacts(
        &app,
        &client,
        &[
            "ann@example.org",
            "bob@example.org",
            "cy@example.org",
            "dee@example.org",
            "eve@example.org",
        ],
    )
    .await;
    let everyone = upload_list(&app, &client, "Everyone", &ids).await;
    let staff = upload_list(&app, &client, "Staff", &ids[1..2]).await;
    let recent = segment(&app, &client, "Gave this week", &ids[3..4]).await;
    let sender = sender(&app, &session).await;
    let mailing = post(
        &app,
        &session,
        "/api/crm-mailing",
        json!({ "name": "Appeal", "subjectLine": "Hello", "senderId": sender, "sendTime": tomorrow(),
                "listId": everyone, "bodyHtml": "<p>Hi</p>", "isDraft": false,
                "suppressionListIds": [staff], "suppressionSegmentIds": [recent] }),
    )
    .await;
    let id = mailing["id"].as_i64().unwrap();
    assert_eq!(
        mailing["suppressions"],
        json!([{ "kind": "list", "id": staff, "name": "Staff" },
               { "kind": "segment", "id": recent, "name": "Gave this week" }])
    );
    send_now(&app, &client, id).await;
    let done = wait_done(&app, &session, id).await;
    assert_eq!(done["recipCount"], 3);
    assert_eq!(
        delivered_to(&inbox),
        ["ann@example.org", "cy@example.org", "eve@example.org"],
        "the Staff list and the segment's member got nothing"
    );

    // A segment as the audience, with a list suppressed.
    inbox.lock().unwrap().clear();
    let vip = segment(&app, &client, "VIP", &ids[0..3]).await;
    let mailing = post(
        &app,
        &session,
        "/api/crm-mailing",
        json!({ "name": "VIP", "subjectLine": "Hello", "senderId": sender, "sendTime": tomorrow(),
                "segmentId": vip, "bodyHtml": "<p>Hi</p>", "isDraft": false,
                "suppressionListIds": [staff] }),
    )
    .await;
    assert_eq!(
        (
            mailing["segmentId"].as_i64(),
            mailing["segmentName"].as_str(),
            &mailing["listId"]
        ),
        (Some(vip), Some("VIP"), &Value::Null)
    );
    let id = mailing["id"].as_i64().unwrap();
    send_now(&app, &client, id).await;
    wait_done(&app, &session, id).await;
    assert_eq!(delivered_to(&inbox), ["ann@example.org", "cy@example.org"]);
}

#[tokio::test]
async fn issue_15_the_audience_fields_refuse_what_is_not_the_clients() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let other = app.create_client().await;
    let session = app.session(&client).await;
    let ids = contacts(&app, &client, &["ann@example.org"]).await;
    let list = upload_list(&app, &client, "Everyone", &ids).await;
    let foreign = segment(&app, &other, "Theirs", &[]).await;
    let sender = sender(&app, &session).await;
    let base = json!({ "name": "A", "subjectLine": "S", "senderId": sender, "sendTime": tomorrow(),
                       "bodyHtml": "", "isDraft": true });
    for (extra, message) in [
        (json!({}), "Choose a list or a segment"),
        (
            json!({ "listId": list, "segmentId": foreign }),
            "Choose a list or a segment, not both",
        ),
        (json!({ "segmentId": foreign }), "Unknown segment"),
        (
            json!({ "listId": list, "suppressionSegmentIds": [foreign] }),
            "Unknown segment",
        ),
        (
            json!({ "listId": list, "suppressionListIds": [list + 1000] }),
            "Unknown list",
        ),
        (
            json!({ "listId": list, "variants": [{ "senderId": sender + 1000 }] }),
            "Unknown sender",
        ),
        (
            json!({ "listId": list, "variants": [{ "subjectLine": "two\nlines" }] }),
            "A variant's subject line must be a single line",
        ),
    ] {
        let mut body = base.clone();
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let response = app
            .api(Method::POST, "/api/crm-mailing", &session)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(answer["message"], message, "{body}");
    }
    // Every client has the standard segments; the other client's own segment is not among them.
    let options = app.get_json("/api/crm-mailing/audiences", &session).await;
    let options = options.as_array().unwrap();
    assert_eq!(
        options[0],
        json!({ "kind": "list", "id": list, "name": "Everyone", "size": 1 })
    );
    assert_eq!(options.iter().filter(|o| o["kind"] == "list").count(), 1);
    let standard: i64 =
        sqlx::query_scalar("select count(*) from segments where standard is not null")
            .fetch_one(&mut *app.tenancy.begin(&client).await.unwrap())
            .await
            .unwrap();
    assert_eq!(
        options.iter().filter(|o| o["kind"] == "segment").count() as i64,
        standard,
        "another client's segment is not offered"
    );
    assert!(options.iter().all(|o| o["name"] != "Theirs"));
}

#[tokio::test]
async fn issue_15_each_variant_goes_to_its_share_with_its_own_subject_sender_preview_and_refcode() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let emails: Vec<String> = (0..31).map(|i| format!("r{i}@example.org")).collect();
    let refs: Vec<&str> = emails.iter().map(String::as_str).collect();
    let ids = contacts(&app, &client, &refs).await;
    let list = upload_list(&app, &client, "Everyone", &ids).await;
    let sender = sender(&app, &session).await;
    let other_sender = post(
        &app,
        &session,
        "/api/sender",
        json!({ "name": "Director", "fromAddress": "director@example.org" }),
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let body = "<p>Dear {{First.Name}}</p><a href=\"https://secure.actblue.com/donate/x\">Give</a>";
    let mailing = post(
        &app,
        &session,
        "/api/crm-mailing",
        json!({ "name": "Split", "subjectLine": "Subject A {{First.Name}}", "senderId": sender,
                "sendTime": tomorrow(), "listId": list, "bodyHtml": body, "isDraft": false,
                "previewText": "Preview A",
                "variants": [{ "subjectLine": "Subject B {{First.Name}}", "senderId": other_sender },
                             { "previewText": "Preview C", "bodyHtml": "<p>C for {{First.Name}}</p>" }] }),
    )
    .await;
    let id = mailing["id"].as_i64().unwrap();
    assert_eq!(mailing["variants"][0]["letter"], "B");
    assert_eq!(mailing["variants"][1]["previewText"], "Preview C");
    send_now(&app, &client, id).await;
    wait_done(&app, &session, id).await;

    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let split: Vec<(String, String, i64)> = sqlx::query_as(
        "select r.email, r.variant, count(*) over (partition by r.variant)
         from mailing_recipients r where r.mailing_id = $1 order by r.email",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(split.len(), 31);
    let mut sizes: Vec<i64> = split.iter().map(|s| s.2).collect();
    sizes.sort_unstable();
    sizes.dedup();
    assert!(
        sizes.iter().all(|n| (10..=11).contains(n)),
        "31 split three ways: {sizes:?}"
    );
    let messages = inbox.lock().unwrap();
    assert_eq!(messages.len(), 31, "everyone got exactly one message");
    for m in messages.iter() {
        let raw = String::from_utf8_lossy(&m.data).replace("=\r\n", "");
        let to = &m.recipients[0];
        let variant = &split.iter().find(|s| &s.0 == to).unwrap().1;
        let first = to.split('@').next().unwrap();
        let first = format!("{}{}", first[..1].to_uppercase(), &first[1..]);
        match variant.as_str() {
            "a" => {
                assert!(
                    raw.contains(&format!("Subject: Subject A {first}")),
                    "{raw}"
                );
                assert!(raw.contains("From: Team <team@example.org>"), "{raw}");
                assert!(raw.contains("Preview A"));
                assert!(
                    raw.contains(&format!("_{id}_a")),
                    "refcode with the letter a: {raw}"
                );
            }
            "b" => {
                assert!(
                    raw.contains(&format!("Subject: Subject B {first}")),
                    "{raw}"
                );
                assert!(
                    raw.contains("From: Director <director@example.org>"),
                    "{raw}"
                );
                assert!(raw.contains(&format!("_{id}_b")), "{raw}");
            }
            "c" => {
                assert!(
                    raw.contains(&format!("Subject: Subject A {first}")),
                    "{raw}"
                );
                assert!(raw.contains("Preview C"));
                assert!(raw.contains(&format!("C for {first}")), "{raw}");
            }
            other => panic!("unexpected variant {other}"),
        }
        assert!(raw.contains("List-Unsubscribe"), "unsubscribe per variant");
    }
}

#[tokio::test]
async fn issue_15_the_split_is_deterministic_for_a_seed_and_even_within_one() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let emails: Vec<String> = (0..1000).map(|i| format!("p{i}@example.org")).collect();
    let refs: Vec<&str> = emails.iter().map(String::as_str).collect();
    let ids = contacts(&app, &client, &refs).await;
    let list = upload_list(&app, &client, "Everyone", &ids).await;
    let sender = sender(&app, &session).await;
    let mut splits = Vec::new();
    for variants in [2usize, 3, 7] {
        let mailing = post(
            &app,
            &session,
            "/api/crm-mailing",
            json!({ "name": "Split", "subjectLine": "S", "senderId": sender, "sendTime": tomorrow(),
                    "listId": list, "bodyHtml": "", "isDraft": true,
                    "variants": vec![json!({ "subjectLine": "other" }); variants - 1] }),
        )
        .await;
        let id = mailing["id"].as_i64().unwrap();
        let mut tx = app.tenancy.begin(&client).await.unwrap();
        sqlx::query("update mailings set variant_seed = 42 where id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await
            .unwrap();
        let sizes: Vec<i64> = sqlx::query_scalar(
            "select count(*) from mailing_audience_split($1) group by variant order by variant",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await
        .unwrap();
        assert_eq!(sizes.len(), variants);
        assert_eq!(sizes.iter().sum::<i64>(), 1000);
        let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
        assert!(hi - lo <= 1, "{variants} variants: {sizes:?}");
        let once: Vec<(i64, String)> =
            sqlx::query_as("select contact_id, variant from mailing_audience_split($1) order by 1")
                .bind(id)
                .fetch_all(&mut *tx)
                .await
                .unwrap();
        let again: Vec<(i64, String)> =
            sqlx::query_as("select contact_id, variant from mailing_audience_split($1) order by 1")
                .bind(id)
                .fetch_all(&mut *tx)
                .await
                .unwrap();
        assert_eq!(once, again, "the same seed splits the same way");
        sqlx::query("update mailings set variant_seed = 43 where id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await
            .unwrap();
        let other: Vec<(i64, String)> =
            sqlx::query_as("select contact_id, variant from mailing_audience_split($1) order by 1")
                .bind(id)
                .fetch_all(&mut *tx)
                .await
                .unwrap();
        assert_ne!(once, other, "another seed splits another way");
        tx.commit().await.unwrap();
        splits.push(once);
    }
}
