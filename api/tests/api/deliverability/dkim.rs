//! Sender domains: DKIM keys generated and sealed, every copy signed (checked by mail-auth's verifier against a
//! local DNS server), the domain check, and warm-up caps.

use crate::helpers::*;
use mail_auth::{AuthenticatedMessage, DkimResult};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

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

async fn add_domain(app: &TestApp, session: &Session, body: Value) -> Value {
    let (status, domain) = post(app, session, "/api/sender-domains", body).await;
    assert_eq!(status, StatusCode::CREATED, "{domain}");
    domain
}

/// Publishes the record the page shows for `domain`.
async fn publish(dns: &DnsServer, domain: &Value) {
    dns.txt(
        domain["dnsName"].as_str().unwrap(),
        domain["dnsRecord"].as_str().unwrap(),
    )
    .await;
}

/// What mail-auth's verifier says of each DKIM signature of `raw`.
async fn verify(dns: &DnsServer, raw: &[u8]) -> Vec<DkimResult> {
    let message = AuthenticatedMessage::parse(raw).expect("a message");
    let authenticator = dns.authenticator();
    let outputs = authenticator.verify_dkim(&message).await;
    outputs.iter().map(|o| o.result().clone()).collect()
}

fn tampered(raw: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(raw)
        .replacen("Dear Pat", "Dear Eve", 1)
        .into_bytes()
}

