//! Hearing back by mail: every mailing copy from a domain with a bounce domain carries its own signed VERP
//! envelope sender, and the bounce listener turns the DSNs, feedback reports and plain bounces sent back to it
//! into events, suppressions and contact statuses.

use super::*;
use mail::verp::{BounceToken, VerpSigner};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const FROM_DOMAIN: &str = "campaign.example.org";
const BOUNCE_DOMAIN: &str = "bounce.campaign.example.org";

type Inbox = Arc<Mutex<Vec<mail::sink::Delivered>>>;

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

/// One sent mailing: its client, id, and each recipient's contact id and envelope sender, by address.
struct Sent {
    client: tenancy::Client,
    mailing_id: i64,
    copies: HashMap<String, (i64, String)>,
}

/// Contacts `emails` on a list, mailed by a sender at `from`, sent for real through the worker to a sink.
async fn send_mailing(
    app: &TestApp,
    inbox: &Inbox,
    client: &tenancy::Client,
    session: &Session,
    from: &str,
    emails: &[&str],
) -> Sent {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let ids: Vec<i64> = sqlx::query_scalar(
        "insert into contacts (email, first_name, subscription)
         select e, 'Friend', 'subscribed' from unnest($1::text[]) with ordinality x (e, n)
         order by n returning id",
    )
    .bind(emails)
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    let list: i64 =
        sqlx::query_scalar("insert into crm_lists (name, kind) values ($1, 'upload') returning id")
            .bind(format!("List {from}"))
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    sqlx::query(
        "insert into crm_list_members (list_id, contact_id) select $1, unnest($2::bigint[])",
    )
    .bind(list)
    .bind(&ids)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let sender = post(
        app,
        session,
        "/api/sender",
        json!({ "name": "Team", "fromAddress": from }),
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let mailing = post(
        app,
        session,
        "/api/crm-mailing",
        json!({ "name": format!("Appeal {from}"), "subjectLine": "Hello", "senderId": sender,
                "sendTime": (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339(),
                "listId": list, "bodyHtml": "<p>Hi</p>", "isDraft": false }),
    )
    .await;
    let mailing_id = mailing["id"].as_i64().unwrap();
    inbox.lock().unwrap().clear();
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let mut tx = app.tenancy.begin(client).await.unwrap();
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
        "the mailing is sent",
        std::time::Duration::from_secs(30),
        || async {
            let m = app
                .get_json(&format!("/api/crm-mailing/{mailing_id}"), session)
                .await;
            (m["delivery"] == "done").then_some(())
        },
    )
    .await;
    let copies = inbox
        .lock()
        .unwrap()
        .iter()
        .map(|m| {
            let to = m.recipients[0].clone();
            let at = emails.iter().position(|e| *e == to).unwrap();
            (to, (ids[at], m.sender.clone()))
        })
        .collect();
    Sent {
        client: client.clone(),
        mailing_id,
        copies,
    }
}

/// A client whose sender domain has a bounce domain, with its sink, worker and session.
async fn setup() -> (TestApp, Inbox, tenancy::Client, Session) {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("insert into sender_domains (domain, bounce_domain) values ($1, $2)")
        .bind(FROM_DOMAIN)
        .bind(BOUNCE_DOMAIN)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    (app, inbox, client, session)
}

/// The bounce listener on a free port, with the test workers' bounce key.
async fn start_listener(app: &TestApp) -> u16 {
    let socket = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = socket.local_addr().unwrap().port();
    tokio::spawn(::inbound::serve(
        socket,
        Arc::new(::inbound::Listener::new(
            app.tenancy.clone(),
            VerpSigner::new(TEST_BOUNCE_SECRET),
            ::inbound::Limits::default(),
            "bounces.test".into(),
        )),
    ));
    port
}

/// A plain SMTP session, as a remote server returning a bounce holds it.
struct Smtp {
    reader: BufReader<tokio::net::tcp::OwnedReadHalf>,
    writer: tokio::net::tcp::OwnedWriteHalf,
}

impl Smtp {
    async fn connect(port: u16) -> Self {
        let stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        let (read, writer) = stream.into_split();
        let mut smtp = Self {
            reader: BufReader::new(read),
            writer,
        };
        assert!(smtp.reply().await.starts_with("220"));
        assert!(smtp.command("EHLO mx.example.org").await.starts_with("250"));
        smtp
    }

    /// The reply's last line (multi-line replies have "-" after the code until it).
    async fn reply(&mut self) -> String {
        loop {
            let mut line = String::new();
            self.reader.read_line(&mut line).await.unwrap();
            if line.len() < 4 || line.as_bytes()[3] != b'-' {
                return line.trim_end().to_owned();
            }
        }
    }

    async fn command(&mut self, line: &str) -> String {
        self.writer
            .write_all(format!("{line}\r\n").as_bytes())
            .await
            .unwrap();
        self.reply().await
    }

    /// MAIL FROM:<> (bounces have a null sender), RCPT TO:<to>, DATA: the reply to the message.
    async fn send(&mut self, to: &str, message: &[u8]) -> String {
        assert!(self.command("MAIL FROM:<>").await.starts_with("250"));
        let rcpt = self.command(&format!("RCPT TO:<{to}>")).await;
        assert!(rcpt.starts_with("250"), "{rcpt}");
        assert!(self.command("DATA").await.starts_with("354"));
        let mut data = Vec::new();
        for line in message.split_inclusive(|&b| b == b'\n') {
            if line.starts_with(b".") {
                data.push(b'.');
            }
            data.extend_from_slice(line);
        }
        if !data.ends_with(b"\r\n") {
            data.extend_from_slice(b"\r\n");
        }
        data.extend_from_slice(b".\r\n");
        self.writer.write_all(&data).await.unwrap();
        self.reply().await
    }
}

fn fixture(name: &str, verp: &str, recipient: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/deliverability/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .unwrap()
        .replace("{{VERP}}", verp)
        .replace("{{RECIPIENT}}", recipient)
        .into_bytes()
}

/// The contact's events (source, kind, bounce type, status, diagnostic, mailing, evidence body), its active
/// suppression's reason and its subscription.
#[allow(clippy::type_complexity)]
async fn heard(
    app: &TestApp,
    client: &tenancy::Client,
    contact_id: i64,
) -> (
    Vec<(
        String,
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<i64>,
        Vec<u8>,
    )>,
    Option<String>,
    String,
) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let events = sqlx::query_as(
        "select e.source, e.kind, e.bounce_type, e.status_code, e.diagnostic, e.mailing_id, v.body
         from delivery_events e join delivery_evidence v on v.id = e.evidence_id
         where e.contact_id = $1 order by e.id",
    )
    .bind(contact_id)
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    let suppression = sqlx::query_scalar(
        "select s.reason from suppressions s join contacts c on c.email = s.email
         where c.id = $1 and s.lifted_at is null",
    )
    .bind(contact_id)
    .fetch_optional(&mut *tx)
    .await
    .unwrap();
    let subscription = sqlx::query_scalar("select subscription::text from contacts where id = $1")
        .bind(contact_id)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    (events, suppression, subscription)
}

