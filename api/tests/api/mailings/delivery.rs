use super::*;

/// The first `href`/`src` value containing `marker` in the HTML part (headers and the text part come first).
fn find_url(raw: &str, marker: &str) -> String {
    let body = &raw[raw.find("<p>Dear").expect("html part")..];
    let start = body
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} not in {body}"));
    let begin = body[..start].rfind('"').unwrap() + 1;
    let end = start + body[start..].find('"').unwrap();
    body[begin..end].replace("&amp;", "&")
}

#[tokio::test]
async fn a_confirmed_mailing_is_delivered_tracked_and_honours_unsubscribes() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let client = app.create_client().await;
    let _worker = app.start_worker_with_scheduler(client.id).await;
    let session = app.session(&client).await;
    let sender = post(
        &app,
        &session,
        "/api/sender",
        json!({ "name": "Team River", "fromAddress": "team@river.org" }),
    )
    .await;
    let list_id = list(&app, &session).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query(
        "with c as (insert into contacts (email, first_name, subscription) values
                      ('ann@example.org', 'Ann', 'subscribed'), ('bob@example.org', '', 'subscribed'),
                      ('cy@example.org', 'Cy', 'subscribed'), ('gone@example.org', 'Gone', 'unsubscribed')
                    returning id)
         insert into crm_list_members (list_id, contact_id) select $1, id from c",
    )
    .bind(list_id)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();

    let mailing = post(
        &app,
        &session,
        "/api/crm-mailing",
        json!({ "name": "June", "subjectLine": "Hello {{First.Name}}", "senderId": sender["id"],
                "sendTime": (chrono::Utc::now() - chrono::Duration::minutes(1)).to_rfc3339(), "listId": list_id,
                "bodyHtml": "<p>Dear {{First.Name}},</p><a href=\"https://act.example/give?x=1\">Give</a>", "isDraft": false }),
    )
    .await;
    let id = mailing["id"].as_i64().unwrap();
    let mut done = Value::Null;
    // A generous deadline: the test binary runs many apps and workers at once, each worker's scheduler passing over
    // every client of the shared database, on a small machine.
    for _ in 0..600 {
        done = app
            .get_json(&format!("/api/crm-mailing/{id}"), &session)
            .await;
        if done["delivery"] == "done" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert_eq!(done["delivery"], "done", "{done}");
    assert!(done["sendAttempt"].is_string());
    assert_eq!(done["recipCount"], 3);

    let delivered = inbox.lock().unwrap().clone();
    let to = delivered_to(&inbox);
    assert_eq!(
        to,
        vec!["ann@example.org", "bob@example.org", "cy@example.org"]
    );
    let ann = delivered
        .iter()
        .find(|m| m.recipients[0] == "ann@example.org")
        .unwrap();
    let raw = unqp(&String::from_utf8_lossy(&ann.data));
    // A copy sent again after a crash would carry the same Message-ID.
    assert!(
        raw.contains(&format!("Message-ID: <m{id}.c")),
        "a Message-ID per mailing and recipient: {raw}"
    );
    assert!(raw.contains("Subject: Hello Ann"), "{raw}");
    assert!(raw.contains("Dear Ann,"), "{raw}");
    assert!(raw.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
    let bob = unqp(&String::from_utf8_lossy(
        &delivered
            .iter()
            .find(|m| m.recipients[0] == "bob@example.org")
            .unwrap()
            .data,
    ));
    assert!(
        bob.contains("Dear ,") && !bob.contains("{{"),
        "missing values render empty"
    );

    // A person opens (after the scanner window: the mails' send times are moved three seconds back rather than
    // the test waiting two) and clicks.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query(
        "update mailing_recipients set sent_at = sent_at - interval '3 seconds' where mailing_id = $1",
    )
    .bind(id)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let ua = "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0";
    let open = browser
        .get(find_url(&raw, "/api/track/open/"))
        .header("user-agent", ua)
        .send()
        .await
        .unwrap();
    assert_eq!(open.headers()["content-type"], "image/gif");
    browser
        .get(find_url(&raw, "/api/track/open/"))
        .header("user-agent", ua)
        .send()
        .await
        .unwrap();
    let click_url = find_url(&raw, "/api/track/click/");
    let click = browser
        .get(&click_url)
        .header("user-agent", ua)
        .send()
        .await
        .unwrap();
    assert_eq!(click.status(), StatusCode::FOUND);
    assert_eq!(click.headers()["location"], "https://act.example/give?x=1");
    let tampered = browser
        .get(click_url.replace("act.example", "evil.example"))
        .send()
        .await
        .unwrap();
    assert_eq!(tampered.status(), StatusCode::NOT_FOUND);
    // Two opens by one person count once.
    wait_until(
        "one open counted",
        std::time::Duration::from_secs(30),
        || async {
            let opens = app
                .get_json(&format!("/api/crm-mailing/{id}"), &session)
                .await["openCount"]
                .clone();
            (opens == 1).then_some(())
        },
    )
    .await;

    // One-click unsubscribe (RFC 8058), twice: the second changes nothing.
    let unsubscribe = find_url(&raw, "/api/unsubscribe/");
    assert!(unsubscribe.starts_with("http"), "{unsubscribe} from {raw}");
    for _ in 0..2 {
        let response = browser
            .post(&unsubscribe)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
    }
    let ann_now = app.get_json("/api/contacts?q=ann@", &session).await;
    assert_eq!(ann_now["items"][0]["subscription"], "unsubscribed");
    let stats = app
        .get_json(&format!("/api/crm-mailing/{id}/stats"), &session)
        .await;
    assert_eq!(
        stats,
        json!({ "recipients": 3, "delivered": 3, "failed": 0, "bounced": 0, "uniqueOpens": 1, "machineOpens": 0,
                "uniqueClicks": 1, "clicks": 1, "unsubscribes": 1, "heldBack": 0 })
    );
    let page = browser
        .get(&unsubscribe)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("Stop receiving these e-mails?"));

    // The send job delivered again (at-least-once) mails nobody twice.
    let jobs = app.get_json("/api/jobs", &session).await;
    let job_id = jobs
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["label"] == "Send Mailing")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("update jobs set status = 'queued' where id = $1")
        .bind(job_id)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    queue
        .redeliver(jobs::JobMessage {
            client_id: client.id,
            job_id,
        })
        .await
        .unwrap();
    // The job closing again is the sign that the redelivered send ran to its end.
    let again = app.wait_for_job(&session, job_id).await;
    assert_eq!(again["success"], true, "{again}");
    assert_eq!(inbox.lock().unwrap().len(), 3);
}
