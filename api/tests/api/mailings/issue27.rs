//! Issue 27, items 14 and 15: merge-tag defaults in the send and the Confirm warning; a test copy built as the
//! real one, whose clicks never count.

use super::*;

/// Contacts of a new list: `(email, first name)`; returns the list id.
async fn list_of(app: &TestApp, session: &Session, people: &[(&str, Option<&str>)]) -> i64 {
    let list_id = list(app, session).await;
    let emails: Vec<&str> = people.iter().map(|p| p.0).collect();
    let names: Vec<Option<&str>> = people.iter().map(|p| p.1).collect();
    let mut tx = app.tenancy.begin(&session.client).await.unwrap();
    sqlx::query(
        "with c as (insert into contacts (email, first_name, subscription)
                    select e, coalesce(n, ''), 'subscribed' from unnest($2::text[], $3::text[]) as p (e, n) returning id)
         insert into crm_list_members (list_id, contact_id) select $1, id from c",
    )
    .bind(list_id)
    .bind(&emails)
    .bind(&names)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    list_id
}

async fn sender(app: &TestApp, session: &Session) -> Value {
    post(
        app,
        session,
        "/api/sender",
        json!({ "name": "Team River", "fromAddress": "team@river.org" }),
    )
    .await
}

fn raw_of(inbox: &std::sync::Mutex<Vec<mail::sink::Delivered>>, to: &str) -> String {
    let delivered = inbox.lock().unwrap().clone();
    let message = delivered
        .iter()
        .find(|m| m.recipients[0] == to)
        .unwrap_or_else(|| panic!("nothing delivered to {to}"));
    unqp(&String::from_utf8_lossy(&message.data))
}

/// The first `href`/`src` value containing `marker` in the HTML part.
fn url_in(raw: &str, marker: &str) -> String {
    let body = &raw[raw.find("<p>").expect("html part")..];
    let start = body
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} not in {body}"));
    let begin = body[..start].rfind('"').unwrap() + 1;
    let end = start + body[start..].find('"').unwrap();
    body[begin..end].replace("&amp;", "&")
}

#[tokio::test]
async fn issue_27_item_14_a_contact_without_a_first_name_reads_the_tags_default() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let client = app.create_client().await;
    let _worker = app.start_worker_with_scheduler(client.id).await;
    let session = app.session(&client).await;
    let sender = sender(&app, &session).await;
    let list_id = list_of(
        &app,
        &session,
        &[
            ("ann@example.org", Some("Ann")),
            ("nameless@example.org", None),
            ("blank@example.org", Some(" ")),
        ],
    )
    .await;
    let mailing = post(
        &app,
        &session,
        "/api/crm-mailing",
        json!({ "name": "Deadline", "subjectLine": "{{First.Name|Friend}}, 24 hours left", "senderId": sender["id"],
                "sendTime": (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339(), "listId": list_id,
                "bodyHtml": "<p>Hello {{First.Name|friend}}, 24 hours left</p>", "isDraft": false }),
    )
    .await;
    let id = mailing["id"].as_i64().unwrap();
    send_now(&app, &client, id).await;
    wait_for_delivery(&app, &session, id, "done").await;
    for to in ["nameless@example.org", "blank@example.org"] {
        let raw = raw_of(&inbox, to);
        assert!(raw.contains("<p>Hello friend, 24 hours left</p>"), "{raw}");
        assert!(raw.contains("Subject: Friend, 24 hours left"), "{raw}");
    }
    let ann = raw_of(&inbox, "ann@example.org");
    assert!(ann.contains("<p>Hello Ann, 24 hours left</p>"), "{ann}");
    assert!(ann.contains("Subject: Ann, 24 hours left"), "{ann}");
}

#[tokio::test]
async fn issue_27_item_14_confirm_warns_how_many_recipients_lack_a_tag_used_without_a_default() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let sender = sender(&app, &session).await;
    let list_id = list_of(
        &app,
        &session,
        &[
            ("a@example.org", Some("Ann")),
            ("b@example.org", None),
            ("c@example.org", Some("")),
            ("d@example.org", Some("  ")),
            ("e@example.org", Some("Eve")),
        ],
    )
    .await;
    // One more without a first name, unsubscribed: not a recipient, not counted.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query(
        "with c as (insert into contacts (email, subscription) values ('gone@example.org', 'unsubscribed') returning id)
         insert into crm_list_members (list_id, contact_id) select $1, id from c",
    )
    .bind(list_id)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let input = |body: &str| {
        json!({ "name": "Deadline", "subjectLine": "24 hours left", "senderId": sender["id"],
                "sendTime": (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339(), "listId": list_id,
                "bodyHtml": body, "isDraft": false })
    };
    let check = |body: Value, id: Option<i64>| {
        let app = &app;
        let session = &session;
        async move {
            let path = match id {
                Some(id) => format!("/api/crm-mailing/merge-check?id={id}"),
                None => "/api/crm-mailing/merge-check".to_owned(),
            };
            let response = app
                .api(Method::POST, &path, session)
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            response.json::<Value>().await.unwrap()
        }
    };
    let result = check(input("<p>Hello {{First.Name}} ({{Email}})</p>"), None).await;
    assert_eq!(
        result,
        json!({ "recipients": 5, "warnings": [{ "tag": "First.Name", "missing": 3,
                "message": "3 recipients have no first name: they will see it blank. Add a default: {{First.Name|friend}}" }] })
    );
    let with_default = check(input("<p>Hello {{First.Name|friend}}</p>"), None).await;
    assert_eq!(with_default, json!({ "recipients": 5, "warnings": [] }));

    // A saved draft: checked as the editor has it, and nothing is saved by the check.
    let mut draft = input("<p>Hi</p>");
    draft["isDraft"] = json!(true);
    let saved = post(&app, &session, "/api/crm-mailing", draft).await;
    let id = saved["id"].as_i64().unwrap();
    let result = check(input("<p>Hi {{ First.Name }}</p>"), Some(id)).await;
    assert_eq!(result["warnings"][0]["missing"], 3, "{result}");
    let after = app
        .get_json(&format!("/api/crm-mailing/{id}"), &session)
        .await;
    assert_eq!(
        (after["bodyHtml"].as_str(), after["isDraft"].as_bool()),
        (Some("<p>Hi</p>"), Some(true))
    );
    let all = app.get_json("/api/crm-mailing", &session).await;
    assert_eq!(all.as_array().unwrap().len(), 1, "{all}");
}