#[tokio::test]
async fn issue_30_each_copy_gets_a_signed_verp_envelope_sender_when_its_domain_has_a_bounce_domain()
{
    let (app, inbox, client, session) = setup().await;
    let _worker = app.start_worker().await;
    let from = format!("team@{FROM_DOMAIN}");
    let sent = send_mailing(
        &app,
        &inbox,
        &client,
        &session,
        &from,
        &["ann@example.org", "bob@example.org"],
    )
    .await;
    assert_eq!(sent.copies.len(), 2);
    let signer = VerpSigner::new(TEST_BOUNCE_SECRET);
    for (contact_id, sender) in sent.copies.values() {
        let token = BounceToken {
            client_id: sent.client.id,
            mailing_id: sent.mailing_id,
            contact_id: *contact_id,
        };
        assert_eq!(sender, &signer.address(token, BOUNCE_DOMAIN));
        assert_eq!(signer.verify_address(sender), Some(token));
    }
    // A From domain without a bounce domain keeps the From address as its envelope sender.
    let plain = send_mailing(
        &app,
        &inbox,
        &client,
        &session,
        "team@example.net",
        &["cy@example.org"],
    )
    .await;
    assert_eq!(plain.copies["cy@example.org"].1, "team@example.net");
}

#[tokio::test]
async fn issue_30_bounce_messages_become_events_suppressions_and_contact_statuses() {
    let (app, inbox, client, session) = setup().await;
    let _worker = app.start_worker().await;
    let port = start_listener(&app).await;
    let emails = [
        "ann@example.org",
        "bob@example.org",
        "cy@example.org",
        "dee@example.org",
    ];
    let sent = send_mailing(
        &app,
        &inbox,
        &client,
        &session,
        &format!("team@{FROM_DOMAIN}"),
        &emails,
    )
    .await;
    let mut smtp = Smtp::connect(port).await;
    let mut messages = HashMap::new();
    for (email, name) in [
        ("ann@example.org", "dsn-hard-5.1.1.eml"),
        ("bob@example.org", "dsn-soft-4.2.2.eml"),
        ("cy@example.org", "arf-abuse.eml"),
        ("dee@example.org", "exim-bounce.eml"),
    ] {
        let verp = &sent.copies[email].1;
        let message = fixture(name, verp, email);
        let reply = smtp.send(verp, &message).await;
        assert!(reply.starts_with("250"), "{name}: {reply}");
        messages.insert(email, message);
    }
    let id = |email: &str| sent.copies[email].0;
    let m = Some(sent.mailing_id);
    let s = |v: &str| Some(v.to_owned());

    let (events, suppression, subscription) = heard(&app, &client, id("ann@example.org")).await;
    assert_eq!(events.len(), 1, "{events:?}");
    let e = &events[0];
    assert_eq!(
        (&e.0[..], &e.1[..], &e.2, &e.3, e.5),
        ("dsn", "bounced", &s("hard"), &s("5.1.1"), m)
    );
    assert!(
        e.4.as_deref()
            .unwrap()
            .contains("User unknown in virtual mailbox table"),
        "{:?}",
        e.4
    );
    assert_eq!(
        e.6, messages["ann@example.org"],
        "the raw message is kept as evidence"
    );
    assert_eq!(
        (suppression.as_deref(), &subscription[..]),
        (Some("hard_bounce"), "bounced")
    );

    let (events, suppression, subscription) = heard(&app, &client, id("bob@example.org")).await;
    assert_eq!(events.len(), 1, "{events:?}");
    let e = &events[0];
    assert_eq!(
        (&e.0[..], &e.1[..], &e.2, &e.3, e.5),
        ("dsn", "bounced", &s("soft"), &s("4.2.2"), m)
    );
    assert!(
        e.4.as_deref()
            .unwrap()
            .starts_with("452 4.2.2 The email account"),
        "{:?}",
        e.4
    );
    assert_eq!(
        (suppression, &subscription[..]),
        (None, "subscribed"),
        "one soft bounce is under the limit of 3"
    );

    let (events, suppression, subscription) = heard(&app, &client, id("cy@example.org")).await;
    assert_eq!(events.len(), 1, "{events:?}");
    let e = &events[0];
    assert_eq!(
        (&e.0[..], &e.1[..], &e.2, e.5),
        ("arf", "complained", &None, m)
    );
    assert_eq!(
        e.4.as_deref(),
        Some("Feedback-Type: abuse (ExampleFBL/1.0)")
    );
    assert_eq!(
        (suppression.as_deref(), &subscription[..]),
        (Some("complaint"), "unsubscribed")
    );

    let (events, suppression, subscription) = heard(&app, &client, id("dee@example.org")).await;
    assert_eq!(events.len(), 1, "{events:?}");
    let e = &events[0];
    assert_eq!(
        (&e.0[..], &e.1[..], &e.2, &e.3, e.5),
        ("dsn", "bounced", &s("hard"), &s("5.1.1"), m)
    );
    assert!(
        e.4.as_deref().unwrap().contains("No such user here"),
        "{:?}",
        e.4
    );
    assert_eq!(
        (suppression.as_deref(), &subscription[..]),
        (Some("hard_bounce"), "bounced")
    );

    // The same DSN delivered again is kept as evidence but is the same event: nothing changes.
    let verp = &sent.copies["ann@example.org"].1;
    let reply = smtp.send(verp, &messages["ann@example.org"]).await;
    assert!(reply.starts_with("250"), "{reply}");
    let (events, _, _) = heard(&app, &client, id("ann@example.org")).await;
    assert_eq!(events.len(), 1, "{events:?}");
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let (evidence, stored): (i64, i64) = sqlx::query_as(
        "select (select count(*) from delivery_evidence), (select count(*) from delivery_events)",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!((evidence, stored), (5, 4));
    assert_eq!(smtp.command("QUIT").await, "221 2.0.0 Bye");
}

#[tokio::test]
async fn issue_30_forged_or_altered_bounce_addresses_are_refused_before_data() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let port = start_listener(&app).await;
    let signer = VerpSigner::new(TEST_BOUNCE_SECRET);
    let token = BounceToken {
        client_id: client.id,
        mailing_id: 1,
        contact_id: 2,
    };
    let good = signer.address(token, BOUNCE_DOMAIN);
    let altered = good.replace(".c2.", ".c3.");
    let other_key = VerpSigner::new("someone-elses-key").address(token, BOUNCE_DOMAIN);
    let no_client = signer.address(
        BounceToken {
            client_id: client.id + 100_000,
            ..token
        },
        BOUNCE_DOMAIN,
    );
    let mut smtp = Smtp::connect(port).await;
    assert!(smtp.command("MAIL FROM:<>").await.starts_with("250"));
    for forged in [
        &altered,
        &other_key,
        &no_client,
        &format!("postmaster@{BOUNCE_DOMAIN}"),
    ] {
        let reply = smtp.command(&format!("RCPT TO:<{forged}>")).await;
        assert!(reply.starts_with("550"), "{forged}: {reply}");
    }
    assert!(
        smtp.command("DATA").await.starts_with("554"),
        "no data without a valid recipient"
    );
    // Case changed on the way is still the same address.
    let reply = smtp
        .command(&format!("RCPT TO:<{}>", good.to_uppercase()))
        .await;
    assert!(reply.starts_with("250"), "{reply}");
    assert!(smtp.command("RSET").await.starts_with("250"));
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let evidence: i64 = sqlx::query_scalar("select count(*) from delivery_evidence")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(evidence, 0);
}

