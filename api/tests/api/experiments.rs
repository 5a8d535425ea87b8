//! Issue 15: Email › Experiments. The test cells are drawn deterministically and evenly; the decision on a fixture
//! has the p-value SciPy gives; the winner send mails only those outside the test, nobody twice; a held
//! experiment waits for "Send winner".

use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use std::collections::HashSet;

type Inbox = std::sync::Arc<std::sync::Mutex<Vec<mail::sink::Delivered>>>;

async fn post(app: &TestApp, session: &Session, path: &str, body: Value) -> (StatusCode, Value) {
    let response = app
        .api(Method::POST, path, session)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// An unsent mailing to `n` subscribed contacts x0@… with variant B (subject "Other").
async fn mailing(app: &TestApp, client: &tenancy::Client, session: &Session, n: usize) -> i64 {
    let emails: Vec<String> = (0..n).map(|i| format!("x{i}@example.org")).collect();
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
    let (_, sender) = post(
        app,
        session,
        "/api/sender",
        json!({ "name": "Team", "fromAddress": "team@example.org" }),
    )
    .await;
    let (status, m) = post(
        app,
        session,
        "/api/crm-mailing",
        json!({ "name": "Ask test", "subjectLine": "Hello", "senderId": sender["id"],
                "sendTime": (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339(), "listId": list,
                "bodyHtml": "<p>Hi</p>", "isDraft": true, "variants": [{ "subjectLine": "Other" }] }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{m}");
    m["id"].as_i64().unwrap()
}

async fn wait_sent(app: &TestApp, session: &Session, mailing: i64) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let m = app
            .get_json(&format!("/api/crm-mailing/{mailing}"), session)
            .await;
        if m["delivery"] == "done" {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "{m}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// Human opens by the first `count` contacts of the cell of `variant`.
async fn opens(
    app: &TestApp,
    client: &tenancy::Client,
    experiment: i64,
    mailing: i64,
    variant: &str,
    count: i64,
) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query(
        "insert into mailing_events (mailing_id, contact_id, kind, machine)
         select $2, contact_id, 'open', false from experiment_cells
         where experiment_id = $1 and variant = $3 order by contact_id limit $4",
    )
    .bind(experiment)
    .bind(mailing)
    .bind(variant)
    .bind(count)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

fn recipients(inbox: &Inbox) -> Vec<(String, String)> {
    inbox
        .lock()
        .unwrap()
        .iter()
        .map(|m| {
            let data = String::from_utf8_lossy(&m.data);
            let subject = data
                .lines()
                .find_map(|l| l.strip_prefix("Subject: "))
                .unwrap_or_default()
                .to_owned();
            (m.recipients.join(","), subject)
        })
        .collect()
}

async fn pass(app: &TestApp, client: &tenancy::Client) {
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    worker::experiments_due(&app.tenancy, &queue, client)
        .await
        .unwrap();
}

fn experiment(mailing: i64, auto_send: bool) -> Value {
    json!({ "name": "Subject test", "kind": "subject", "mailingId": mailing, "testFraction": 0.5,
            "metric": "open_rate", "waitHours": 0, "autoSend": auto_send, "baselineRate": 0.2,
            "expectedLift": 0.1 })
}

#[tokio::test]
async fn issue_15_the_test_cells_are_deterministic_for_a_seed_and_even_within_one() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let id = mailing(&app, &client, &session, 101).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    // A third variant: 20 of 101 in the test (round(20.2)), dealt 7, 7, 6.
    sqlx::query(
        "insert into mailing_variants (mailing_id, letter, subject_line) values ($1, 'c', 'Third')",
    )
    .bind(id)
    .execute(&mut *tx)
    .await
    .unwrap();
    let draw = "select contact_id, variant from experiment_test_cells($1, 0.2) order by contact_id";
    let first: Vec<(i64, String)> = sqlx::query_as(draw)
        .bind(id)
        .fetch_all(&mut *tx)
        .await
        .unwrap();
    let again: Vec<(i64, String)> = sqlx::query_as(draw)
        .bind(id)
        .fetch_all(&mut *tx)
        .await
        .unwrap();
    assert_eq!(first, again);
    assert_eq!(first.len(), 20);
    let count = |v: &str| first.iter().filter(|c| c.1 == v).count();
    let mut sizes = [count("a"), count("b"), count("c")];
    sizes.sort_unstable();
    assert_eq!(sizes, [6, 7, 7]);
    // Another seed draws other people.
    sqlx::query("update mailings set variant_seed = variant_seed + 1 where id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await
        .unwrap();
    let other: Vec<(i64, String)> = sqlx::query_as(draw)
        .bind(id)
        .fetch_all(&mut *tx)
        .await
        .unwrap();
    assert_eq!(other.len(), 20);
    assert_ne!(other, first);
    tx.commit().await.unwrap();

    // The sample-size check before the test: 10 per cell against the 6,507 opens 20 % → 22 % need.
    let (status, check) = post(
        &app,
        &session,
        "/api/experiments/sample-size",
        json!({ "mailingId": id, "testFraction": 0.3, "baselineRate": 0.2, "expectedLift": 0.1 }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{check}");
    assert_eq!(check["audience"], 101);
    assert_eq!(check["perCell"], 10);
    assert_eq!(check["neededPerCell"], 6507);
    assert_eq!(check["enough"], false);
    assert_eq!(
        check["warning"],
        "Each test cell gets 10 recipients; telling 20.00% from 22.00% at 95% significance and 80% power needs 6507 per cell. The test is unlikely to find a difference that small."
    );
}

#[tokio::test]
async fn issue_15_the_winner_goes_to_the_rest_only_and_nobody_twice() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let id = mailing(&app, &client, &session, 200).await;
    let (status, x) = post(&app, &session, "/api/experiments", experiment(id, true)).await;
    assert_eq!(status, StatusCode::OK, "{x}");
    let xid = x["id"].as_i64().unwrap();
    assert_eq!(x["status"], "draft");
    assert_eq!(x["sampleSize"]["perCell"], 50);
    assert_eq!(x["sampleSize"]["enough"], false);

    let (status, x) = post(
        &app,
        &session,
        &format!("/api/experiments/{xid}/start"),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{x}");
    assert_eq!(x["status"], "testing");
    wait_sent(&app, &session, id).await;
    let test = recipients(&inbox);
    assert_eq!(test.len(), 100);
    assert_eq!(test.iter().filter(|m| m.1 == "Other").count(), 50);

    // B: 40 of 50 open, A: 10 of 50. z = 6.0, p = 1.97317529e-9 (SciPy): B wins and goes to the rest.
    opens(&app, &client, xid, id, "b", 40).await;
    opens(&app, &client, xid, id, "a", 10).await;
    pass(&app, &client).await;
    wait_sent(&app, &session, id).await;
    pass(&app, &client).await;

    let all = recipients(&inbox);
    assert_eq!(all.len(), 200);
    let distinct: HashSet<&String> = all.iter().map(|m| &m.0).collect();
    assert_eq!(distinct.len(), 200, "someone was mailed twice");
    let tested: HashSet<&String> = test.iter().map(|m| &m.0).collect();
    let rest = &all[100..];
    assert!(rest
        .iter()
        .all(|m| !tested.contains(&m.0) && m.1 == "Other"));

    let x = app
        .get_json(&format!("/api/experiments/{xid}"), &session)
        .await;
    assert_eq!(x["status"], "finished");
    assert_eq!(x["winner"], "B");
    let r = &x["result"];
    assert_eq!(
        (r["best"].as_str(), r["runnerUp"].as_str()),
        (Some("B"), Some("A"))
    );
    assert!(
        (r["pValue"].as_f64().unwrap() - 1.973_175_290_075_389e-9).abs() < 1e-15,
        "{r}"
    );
    assert!((r["statistic"].as_f64().unwrap() - 6.0).abs() < 1e-9);
    assert!((r["difference"].as_f64().unwrap() - 0.6).abs() < 1e-12);
    assert!((r["ciLow"].as_f64().unwrap() - 0.443_202_881_236_795_74).abs() < 1e-9);
    assert!((r["ciHigh"].as_f64().unwrap() - 0.756_797_118_763_204_4).abs() < 1e-9);
    assert_eq!(
        r["summary"],
        "B wins: open rate 80.00% against 20.00% for A (p < 0.0001)."
    );
    let v = &x["variants"];
    assert_eq!(
        (
            v[0]["variant"].as_str(),
            v[0]["delivered"].as_i64(),
            v[0]["opens"].as_i64()
        ),
        (Some("A"), Some(50), Some(10))
    );
    assert_eq!(
        (
            v[1]["variant"].as_str(),
            v[1]["delivered"].as_i64(),
            v[1]["opens"].as_i64()
        ),
        (Some("B"), Some(50), Some(40))
    );
    assert_eq!(x["winnerSend"]["recipients"], 100);
    assert_eq!(x["winnerSend"]["delivered"], 100);
    assert_eq!(x["winnerSend"]["variant"], "B");
    // Started: no longer deletable.
    let response = app
        .api(Method::DELETE, &format!("/api/experiments/{xid}"), &session)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CONFLICT);
}

#[tokio::test]
async fn issue_15_a_held_experiment_waits_for_send_winner() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let id = mailing(&app, &client, &session, 80).await;
    let (_, x) = post(&app, &session, "/api/experiments", experiment(id, false)).await;
    let xid = x["id"].as_i64().unwrap();
    post(
        &app,
        &session,
        &format!("/api/experiments/{xid}/start"),
        json!({}),
    )
    .await;
    wait_sent(&app, &session, id).await;
    // A: 12 of 20 open, B: 3 of 20. z = 2.9394, p = 0.0032886 (SciPy): A wins, held for a person.
    opens(&app, &client, xid, id, "a", 12).await;
    opens(&app, &client, xid, id, "b", 3).await;
    pass(&app, &client).await;
    let x = app
        .get_json(&format!("/api/experiments/{xid}"), &session)
        .await;
    assert_eq!(x["status"], "decided");
    assert_eq!(x["winner"], "A");
    let p = x["result"]["pValue"].as_f64().unwrap();
    assert!((p - 0.003_288_614_304_847_930_4).abs() < 1e-9, "{p}");
    assert!(x["decidedAt"].is_string());
    assert_eq!(recipients(&inbox).len(), 40, "held: nothing more is sent");

    let (status, body) = post(
        &app,
        &session,
        &format!("/api/experiments/{xid}/send-winner"),
        json!({ "variant": "B" }),
    )
    .await;
    assert_eq!(
        (status, body["message"].as_str()),
        (
            StatusCode::BAD_REQUEST,
            Some("The test picked another variant")
        )
    );
    let (status, x) = post(
        &app,
        &session,
        &format!("/api/experiments/{xid}/send-winner"),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{x}");
    assert_eq!(x["status"], "winner_sending");
    wait_sent(&app, &session, id).await;
    let all = recipients(&inbox);
    assert_eq!(all.len(), 80);
    assert_eq!(all.iter().map(|m| &m.0).collect::<HashSet<_>>().len(), 80);
    assert!(all[40..].iter().all(|m| m.1 == "Hello"));
    let (status, _) = post(
        &app,
        &session,
        &format!("/api/experiments/{xid}/send-winner"),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
}

/// Issue 31: an experiment respects the programme's frequency cap. Four contacts already had the day's one
/// e-mail: the test cells are drawn from the other 36 (still even), the winner send leaves the four out and the
/// mailing says it held them back; nobody is mailed twice.
#[tokio::test]
async fn issue_31_an_experiment_leaves_out_who_reached_the_cap_in_its_cells_and_its_winner_send() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let id = mailing(&app, &client, &session, 40).await;
    let response = app
        .api(Method::PUT, "/api/journeys/limits", &session)
        .json(&json!({ "per_day": 1, "per_week": null, "quiet_start_hour": null, "quiet_end_hour": null }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    // x0…x3 had an earlier mailing today.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query(
        "with m as (insert into mailings (name, subject_line, sender_id, send_time, body_html, is_draft, send_attempt,
                                          delivery)
                    select 'Earlier', 'Earlier', id, now(), '', false, now(), 'done' from senders limit 1
                    returning id)
         insert into mailing_recipients (mailing_id, contact_id, email, first_name, status, sent_at)
         select m.id, c.id, c.email, c.first_name, 'sent', now() from m, contacts c
         where c.email in ('x0@example.org', 'x1@example.org', 'x2@example.org', 'x3@example.org')",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let capped: HashSet<String> = (0..4).map(|i| format!("x{i}@example.org")).collect();

    let (_, x) = post(&app, &session, "/api/experiments", experiment(id, false)).await;
    let xid = x["id"].as_i64().unwrap();
    let (status, x) = post(
        &app,
        &session,
        &format!("/api/experiments/{xid}/start"),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{x}");
    wait_sent(&app, &session, id).await;
    let test = recipients(&inbox);
    // Half of the 36 the cap lets through, nine per variant.
    assert_eq!(test.len(), 18, "{test:?}");
    assert_eq!(test.iter().filter(|m| m.1 == "Other").count(), 9);
    assert!(test.iter().all(|m| !capped.contains(&m.0)), "{test:?}");

    // Nothing wins on no opens: a person sends A to the rest.
    pass(&app, &client).await;
    let (status, x) = post(
        &app,
        &session,
        &format!("/api/experiments/{xid}/send-winner"),
        json!({ "variant": "A" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{x}");
    wait_sent(&app, &session, id).await;
    let all = recipients(&inbox);
    assert_eq!(all.len(), 36, "{all:?}");
    assert_eq!(all.iter().map(|m| &m.0).collect::<HashSet<_>>().len(), 36);
    assert!(all.iter().all(|m| !capped.contains(&m.0)), "{all:?}");
    let m = app
        .get_json(&format!("/api/crm-mailing/{id}"), &session)
        .await;
    assert_eq!(m["heldBack"], 4, "{m}");
}