#[tokio::test]
async fn issue_27_item_15_the_test_copy_is_built_as_the_real_one_and_its_clicks_do_not_count() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let client = app.create_client().await;
    let email = app.create_user(true, &[]).await;
    let session = app.session_for(&email, &client).await;
    let sender = sender(&app, &session).await;
    let list_id = list_of(&app, &session, &[("ann@example.org", Some("Ann"))]).await;
    let send_time = "2026-12-01T15:00:00Z";
    let body = "<p>Hi {{First.Name|friend}}</p><p><a href=\"https://secure.actblue.com/donate/river\">Give</a> \
                <a href=\"https://river.org/news\">News</a></p>";
    let mailing = post(
        &app,
        &session,
        "/api/crm-mailing",
        json!({ "name": "December", "subjectLine": "Rivers", "senderId": sender["id"], "sendTime": send_time,
                "listId": list_id, "bodyHtml": body, "isDraft": true }),
    )
    .await;
    let id = mailing["id"].as_i64().unwrap();
    let response = app
        .api(Method::POST, "/api/crm-mailing/send-to-my-inbox", &session)
        .json(&json!({ "name": "December", "subjectLine": "Rivers", "senderId": sender["id"], "sendTime": send_time,
                       "listId": list_id, "bodyHtml": body, "mailingId": id, "previewText": "Read this" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let raw = raw_of(&inbox, &email);
    assert!(raw.contains("Subject: [Test] Rivers"), "{raw}");
    assert!(raw.contains("X-Compass-Test: 1"), "{raw}");
    assert!(raw.contains("Message-ID: <test"), "{raw}");
    assert!(raw.contains("List-Unsubscribe: <"), "{raw}");
    assert!(raw.contains("Read this"), "the preview text: {raw}");
    // Every link goes through the click redirect; the donation link carries the mailing's refcode.
    let give = url_in(&raw, "actblue");
    assert!(give.contains("/api/track/click/"), "{give}");
    assert!(
        give.contains(&format!("refcode%3Dem_20261201_{id}_a")),
        "the refcode the send will give it: {give}"
    );
    assert!(url_in(&raw, "river.org%2Fnews").contains("/api/track/click/"));
    assert!(!raw.contains("href=\"https://river.org/news\""), "{raw}");
    assert!(raw.contains("/api/track/open/"), "{raw}");

    // Following the tracked link works, and is recorded as a test, not as the mailing's click.
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    // The api signs links for its PUBLIC_URL (http://127.0.0.1 in tests); the test app listens on a port of its own.
    assert!(
        give.starts_with("http://127.0.0.1/api/track/click/"),
        "{give}"
    );
    let click = browser
        .get(give.replacen("http://127.0.0.1", &app.address, 1))
        .header(
            "user-agent",
            "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(click.status(), StatusCode::FOUND);
    assert_eq!(
        click.headers()["location"],
        format!("https://secure.actblue.com/donate/river?refcode=em_20261201_{id}_a")
    );
    let tenancy = app.tenancy.clone();
    let tenant = client.clone();
    wait_until(
        "the test click recorded",
        std::time::Duration::from_secs(30),
        || {
            let (tenancy, tenant) = (tenancy.clone(), tenant.clone());
            async move {
                let mut tx = tenancy.begin(&tenant).await.unwrap();
                let n: i64 = sqlx::query_scalar(
                "select count(*) from mailing_test_events where mailing_id = $1 and kind = 'click'",
            )
            .bind(id)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
                (n == 1).then_some(())
            }
        },
    )
    .await;
    let stats = app
        .get_json(&format!("/api/crm-mailing/{id}/stats"), &session)
        .await;
    assert_eq!(
        stats,
        json!({ "recipients": 0, "delivered": 0, "failed": 0, "bounced": 0, "uniqueOpens": 0, "machineOpens": 0,
                "uniqueClicks": 0, "clicks": 0, "unsubscribes": 0, "heldBack": 0 })
    );
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let events: i64 = sqlx::query_scalar("select count(*) from mailing_events")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let rollup_clicks: i64 = sqlx::query_scalar(
        "select coalesce(sum(clicks), 0)::bigint from mailing_rollups where mailing_id = $1",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    assert_eq!((events, rollup_clicks), (0, 0));
}
