//! Relays' delivery webhooks (SES via SNS, SendGrid, Postmark, Mailgun) with their documented payloads: each
//! produces the right events, suppressions and contact statuses; a bad signature or credential is refused 401 and
//! stores nothing; an event delivered again changes nothing; one client's credentials do not open another's.

use crate::helpers::*;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tenancy::Client;

const TOPIC: &str = "arn:aws:sns:us-east-1:123456789012:ses-feedback";
const POSTMARK_USER: &str = "postmark";
const POSTMARK_PASSWORD: &str = "postmark-hook-secret";
const MAILGUN_KEY: &str = "key-3ax6xnjp29jd6fds4gc373sgvjxteol0";

fn fixture_path(name: &str) -> String {
    format!(
        "{}/tests/fixtures/deliverability/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A fixture with its `{{PLACEHOLDERS}}` filled in.
fn fixture(name: &str, fill: &[(&str, &str)]) -> String {
    let mut text = std::fs::read_to_string(fixture_path(name)).unwrap();
    for (k, v) in fill {
        text = text.replace(&format!("{{{{{k}}}}}"), v);
    }
    text
}

async fn pinned_app() -> TestApp {
    spawn_app_with(|s| s.ses_sns_cert_pem = Some(fixture_path("sns-test-cert.pem").into())).await
}

/// A client with an administrator, a mailing and contacts `emails`; answers the contacts' ids in order.
async fn client_with(app: &TestApp, emails: &[&str]) -> (Client, Session, i64, Vec<i64>) {
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let origin: i64 =
        sqlx::query_scalar("insert into origin_codes (name) values ('web') returning id")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    let mut contacts = Vec::new();
    for email in emails {
        let id: i64 = sqlx::query_scalar(
            "insert into contacts (email, origin_code_id) values ($1, $2) returning id",
        )
        .bind(*email)
        .bind(origin)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        contacts.push(id);
    }
    let mailing: i64 = sqlx::query_scalar(
        "insert into mailings (name, subject_line) values ('Giving day', 'Give') returning id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    (client, session, mailing, contacts)
}

fn message_id(mailing: i64, contact: i64, client: &Client) -> String {
    format!("<m{mailing}.c{contact}.k{}@example.org>", client.id)
}

async fn configure(app: &TestApp, session: &Session, provider: &str, body: Value) -> Value {
    let response = app
        .api(
            Method::PATCH,
            &format!("/api/delivery-webhooks/{provider}"),
            session,
        )
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let v: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

/// Posts a webhook body; answers the status and the JSON answer.
async fn post(
    app: &TestApp,
    provider: &str,
    client: &Client,
    body: &str,
    headers: &[(&str, String)],
) -> (StatusCode, Value) {
    let mut request = app
        .request(
            Method::POST,
            &format!("/api/webhooks/delivery/{provider}/{}", client.short_name),
        )
        .header("content-type", "application/json")
        .body(body.to_owned());
    for (k, v) in headers {
        request = request.header(*k, v);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[derive(Debug, PartialEq, sqlx::FromRow)]
struct Event {
    kind: String,
    bounce_type: Option<String>,
    status_code: Option<String>,
    email: String,
    mailing_id: Option<i64>,
    contact_id: Option<i64>,
    has_evidence: bool,
}

async fn events(app: &TestApp, client: &Client) -> Vec<Event> {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query_as(
        "select kind, bounce_type, status_code, email, mailing_id, contact_id, evidence_id is not null as has_evidence
         from delivery_events order by kind, id",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap()
}

fn event(
    kind: &str,
    bounce: Option<&str>,
    status: Option<&str>,
    email: &str,
    tied: Option<(i64, i64)>,
) -> Event {
    Event {
        kind: kind.into(),
        bounce_type: bounce.map(Into::into),
        status_code: status.map(Into::into),
        email: email.into(),
        mailing_id: tied.map(|t| t.0),
        contact_id: tied.map(|t| t.1),
        has_evidence: true,
    }
}

/// (rows of delivery_events, rows of delivery_evidence, active suppressions).
async fn counts(app: &TestApp, client: &Client) -> (i64, i64, i64) {
    (
        app.scalar_in(client, "select count(*) from delivery_events")
            .await,
        app.scalar_in(client, "select count(*) from delivery_evidence")
            .await,
        app.scalar_in(
            client,
            "select count(*) from suppressions where lifted_at is null",
        )
        .await,
    )
}

/// (reason of the active suppression, the contact's subscription).
async fn standing(app: &TestApp, client: &Client, email: &str) -> (Option<String>, String) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let reason: Option<String> = sqlx::query_scalar(
        "select reason from suppressions where email = $1 and lifted_at is null",
    )
    .bind(email)
    .fetch_optional(&mut *tx)
    .await
    .unwrap();
    let subscription: String =
        sqlx::query_scalar("select subscription from contacts where email = $1")
            .bind(email)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    (reason, subscription)
}

// ---- SNS ----

/// An SNS message of `kind` carrying `message`, signed as SNS signs (version "1" SHA1withRSA, "2" SHA256withRSA)
/// with the test key.
fn sns(kind: &str, topic: &str, message: &str, version: &str, tamper: bool) -> String {
    use rsa::pkcs8::DecodePrivateKey;
    use rsa::signature::{SignatureEncoding, Signer};
    let id = unique("sns-");
    let timestamp = "2026-11-26T12:00:06.123Z";
    let subscribe =
        format!("https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn={topic}&Token=2336412f37");
    let canonical = match kind {
        "Notification" => format!(
            "Message\n{message}\nMessageId\n{id}\nTimestamp\n{timestamp}\nTopicArn\n{topic}\nType\n{kind}\n"
        ),
        _ => format!(
            "Message\n{message}\nMessageId\n{id}\nSubscribeURL\n{subscribe}\nTimestamp\n{timestamp}\nToken\n2336412f37\nTopicArn\n{topic}\nType\n{kind}\n"
        ),
    };
    let key = rsa::RsaPrivateKey::from_pkcs8_pem(
        &std::fs::read_to_string(fixture_path("sns-test-key.pem")).unwrap(),
    )
    .unwrap();
    let signature = match version {
        "1" => rsa::pkcs1v15::SigningKey::<sha1::Sha1>::new(key)
            .sign(canonical.as_bytes())
            .to_vec(),
        _ => rsa::pkcs1v15::SigningKey::<sha2::Sha256>::new(key)
            .sign(canonical.as_bytes())
            .to_vec(),
    };
    let mut envelope = json!({
        "Type": kind,
        "MessageId": id,
        "TopicArn": topic,
        "Message": if tamper { message.replace("Permanent", "Transient") } else { message.to_owned() },
        "Timestamp": timestamp,
        "SignatureVersion": version,
        "Signature": STANDARD.encode(signature),
        "SigningCertURL": "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0000000000000000000000.pem",
        "UnsubscribeURL": "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=x"
    });
    if kind != "Notification" {
        envelope["SubscribeURL"] = json!(subscribe);
        envelope["Token"] = json!("2336412f37");
    }
    envelope.to_string()
}

#[tokio::test]
async fn ses_bounces_and_complaints_suppress_once_and_forged_or_foreign_messages_are_refused() {
    let app = pinned_app().await;
    let (client, session, mailing, contacts) =
        client_with(&app, &["gone@example.net", "angry@example.net"]).await;
    let settings = configure(
        &app,
        &session,
        "ses",
        json!({ "sesTopicArns": [TOPIC], "enabled": true }),
    )
    .await;
    let ses = &settings["providers"][0];
    assert_eq!(ses["provider"], "ses");
    assert_eq!(ses["enabled"], true);
    assert_eq!(
        ses["path"],
        format!("/api/webhooks/delivery/ses/{}", client.short_name)
    );
    let hdr = [("content-type", "text/plain; charset=UTF-8".to_owned())];

    let bounce = fixture(
        "ses-bounce.json",
        &[
            ("EMAIL", "gone@example.net"),
            ("MESSAGE_ID", &message_id(mailing, contacts[0], &client)),
        ],
    );
    // A message changed after SNS signed it, or signed for a topic the client does not accept: 401, nothing kept.
    let (status, _) = post(
        &app,
        "ses",
        &client,
        &sns("Notification", TOPIC, &bounce, "1", true),
        &hdr,
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let other_topic = "arn:aws:sns:us-east-1:123456789012:someone-else";
    let (status, _) = post(
        &app,
        "ses",
        &client,
        &sns("Notification", other_topic, &bounce, "1", false),
        &hdr,
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(counts(&app, &client).await, (0, 0, 0));

    // SignatureVersion 1 (SHA1withRSA): a permanent bounce suppresses at once and marks the contact bounced.
    let signed = sns("Notification", TOPIC, &bounce, "1", false);
    let (status, body) = post(&app, "ses", &client, &signed, &hdr).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({ "stored": 1, "suppressed": 1 }));
    assert_eq!(
        standing(&app, &client, "gone@example.net").await,
        (Some("hard_bounce".into()), "bounced".into())
    );

    // SignatureVersion 2 (SHA256withRSA): a complaint suppresses and unsubscribes. Its Message-ID names another
    // client (k), so it is tied to no mailing here.
    let foreign_id = format!(
        "<m{mailing}.c{}.k{}@example.org>",
        contacts[1],
        client.id + 1_000_000
    );
    let complaint = fixture(
        "ses-complaint.json",
        &[("EMAIL", "Angry@Example.net"), ("MESSAGE_ID", &foreign_id)],
    );
    let (status, body) = post(
        &app,
        "ses",
        &client,
        &sns("Notification", TOPIC, &complaint, "2", false),
        &hdr,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({ "stored": 1, "suppressed": 1 }));
    assert_eq!(
        standing(&app, &client, "angry@example.net").await,
        (Some("complaint".into()), "unsubscribed".into())
    );
    assert_eq!(
        events(&app, &client).await,
        vec![
            event(
                "bounced",
                Some("hard"),
                Some("5.1.1"),
                "gone@example.net",
                Some((mailing, contacts[0]))
            ),
            Event {
                contact_id: Some(contacts[1]),
                ..event("complained", None, None, "angry@example.net", None)
            },
        ]
    );

    // SNS delivering the same bounce again (a new SNS message id, the same SES feedback): nothing changes.
    let before = counts(&app, &client).await;
    let (status, body) = post(
        &app,
        "ses",
        &client,
        &sns("Notification", TOPIC, &bounce, "2", false),
        &hdr,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({ "stored": 0, "suppressed": 0 }));
    assert_eq!(counts(&app, &client).await, before);
    assert_eq!(before, (2, 2, 2));

    // A subscription confirmation is kept for the System page; with pinned certificates nothing is fetched.
    let (status, _) = post(
        &app,
        "ses",
        &client,
        &sns(
            "SubscriptionConfirmation",
            TOPIC,
            "You have chosen to subscribe",
            "1",
            false,
        ),
        &hdr,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let settings = app.get_json("/api/delivery-webhooks", &session).await;
    assert_eq!(settings["sesCertificatesPinned"], true);
    let subscription = &settings["sesSubscriptions"][0];
    assert_eq!(subscription["topicArn"], TOPIC);
    assert!(subscription["subscribeUrl"]
        .as_str()
        .unwrap()
        .starts_with("https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription"));
    assert_eq!(subscription["confirmedAt"], Value::Null);
}

// ---- SendGrid ----

fn sendgrid_headers(
    body: &str,
    timestamp: &str,
    signed_timestamp: &str,
) -> Vec<(&'static str, String)> {
    use p256::ecdsa::signature::Signer;
    use p256::pkcs8::DecodePrivateKey;
    let key = p256::ecdsa::SigningKey::from_pkcs8_pem(
        &std::fs::read_to_string(fixture_path("sendgrid-test-key.pem")).unwrap(),
    )
    .unwrap();
    let signature: p256::ecdsa::Signature =
        key.sign(format!("{signed_timestamp}{body}").as_bytes());
    vec![
        (
            "X-Twilio-Email-Event-Webhook-Signature",
            STANDARD.encode(signature.to_der().as_bytes()),
        ),
        (
            "X-Twilio-Email-Event-Webhook-Timestamp",
            timestamp.to_owned(),
        ),
    ]
}

#[tokio::test]
async fn a_signed_sendgrid_batch_records_each_event_once_and_a_bad_signature_stores_nothing() {
    let app = spawn_app().await;
    let emails = [
        "bounce@example.net",
        "later@example.net",
        "spam@example.net",
        "ok@example.net",
    ];
    let (client, session, mailing, contacts) = client_with(&app, &emails).await;
    let public_key = std::fs::read_to_string(fixture_path("sendgrid-test-public-key.txt")).unwrap();
    configure(
        &app,
        &session,
        "sendgrid",
        json!({ "sendgridPublicKey": public_key, "enabled": true }),
    )
    .await;
    let body = fixture(
        "sendgrid-events.json",
        &[
            ("BOUNCE_EMAIL", emails[0]),
            ("DEFERRED_EMAIL", emails[1]),
            ("SPAM_EMAIL", emails[2]),
            ("DELIVERED_EMAIL", emails[3]),
            ("MESSAGE_ID", &message_id(mailing, contacts[0], &client)),
        ],
    );

    // Signed over another timestamp than the one sent: refused, nothing kept.
    let (status, _) = post(
        &app,
        "sendgrid",
        &client,
        &body,
        &sendgrid_headers(&body, "1795694410", "1795694411"),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = post(&app, "sendgrid", &client, &body, &[]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(counts(&app, &client).await, (0, 0, 0));

    let headers = sendgrid_headers(&body, "1795694410", "1795694410");
    let (status, answer) = post(&app, "sendgrid", &client, &body, &headers).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // bounce, deferred, spamreport and delivered; the open is not a delivery event.
    assert_eq!(answer, json!({ "stored": 4, "suppressed": 2 }));
    assert_eq!(
        events(&app, &client).await,
        vec![
            event(
                "bounced",
                Some("hard"),
                Some("5.1.1"),
                emails[0],
                Some((mailing, contacts[0]))
            ),
            Event {
                contact_id: Some(contacts[2]),
                ..event("complained", None, None, emails[2], None)
            },
            Event {
                contact_id: Some(contacts[1]),
                ..event("deferred", None, None, emails[1], None)
            },
            Event {
                contact_id: Some(contacts[3]),
                ..event("delivered", None, None, emails[3], None)
            },
        ]
    );
    assert_eq!(
        standing(&app, &client, emails[0]).await,
        (Some("hard_bounce".into()), "bounced".into())
    );
    assert_eq!(
        standing(&app, &client, emails[1]).await,
        (None, "subscribed".into())
    );
    assert_eq!(
        standing(&app, &client, emails[2]).await,
        (Some("complaint".into()), "unsubscribed".into())
    );

    // SendGrid retrying the batch changes nothing.
    let (status, answer) = post(&app, "sendgrid", &client, &body, &headers).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer, json!({ "stored": 0, "suppressed": 0 }));
    assert_eq!(counts(&app, &client).await, (4, 1, 2));
}

// ---- Postmark ----

fn basic(user: &str, password: &str) -> String {
    format!("Basic {}", STANDARD.encode(format!("{user}:{password}")))
}

#[tokio::test]
async fn postmark_bounces_and_complaints_need_its_credentials_and_count_once() {
    let app = spawn_app().await;
    let (client, session, mailing, contacts) =
        client_with(&app, &["hard@example.net", "spam@example.net"]).await;
    let settings = configure(
        &app,
        &session,
        "postmark",
        json!({ "postmarkUsername": POSTMARK_USER, "postmarkPassword": POSTMARK_PASSWORD, "enabled": true }),
    )
    .await;
    // The password is never sent back, only that it is set.
    assert!(!settings.to_string().contains(POSTMARK_PASSWORD));
    assert_eq!(settings["providers"][2]["postmarkPasswordSet"], true);
    assert_eq!(settings["providers"][2]["postmarkUsername"], POSTMARK_USER);

    let bounce = fixture(
        "postmark-bounce.json",
        &[
            ("EMAIL", "hard@example.net"),
            ("MESSAGE_ID", &message_id(mailing, contacts[0], &client)),
        ],
    );
    let wrong = [("authorization", basic(POSTMARK_USER, "not-the-password"))];
    let (status, _) = post(&app, "postmark", &client, &bounce, &wrong).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = post(&app, "postmark", &client, &bounce, &[]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(counts(&app, &client).await, (0, 0, 0));

    let right = [("authorization", basic(POSTMARK_USER, POSTMARK_PASSWORD))];
    let (status, answer) = post(&app, "postmark", &client, &bounce, &right).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer, json!({ "stored": 1, "suppressed": 1 }));
    let complaint = fixture(
        "postmark-spam-complaint.json",
        &[("EMAIL", "spam@example.net")],
    );
    let (status, answer) = post(&app, "postmark", &client, &complaint, &right).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer, json!({ "stored": 1, "suppressed": 1 }));
    assert_eq!(
        events(&app, &client).await,
        vec![
            event(
                "bounced",
                Some("hard"),
                Some("5.1.1"),
                "hard@example.net",
                Some((mailing, contacts[0]))
            ),
            Event {
                contact_id: Some(contacts[1]),
                ..event("complained", None, None, "spam@example.net", None)
            },
        ]
    );
    assert_eq!(
        standing(&app, &client, "hard@example.net").await,
        (Some("hard_bounce".into()), "bounced".into())
    );
    assert_eq!(
        standing(&app, &client, "spam@example.net").await,
        (Some("complaint".into()), "unsubscribed".into())
    );

    let (status, answer) = post(&app, "postmark", &client, &bounce, &right).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer, json!({ "stored": 0, "suppressed": 0 }));
    assert_eq!(counts(&app, &client).await, (2, 2, 2));
}

// ---- Mailgun ----

fn mailgun(
    name: &str,
    email: &str,
    message_id: &str,
    timestamp: i64,
    token: &str,
    key: &str,
) -> String {
    use hmac::{Hmac, Mac};
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(key.as_bytes()).unwrap();
    mac.update(format!("{timestamp}{token}").as_bytes());
    let signature = hex::encode(mac.finalize().into_bytes());
    fixture(
        name,
        &[
            ("TIMESTAMP", &timestamp.to_string()),
            ("TOKEN", token),
            ("SIGNATURE", &signature),
            ("EMAIL", email),
            (
                "MESSAGE_ID_BARE",
                message_id.trim_start_matches('<').trim_end_matches('>'),
            ),
        ],
    )
}

#[tokio::test]
async fn mailgun_events_need_a_fresh_unused_signature_and_count_once() {
    let app = spawn_app().await;
    let (client, session, mailing, contacts) =
        client_with(&app, &["failed@example.net", "spam@example.net"]).await;
    let settings = configure(
        &app,
        &session,
        "mailgun",
        json!({ "mailgunSigningKey": MAILGUN_KEY, "enabled": true }),
    )
    .await;
    assert!(!settings.to_string().contains(MAILGUN_KEY));
    assert_eq!(settings["providers"][3]["mailgunSigningKeySet"], true);
    let now = chrono::Utc::now().timestamp();
    let ours = message_id(mailing, contacts[0], &client);

    // Signed with another key, or too long ago: refused, nothing kept.
    let forged = mailgun(
        "mailgun-failed-permanent.json",
        "failed@example.net",
        &ours,
        now,
        "t1",
        "key-wrong",
    );
    assert_eq!(
        post(&app, "mailgun", &client, &forged, &[]).await.0,
        StatusCode::UNAUTHORIZED
    );
    let stale = mailgun(
        "mailgun-failed-permanent.json",
        "failed@example.net",
        &ours,
        now - 16 * 60,
        "t2",
        MAILGUN_KEY,
    );
    assert_eq!(
        post(&app, "mailgun", &client, &stale, &[]).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(counts(&app, &client).await, (0, 0, 0));

    let failed = mailgun(
        "mailgun-failed-permanent.json",
        "failed@example.net",
        &ours,
        now,
        "t3",
        MAILGUN_KEY,
    );
    let (status, answer) = post(&app, "mailgun", &client, &failed, &[]).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer, json!({ "stored": 1, "suppressed": 1 }));
    // Mailgun retrying the same event with the same signature: taken, nothing changes.
    let (status, answer) = post(&app, "mailgun", &client, &failed, &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer, json!({ "stored": 0, "suppressed": 0 }));
    // The same token signing another event is a replay.
    let replay = mailgun(
        "mailgun-complained.json",
        "spam@example.net",
        "",
        now,
        "t3",
        MAILGUN_KEY,
    );
    assert_eq!(
        post(&app, "mailgun", &client, &replay, &[]).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(counts(&app, &client).await, (1, 1, 1));

    let complained = mailgun(
        "mailgun-complained.json",
        "spam@example.net",
        "",
        now,
        "t4",
        MAILGUN_KEY,
    );
    let (status, answer) = post(&app, "mailgun", &client, &complained, &[]).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        events(&app, &client).await,
        vec![
            event(
                "bounced",
                Some("hard"),
                Some("5.1.1"),
                "failed@example.net",
                Some((mailing, contacts[0]))
            ),
            Event {
                contact_id: Some(contacts[1]),
                ..event("complained", None, None, "spam@example.net", None)
            },
        ]
    );
    assert_eq!(
        standing(&app, &client, "failed@example.net").await,
        (Some("hard_bounce".into()), "bounced".into())
    );
    assert_eq!(
        standing(&app, &client, "spam@example.net").await,
        (Some("complaint".into()), "unsubscribed".into())
    );
}

// ---- Tenancy ----

type Headers = Vec<(&'static str, String)>;

#[tokio::test]
async fn one_clients_credentials_sent_to_another_clients_address_are_refused() {
    let app = pinned_app().await;
    let (ours, our_session, _, _) = client_with(&app, &["a@example.net"]).await;
    let (theirs, their_session, _, _) = client_with(&app, &["a@example.net"]).await;
    let public_key = std::fs::read_to_string(fixture_path("sendgrid-test-public-key.txt")).unwrap();
    configure(
        &app,
        &our_session,
        "sendgrid",
        json!({ "sendgridPublicKey": public_key, "enabled": true }),
    )
    .await;
    configure(&app, &our_session, "postmark", json!({ "postmarkUsername": POSTMARK_USER, "postmarkPassword": POSTMARK_PASSWORD, "enabled": true })).await;
    configure(
        &app,
        &our_session,
        "mailgun",
        json!({ "mailgunSigningKey": MAILGUN_KEY, "enabled": true }),
    )
    .await;
    configure(
        &app,
        &our_session,
        "ses",
        json!({ "sesTopicArns": [TOPIC], "enabled": true }),
    )
    .await;
    // The other client has its own Postmark and Mailgun secrets, and has not turned on SendGrid or SES.
    configure(&app, &their_session, "postmark", json!({ "postmarkUsername": POSTMARK_USER, "postmarkPassword": "their-own-long-secret", "enabled": true })).await;
    configure(
        &app,
        &their_session,
        "mailgun",
        json!({ "mailgunSigningKey": "key-their-own", "enabled": true }),
    )
    .await;

    let sendgrid = fixture(
        "sendgrid-events.json",
        &[
            ("BOUNCE_EMAIL", "a@example.net"),
            ("DEFERRED_EMAIL", "a@example.net"),
            ("SPAM_EMAIL", "a@example.net"),
            ("DELIVERED_EMAIL", "a@example.net"),
            ("MESSAGE_ID", "<x@example.org>"),
        ],
    );
    let now = chrono::Utc::now().timestamp();
    let tries: Vec<(&str, String, Headers)> = vec![
        (
            "sendgrid",
            sendgrid.clone(),
            sendgrid_headers(&sendgrid, "1795694410", "1795694410"),
        ),
        (
            "postmark",
            fixture(
                "postmark-spam-complaint.json",
                &[("EMAIL", "a@example.net")],
            ),
            vec![("authorization", basic(POSTMARK_USER, POSTMARK_PASSWORD))],
        ),
        (
            "mailgun",
            mailgun(
                "mailgun-complained.json",
                "a@example.net",
                "",
                now,
                "x1",
                MAILGUN_KEY,
            ),
            vec![],
        ),
        (
            "ses",
            sns(
                "Notification",
                TOPIC,
                &fixture(
                    "ses-complaint.json",
                    &[
                        ("EMAIL", "a@example.net"),
                        ("MESSAGE_ID", "<x@example.org>"),
                    ],
                ),
                "2",
                false,
            ),
            vec![],
        ),
    ];
    for (provider, body, headers) in &tries {
        let (status, answer) = post(&app, provider, &theirs, body, headers).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{provider}: {answer}");
    }
    assert_eq!(counts(&app, &theirs).await, (0, 0, 0));
    // The same requests at our own address are taken.
    for (provider, body, headers) in &tries {
        let (status, answer) = post(&app, provider, &ours, body, headers).await;
        assert_eq!(status, StatusCode::OK, "{provider}: {answer}");
    }
    // An unknown client is refused like a wrong credential.
    let (status, _) = app
        .request(Method::POST, "/api/webhooks/delivery/mailgun/nosuchclient")
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .map(|r| (r.status(), ()))
        .unwrap();
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_webhook_is_off_until_its_credentials_are_set_and_it_is_turned_on() {
    let app = spawn_app().await;
    let (client, session, _, _) = client_with(&app, &["a@example.net"]).await;
    let response = app
        .api(Method::PATCH, "/api/delivery-webhooks/mailgun", &session)
        .json(&json!({ "enabled": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let response = app
        .api(Method::PATCH, "/api/delivery-webhooks/sendgrid", &session)
        .json(&json!({ "sendgridPublicKey": "not a key" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    // Set but not turned on: refused.
    configure(
        &app,
        &session,
        "mailgun",
        json!({ "mailgunSigningKey": MAILGUN_KEY }),
    )
    .await;
    let now = chrono::Utc::now().timestamp();
    let body = mailgun(
        "mailgun-complained.json",
        "a@example.net",
        "",
        now,
        "o1",
        MAILGUN_KEY,
    );
    assert_eq!(
        post(&app, "mailgun", &client, &body, &[]).await.0,
        StatusCode::UNAUTHORIZED
    );
    let settings = app.get_json("/api/delivery-webhooks", &session).await;
    let providers: Vec<&str> = settings["providers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["provider"].as_str().unwrap())
        .collect();
    assert_eq!(providers, ["ses", "sendgrid", "postmark", "mailgun"]);
    assert_eq!(settings["providers"][3]["enabled"], false);
    assert_eq!(settings["sesCertificatesPinned"], false);
}