#[tokio::test]
async fn issue_30_bounces_arriving_at_once_are_each_stored_once() {
    let (app, inbox, client, session) = setup().await;
    let _worker = app.start_worker().await;
    let port = start_listener(&app).await;
    let emails: Vec<String> = (0..30).map(|i| format!("p{i}@example.org")).collect();
    let refs: Vec<&str> = emails.iter().map(String::as_str).collect();
    let sent = send_mailing(
        &app,
        &inbox,
        &client,
        &session,
        &format!("team@{FROM_DOMAIN}"),
        &refs,
    )
    .await;
    let sent = Arc::new(sent);
    // Every bounce twice, from 30 servers at once: the listener commits what gathers together.
    for _ in 0..2 {
        let mut sessions = tokio::task::JoinSet::new();
        for email in emails.clone() {
            let sent = sent.clone();
            sessions.spawn(async move {
                let verp = sent.copies[&email].1.clone();
                let mut smtp = Smtp::connect(port).await;
                smtp.send(&verp, &fixture("dsn-hard-5.1.1.eml", &verp, &email))
                    .await
            });
        }
        while let Some(reply) = sessions.join_next().await {
            let reply = reply.unwrap();
            assert!(reply.starts_with("250"), "{reply}");
        }
    }
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let counts: (i64, i64, i64, i64) = sqlx::query_as(
        "select (select count(*) from delivery_evidence),
                (select count(*) from delivery_events where kind = 'bounced' and bounce_type = 'hard'),
                (select count(distinct contact_id) from delivery_events),
                (select count(*) from suppressions where reason = 'hard_bounce' and lifted_at is null)",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(counts, (60, 30, 30, 30));
}
