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

async fn list(app: &TestApp, session: &Session) -> i64 {
    let mut tx = app.tenancy.begin(&session.client).await.unwrap();
    let id = sqlx::query_scalar(
        "insert into crm_lists (name, kind) values ('Donors', 'upload') returning id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    id
}

#[tokio::test]
async fn templates_are_created_edited_listed_and_deleted() {
    let app = spawn_app().await;
    let session = app.session(&app.create_client().await).await;
    let t = post(
        &app,
        &session,
        "/api/crm-mailing-template",
        json!({ "name": "Monthly", "bodyHtml": "<p>Hi {{First.Name}}</p>" }),
    )
    .await;
    let id = t["id"].as_i64().unwrap();
    let patched = app
        .api(
            Method::PATCH,
            &format!("/api/crm-mailing-template/{id}"),
            &session,
        )
        .json(&json!({ "name": "Monthly update" }))
        .send()
        .await
        .unwrap();
    assert_eq!(patched.status(), StatusCode::OK);
    let all = app.get_json("/api/crm-mailing-template", &session).await;
    assert_eq!(all[0]["name"], "Monthly update");
    assert_eq!(all[0]["bodyHtml"], "<p>Hi {{First.Name}}</p>");
    let nameless = app
        .api(Method::POST, "/api/crm-mailing-template", &session)
        .json(&json!({ "name": "" }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(nameless).await,
        (
            StatusCode::BAD_REQUEST,
            "Template name is required".to_owned()
        )
    );
    let deleted = app
        .api(
            Method::DELETE,
            &format!("/api/crm-mailing-template/{id}"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let gone = app
        .api(
            Method::GET,
            &format!("/api/crm-mailing-template/{id}"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn mailings_are_drafted_confirmed_and_locked_once_sending_started() {
    let app = spawn_app().await;
    let session = app.session(&app.create_client().await).await;
    let sender = post(
        &app,
        &session,
        "/api/sender",
        json!({ "name": "Team River", "fromAddress": "Team@River.org" }),
    )
    .await;
    assert_eq!(sender["fromAddress"], "team@river.org");
    let names = app.get_json("/api/sender/sender-names", &session).await;
    assert_eq!(
        names,
        json!([{ "id": sender["id"], "label": "Team River <team@river.org>" }])
    );
    let list_id = list(&app, &session).await;
    let mut body = json!({ "name": "June appeal", "subjectLine": "Rivers need you", "senderId": sender["id"],
                           "sendTime": "2026-12-01T15:00:00Z", "listId": list_id, "bodyHtml": "<p>Hi</p>", "isDraft": true });
    let draft = post(&app, &session, "/api/crm-mailing", body.clone()).await;
    assert_eq!(
        (draft["isDraft"].as_bool(), draft["sendAttempt"].as_str()),
        (Some(true), None)
    );
    assert_eq!(
        (draft["senderName"].as_str(), draft["listName"].as_str()),
        (Some("Team River"), Some("Donors"))
    );
    assert_eq!(
        (draft["recipCount"].as_i64(), draft["openCount"].as_i64()),
        (Some(0), Some(0))
    );
    let id = draft["id"].as_i64().unwrap();

    body["isDraft"] = json!(false);
    let confirmed = app
        .api(Method::PATCH, &format!("/api/crm-mailing/{id}"), &session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(confirmed.status(), StatusCode::OK);
    assert_eq!(
        app.get_json(&format!("/api/crm-mailing/{id}"), &session)
            .await["isDraft"],
        false
    );

    let mut tx = app.tenancy.begin(&session.client).await.unwrap();
    sqlx::query("update mailings set send_attempt = now() where id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let locked = app
        .api(Method::PATCH, &format!("/api/crm-mailing/{id}"), &session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(locked).await,
        (
            StatusCode::CONFLICT,
            "A sent mailing cannot be changed".to_owned()
        )
    );

    // Header injection through the subject is refused outright.
    body["subjectLine"] = json!("Hi\r\nBcc: everyone@example.org");
    let injected = app
        .api(Method::POST, "/api/crm-mailing", &session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(injected).await,
        (
            StatusCode::BAD_REQUEST,
            "Subject line must be a single line".to_owned()
        )
    );
    body["subjectLine"] = json!("Fine");
    body["listId"] = json!(987654);
    let unknown = app
        .api(Method::POST, "/api/crm-mailing", &session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(unknown).await,
        (StatusCode::BAD_REQUEST, "Unknown list".to_owned())
    );

    let deleted = app
        .api(Method::DELETE, &format!("/api/crm-mailing/{id}"), &session)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_eq!(app.get_json("/api/crm-mailing", &session).await, json!([]));
}

#[tokio::test]
async fn send_to_my_inbox_delivers_one_rendered_copy_to_the_signed_in_user() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let client = app.create_client().await;
    let email = app.create_user(true, &[]).await;
    let session = app.session_for(&email, &client).await;
    let sender = post(
        &app,
        &session,
        "/api/sender",
        json!({ "name": "Team River", "fromAddress": "team@river.org" }),
    )
    .await;
    let response = app
        .api(Method::POST, "/api/crm-mailing/send-to-my-inbox", &session)
        .json(
            &json!({ "name": "June", "subjectLine": "Rivers need you", "senderId": sender["id"],
                        "bodyHtml": "<p>Dear {{First.Name}} ({{ Email }}){{Unknown.Tag}}</p>" }),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let result: Value = response.json().await.unwrap();
    assert_eq!(
        (result["message"].as_str(), result["to"].as_str()),
        (Some("Draft sent"), Some(email.as_str()))
    );

    let delivered = inbox.lock().unwrap().clone();
    assert_eq!(delivered.len(), 1);
    assert_eq!(delivered[0].recipients, vec![email.clone()]);
    let raw = String::from_utf8_lossy(&delivered[0].data).to_string();
    assert!(raw.contains("Subject: [Test] Rivers need you"), "{raw}");
    assert!(raw.contains(&format!("Dear Test ({email})</p>")), "{raw}");
    assert!(!raw.contains("{{"), "{raw}");
}

#[tokio::test]
async fn issue_17_bug_3_send_to_my_inbox_merges_the_subject_like_the_real_send() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let client = app.create_client().await;
    let email = app.create_user(true, &[]).await;
    let session = app.session_for(&email, &client).await;
    let sender = post(
        &app,
        &session,
        "/api/sender",
        json!({ "name": "Team River", "fromAddress": "team@river.org" }),
    )
    .await;
    let response = app
        .api(Method::POST, "/api/crm-mailing/send-to-my-inbox", &session)
        .json(
            &json!({ "name": "June", "subjectLine": "Hello {{First.Name}}, rivers need you", "senderId": sender["id"],
                     "bodyHtml": "<p>Hi</p>" }),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let raw = String::from_utf8_lossy(&inbox.lock().unwrap()[0].data).to_string();
    assert!(
        raw.contains("Subject: [Test] Hello Test, rivers need you"),
        "{raw}"
    );
}

#[tokio::test]
async fn send_to_my_inbox_says_so_when_the_mail_server_is_down() {
    let app = spawn_app().await;
    let session = app.session(&app.create_client().await).await;
    let sender = post(
        &app,
        &session,
        "/api/sender",
        json!({ "name": "T", "fromAddress": "t@example.org" }),
    )
    .await;
    let response = app
        .api(Method::POST, "/api/crm-mailing/send-to-my-inbox", &session)
        .json(&json!({ "name": "N", "subjectLine": "S", "senderId": sender["id"], "bodyHtml": "<p>x</p>" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
}

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
    let _worker = app.start_worker_with_scheduler().await;
    let client = app.create_client().await;
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
    for _ in 0..100 {
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

    // A person opens (after the scanner window) and clicks.
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
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
        std::time::Duration::from_secs(10),
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
                "uniqueClicks": 1, "clicks": 1, "unsubscribes": 1 })
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
    let queue = worker::JobQueue::connect(&redis_url(), &app.queue_name)
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
        .redeliver(worker::JobMessage {
            client_id: client.id,
            job_id,
        })
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    assert_eq!(inbox.lock().unwrap().len(), 3);
}

/// A local SMTP sink answering each recipient as `policy` says.
async fn start_sink_with(
    policy: worker::mail::sink::RecipientPolicy,
) -> (
    u16,
    std::sync::Arc<std::sync::Mutex<Vec<worker::mail::sink::Delivered>>>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let inbox = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let store = inbox.clone();
    tokio::spawn(worker::mail::sink::serve_with_policy(
        listener,
        std::sync::Arc::new(move |m| store.lock().unwrap().push(m)),
        policy,
    ));
    (port, inbox)
}

/// A confirmed mailing to a list of `emails` (all subscribed), with its sender; returns its id.
async fn confirmed_mailing(app: &TestApp, session: &Session, emails: &[String]) -> i64 {
    let sender = post(
        app,
        session,
        "/api/sender",
        json!({ "name": "Team", "fromAddress": "team@example.org" }),
    )
    .await;
    let list_id = list(app, session).await;
    let mut tx = app.tenancy.begin(&session.client).await.unwrap();
    sqlx::query(
        "with c as (insert into contacts (email, first_name, subscription)
                    select e, 'Pat', 'subscribed' from unnest($2::text[]) e returning id)
         insert into crm_list_members (list_id, contact_id) select $1, id from c",
    )
    .bind(list_id)
    .bind(emails)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let mailing = post(
        app,
        session,
        "/api/crm-mailing",
        json!({ "name": "Appeal", "subjectLine": "Hello", "senderId": sender["id"],
                "sendTime": (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339(), "listId": list_id,
                "bodyHtml": "<p>Dear {{First.Name}},</p>", "isDraft": false }),
    )
    .await;
    mailing["id"].as_i64().unwrap()
}

/// Starts the send at once, as the scheduler does when the send time comes (claim, then queue the job).
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

/// Polls the mailing until its delivery is `state`.
async fn wait_for_delivery(app: &TestApp, session: &Session, id: i64, state: &str) -> Value {
    let mut mailing = Value::Null;
    for _ in 0..300 {
        mailing = app
            .get_json(&format!("/api/crm-mailing/{id}"), session)
            .await;
        if mailing["delivery"] == state {
            return mailing;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("mailing {id} never reached {state}: {mailing}");
}

/// The first recipient of each delivered message, sorted.
fn delivered_to(inbox: &std::sync::Mutex<Vec<worker::mail::sink::Delivered>>) -> Vec<String> {
    let mut to: Vec<String> = inbox
        .lock()
        .unwrap()
        .iter()
        .map(|m| m.recipients[0].clone())
        .collect();
    to.sort();
    to
}

fn addresses(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}@example.org")).collect()
}

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

#[tokio::test]
async fn messages_a_killed_send_handed_to_the_server_are_not_sent_again() {
    let (port, inbox) = start_sink_with(std::sync::Arc::new(|_: &str| None)).await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let emails = addresses("handed", 4);
    let id = confirmed_mailing(&app, &session, &emails).await;
    // A worker killed right after writing the final "." of handed0's message left this in its send journal
    // (little-endian contact ids: + before the end of a message, - when the server then refused it): handed0
    // may have been delivered, handed1's message was refused after its end and must go again.
    // That send had started: its start names the journal.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let ids: Vec<i64> =
        sqlx::query_scalar("select id from contacts where email = any ($1) order by email")
            .bind(&emails[..2])
            .fetch_all(&mut *tx)
            .await
            .unwrap();
    let started: i64 = sqlx::query_scalar(
        "update mailings set send_attempt = now(), delivery = 'sending' where id = $1
         returning (extract(epoch from send_attempt) * 1000000)::bigint",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let journal = app
        .send_journal
        .join(format!("client{}-mailing{id}-{started}.journal", client.id));
    std::fs::create_dir_all(&app.send_journal).unwrap();
    let entries: Vec<u8> = [ids[0], ids[1], -ids[1]]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    std::fs::write(&journal, entries).unwrap();

    let _worker = app.start_worker().await;
    worker::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap()
        .enqueue(
            app.tenancy.begin(&client).await.unwrap(),
            None,
            &worker::JobKind::SendMailing { mailing_id: id },
        )
        .await
        .unwrap();
    let done = wait_for_delivery(&app, &session, id, "done").await;
    let to = delivered_to(&inbox);
    assert_eq!(to, emails[1..].to_vec(), "handed0 is not mailed twice");
    assert_eq!(done["recipCount"], 4);
    let stats = app
        .get_json(&format!("/api/crm-mailing/{id}/stats"), &session)
        .await;
    assert_eq!(stats["delivered"], 4, "{stats}");
    assert!(
        !journal.exists(),
        "a finished send leaves no journal behind"
    );
}

/// The client's newest job row: status, error, attempts and success.
async fn newest_job(
    app: &TestApp,
    client: &tenancy::Client,
) -> (String, Option<String>, i32, Option<bool>) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let job = sqlx::query_as(
        "select status, error, attempts, success from jobs order by id desc limit 1",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    job
}

#[tokio::test]
async fn item_7_a_send_that_finds_its_mailing_locked_by_another_worker_is_retried() {
    let (port, inbox) = start_sink_with(std::sync::Arc::new(|_: &str| None)).await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let emails = addresses("patient", 3);
    let id = confirmed_mailing(&app, &session, &emails).await;
    // Another worker is still sending this mailing: it holds the mailing's send lock.
    let other_sender = app
        .tenancy
        .try_exclusive(&client, id)
        .await
        .unwrap()
        .expect("the send lock is free");
    send_now(&app, &client, id).await;

    // The attempt that met the lock leaves the job queued for another try; it does not fail it.
    let mut job = newest_job(&app, &client).await;
    for _ in 0..500 {
        if job.2 >= 1 && job.0 != "running" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        job = newest_job(&app, &client).await;
    }
    assert_eq!(
        (job.0.as_str(), job.1.as_deref()),
        (
            "queued",
            Some("This mailing is being sent by another worker")
        ),
        "{job:?}"
    );
    assert!(
        inbox.lock().unwrap().is_empty(),
        "nothing sent while locked"
    );

    // The other worker lets go: the retry sends the mailing.
    drop(other_sender);
    let done = wait_for_delivery(&app, &session, id, "done").await;
    assert_eq!(done["recipCount"], 3);
    let mut expected = emails.clone();
    expected.sort();
    assert_eq!(
        delivered_to(&inbox),
        expected,
        "each recipient exactly once"
    );
    let (status, _, attempts, success) = newest_job(&app, &client).await;
    assert_eq!((status.as_str(), success), ("done", Some(true)));
    assert!(attempts >= 2, "the job ran again: {attempts} attempts");
}