#[tokio::test]
async fn every_copy_of_a_real_send_is_signed_and_verifies_and_a_tampered_body_does_not() {
    let dns = DnsServer::start(&["river.test"]).await;
    let (port, inbox) = start_sink().await;
    let resolver = dns.address.clone();
    let app = spawn_app_with(|s| {
        s.smtp_url = format!("smtp://127.0.0.1:{port}");
        s.dns_resolver = Some(resolver);
    })
    .await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let domain = add_domain(
        &app,
        &session,
        json!({ "domain": "River.test", "algorithm": "rsa" }),
    )
    .await;
    assert_eq!(domain["domain"], "river.test");
    assert_eq!(domain["selector"], "compass");
    assert_eq!(domain["dnsName"], "compass._domainkey.river.test");
    assert!(
        domain["dnsRecord"]
            .as_str()
            .unwrap()
            .starts_with("v=DKIM1; k=rsa; p=MII"),
        "{domain}"
    );
    publish(&dns, &domain).await;

    let (_, sender) = post(
        &app,
        &session,
        "/api/sender",
        json!({ "name": "Team River", "fromAddress": "team@river.test" }),
    )
    .await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let list_id: i64 = sqlx::query_scalar(
        "with l as (insert into crm_lists (name, kind) values ('Donors', 'upload') returning id),
              c as (insert into contacts (email, first_name, subscription)
                    values ('ann@example.org', 'Pat', 'subscribed'), ('bob@example.org', 'Pat', 'subscribed')
                    returning id)
         insert into crm_list_members (list_id, contact_id) select l.id, c.id from l, c returning list_id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let (status, mailing) = post(
        &app,
        &session,
        "/api/crm-mailing",
        json!({ "name": "June", "subjectLine": "Rivers need you", "senderId": sender["id"],
                "sendTime": (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339(), "listId": list_id,
                "bodyHtml": "<p>Dear {{First.Name}},</p>", "isDraft": false }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{mailing}");
    let mailing_id = mailing["id"].as_i64().unwrap();
    // Start the send now, as the scheduler does when its time comes.
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("update mailings set send_attempt = now(), delivery = 'sending' where id = $1")
        .bind(mailing_id)
        .execute(&mut *tx)
        .await
        .unwrap();
    queue
        .enqueue(tx, None, &jobs::JobKind::SendMailing { mailing_id })
        .await
        .unwrap();
    wait_until(
        "both copies delivered",
        std::time::Duration::from_secs(30),
        || {
            let inbox = inbox.clone();
            async move { (inbox.lock().unwrap().len() == 2).then_some(()) }
        },
    )
    .await;
    // The send finishes (no job is left running for another test's worker to take up).
    wait_until(
        "the mailing is done",
        std::time::Duration::from_secs(30),
        || {
            let (app, session) = (&app, &session);
            async move {
                let mailing = app
                    .get_json(&format!("/api/crm-mailing/{mailing_id}"), session)
                    .await;
                (mailing["delivery"] == "done").then_some(())
            }
        },
    )
    .await;

    let delivered = inbox.lock().unwrap().clone();
    for copy in &delivered {
        let raw = String::from_utf8_lossy(&copy.data).to_string();
        assert!(raw.starts_with("DKIM-Signature: "), "{raw}");
        let header = &raw[..raw.find("\r\nFrom:").unwrap_or(raw.len())].to_ascii_lowercase();
        for signed in [
            "list-unsubscribe",
            "list-unsubscribe-post",
            "message-id",
            "subject",
        ] {
            assert!(header.contains(signed), "{signed} not signed: {header}");
        }
        assert!(header.contains("c=relaxed/relaxed"), "{header}");
        assert_eq!(
            verify(&dns, &copy.data).await,
            vec![DkimResult::Pass],
            "{raw}"
        );
        let changed = tampered(&copy.data);
        assert_ne!(changed, copy.data);
        assert!(
            matches!(
                verify(&dns, &changed).await.as_slice(),
                [DkimResult::Neutral(_) | DkimResult::Fail(_)]
            ),
            "a tampered body must not verify"
        );
    }
}

#[tokio::test]
async fn send_to_my_inbox_is_signed_with_an_ed25519_key_too() {
    let dns = DnsServer::start(&["lake.test"]).await;
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let domain = add_domain(
        &app,
        &session,
        json!({ "domain": "lake.test", "algorithm": "ed25519", "selector": "s2026" }),
    )
    .await;
    assert_eq!(domain["dnsName"], "s2026._domainkey.lake.test");
    assert!(domain["dnsRecord"]
        .as_str()
        .unwrap()
        .starts_with("v=DKIM1; k=ed25519; p="));
    publish(&dns, &domain).await;
    let (_, sender) = post(
        &app,
        &session,
        "/api/sender",
        json!({ "name": "Lake", "fromAddress": "hello@lake.test" }),
    )
    .await;
    let response = app
        .api(Method::POST, "/api/crm-mailing/send-to-my-inbox", &session)
        .json(
            &json!({ "name": "N", "subjectLine": "Dear Pat", "senderId": sender["id"],
                       "bodyHtml": "<p>Dear Pat, the lake</p>" }),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let copy = inbox.lock().unwrap()[0].data.clone();
    assert!(String::from_utf8_lossy(&copy).contains("a=ed25519-sha256"));
    assert_eq!(verify(&dns, &copy).await, vec![DkimResult::Pass]);
    assert_ne!(verify(&dns, &tampered(&copy)).await, vec![DkimResult::Pass]);
}

#[tokio::test]
async fn the_private_key_is_sealed_and_no_operation_gives_it_back() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let created = add_domain(
        &app,
        &session,
        json!({ "domain": "keys.test", "algorithm": "ed25519", "bounceDomain": "bounces.keys.test" }),
    )
    .await;
    let listed = app.get_json("/api/sender-domains", &session).await;
    let id = created["id"].as_i64().unwrap();
    let check = app
        .get_json(&format!("/api/sender-domains/{id}/check"), &session)
        .await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let sealed: Vec<u8> =
        sqlx::query_scalar("select dkim_private_key from sender_domains where id = $1")
            .bind(id)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    tx.commit().await.unwrap();
    let keys = mail::dkim::KeyBox::from_hex(DKIM_KEY_SECRET).unwrap();
    let private = keys
        .open(&sealed, &mail::dkim::owner(client.id, "keys.test"))
        .expect("sealed for this client and domain");
    assert_eq!(private.len(), 32);
    assert!(keys
        .open(&sealed, &mail::dkim::owner(client.id + 1, "keys.test"))
        .is_err());
    // Neither the key nor its sealed form appears in any answer.
    let b64 = |bytes: &[u8]| {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(bytes)
    };
    for answer in [&created, &listed, &check] {
        let text = answer.to_string();
        assert!(!text.contains(&b64(&private)), "{text}");
        assert!(!text.contains(&b64(&sealed)), "{text}");
        assert!(!text.to_lowercase().contains("private"), "{text}");
    }
    assert_eq!(listed[0]["bounceDomain"], "bounces.keys.test");

    // Only the client's administrators see or change its sender domains.
    let member = app.create_user(false, &[&client]).await;
    let member = app.session_for(&member, &client).await;
    let response = app
        .api(Method::GET, "/api/sender-domains", &member)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    let (status, _) = post(
        &app,
        &member,
        "/api/sender-domains",
        json!({ "domain": "other.test", "algorithm": "rsa" }),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Another client does not see them.
    let other = app.session(&app.create_client().await).await;
    assert_eq!(app.get_json("/api/sender-domains", &other).await, json!([]));
    let response = app
        .api(Method::DELETE, &format!("/api/sender-domains/{id}"), &other)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);

    let (status, body) = post(
        &app,
        &session,
        "/api/sender-domains",
        json!({ "domain": "keys.test", "algorithm": "rsa" }),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (status, _) = post(
        &app,
        &session,
        "/api/sender-domains",
        json!({ "domain": "not a domain", "algorithm": "rsa" }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let response = app
        .api(
            Method::DELETE,
            &format!("/api/sender-domains/{id}"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        app.get_json("/api/sender-domains", &session).await,
        json!([])
    );
}

#[tokio::test]
async fn the_domain_check_reports_present_missing_and_misaligned_records() {
    let dns = DnsServer::start(&["good.test", "bare.test", "split.test"]).await;
    let resolver = dns.address.clone();
    let app = spawn_app_with(|s| s.dns_resolver = Some(resolver)).await;
    let session = app.session(&app.create_client().await).await;
    let good = add_domain(
        &app,
        &session,
        json!({ "domain": "good.test", "algorithm": "ed25519" }),
    )
    .await;
    let bare = add_domain(
        &app,
        &session,
        json!({ "domain": "bare.test", "algorithm": "ed25519" }),
    )
    .await;
    let split = add_domain(
        &app,
        &session,
        json!({ "domain": "split.test", "algorithm": "ed25519", "bounceDomain": "bounces.elsewhere.test" }),
    )
    .await;
    dns.txt("good.test", "v=spf1 ip4:192.0.2.1 -all").await;
    publish(&dns, &good).await;
    dns.txt(
        "_dmarc.good.test",
        "v=DMARC1; p=quarantine; rua=mailto:d@good.test",
    )
    .await;
    // split.test: an SPF record, but the envelope is another organisation's domain; the DKIM record carries the
    // key of another domain; DMARC asks for strict SPF alignment.
    dns.txt("split.test", "v=spf1 include:relay.example -all")
        .await;
    dns.txt(
        "compass._domainkey.split.test",
        good["dnsRecord"].as_str().unwrap(),
    )
    .await;
    dns.txt("_dmarc.split.test", "v=DMARC1; p=reject; aspf=s")
        .await;
    // Unrelated TXT records are not taken for SPF.
    dns.txt("bare.test", "google-site-verification=abc").await;

    let check = |d: &Value| format!("/api/sender-domains/{}/check", d["id"]);
    let ok = app.get_json(&check(&good), &session).await;
    assert_eq!(
        (
            &ok["spf"]["status"],
            &ok["dkim"]["status"],
            &ok["dmarc"]["status"]
        ),
        (&json!("ok"), &json!("ok"), &json!("ok")),
        "{ok}"
    );
    assert_eq!(ok["spf"]["found"], json!(["v=spf1 ip4:192.0.2.1 -all"]));
    assert_eq!(ok["dkim"]["name"], "compass._domainkey.good.test");
    assert_eq!(ok["dmarc"]["name"], "_dmarc.good.test");
    assert_eq!(ok["aligned"], true);
    assert_eq!(ok["advice"], json!([]), "{ok}");

    let none = app.get_json(&check(&bare), &session).await;
    assert_eq!(
        (
            &none["spf"]["status"],
            &none["dkim"]["status"],
            &none["dmarc"]["status"]
        ),
        (&json!("missing"), &json!("missing"), &json!("missing")),
        "{none}"
    );
    assert_eq!(none["aligned"], false);
    let advice = none["advice"].to_string();
    assert!(
        advice.contains("Publish an SPF record at bare.test"),
        "{advice}"
    );
    assert!(
        advice.contains(&format!(
            "compass._domainkey.bare.test TXT \\\"{}\\\"",
            bare["dnsRecord"].as_str().unwrap()
        )),
        "{advice}"
    );
    assert!(advice.contains("_dmarc.bare.test"), "{advice}");

    let off = app.get_json(&check(&split), &session).await;
    assert_eq!(
        (
            &off["spf"]["status"],
            &off["dkim"]["status"],
            &off["dmarc"]["status"]
        ),
        (&json!("ok"), &json!("wrong"), &json!("ok")),
        "{off}"
    );
    assert_eq!(off["aligned"], false);
    let advice = off["advice"].to_string();
    assert!(
        advice.contains("Replace the TXT record at compass._domainkey.split.test"),
        "{advice}"
    );
    assert!(advice.contains("bounces.elsewhere.test"), "{advice}");

    // Fixing the DKIM record fixes the alignment, at the next check.
    publish(&dns, &split).await;
    let fixed = app.get_json(&check(&split), &session).await;
    assert_eq!(fixed["dkim"]["status"], "ok", "{fixed}");
    assert_eq!(fixed["aligned"], true, "{fixed}");
}

#[tokio::test]
async fn the_warm_up_cap_grows_each_day_from_the_first_days_cap() {
    let app = spawn_app().await;
    let session = app.session(&app.create_client().await).await;
    let domain = add_domain(
        &app,
        &session,
        json!({ "domain": "new.test", "algorithm": "ed25519" }),
    )
    .await;
    assert_eq!(domain["warmupCapToday"], Value::Null);
    let path = format!("/api/sender-domains/{}/warmup", domain["id"]);
    let start = chrono::Utc::now().date_naive() - chrono::Duration::days(2);
    let response = app
        .api(Method::PUT, &path, &session)
        .json(&json!({ "start": start, "firstDayCap": 1000, "growthPercent": 50 }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let planned: Value = response.json().await.unwrap();
    assert_eq!(planned["warmupCapToday"], 2250, "{planned}");
    assert_eq!(planned["warmupFirstDayCap"], 1000);
    let listed = app.get_json("/api/sender-domains", &session).await;
    assert_eq!(listed[0]["warmupCapToday"], 2250);
    let mut tx = app.tenancy.begin(&session.client).await.unwrap();
    let cap = store::deliverability::sender_domains::cap_today(&mut tx, "new.test")
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(cap, Some(2250));

    let response = app
        .api(Method::PUT, &path, &session)
        .json(&json!({ "start": start, "growthPercent": 50 }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let response = app
        .api(Method::PUT, &path, &session)
        .json(&json!({ "start": null, "growthPercent": 50 }))
        .send()
        .await
        .unwrap();
    let cleared: Value = response.json().await.unwrap();
    assert_eq!(cleared["warmupCapToday"], Value::Null, "{cleared}");
}
