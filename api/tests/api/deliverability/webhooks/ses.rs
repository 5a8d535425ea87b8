//! SES through SNS: the signature checked against the pinned certificate, the subscription confirmed.

use super::*;

/// An SNS message of `kind` carrying `message`, published now, signed as SNS signs (version "1" SHA1withRSA, "2"
/// SHA256withRSA) with the test key.
pub(super) fn sns(kind: &str, topic: &str, message: &str, version: &str, tamper: bool) -> String {
    sns_at(kind, topic, message, version, tamper, chrono::Utc::now())
}

/// `sns` as published at `at`.
fn sns_at(
    kind: &str,
    topic: &str,
    message: &str,
    version: &str,
    tamper: bool,
    at: chrono::DateTime<chrono::Utc>,
) -> String {
    use rsa::pkcs8::DecodePrivateKey;
    use rsa::signature::{SignatureEncoding, Signer};
    let id = unique("sns-");
    // As SNS writes it: 2026-11-26T12:00:06.123Z.
    let timestamp = at.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
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
    // Rightly signed but published more than an hour ago (a captured message played again), or ahead of now:
    // refused, saying why.
    let minutes = chrono::Duration::minutes;
    for (at, why) in [
        (chrono::Utc::now() - minutes(61), "too old"),
        (chrono::Utc::now() + minutes(16), "in the future"),
    ] {
        let (status, body) = post(
            &app,
            "ses",
            &client,
            &sns_at("Notification", TOPIC, &bounce, "2", false, at),
            &hdr,
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert!(body["message"].as_str().unwrap().contains(why), "{body}");
    }
    assert_eq!(counts(&app, &client).await, (0, 0, 0));

    // SignatureVersion 1 (SHA1withRSA): a permanent bounce suppresses at once and marks the contact bounced. Sent
    // 59 minutes after SNS published it (a late retry): still taken.
    let signed = sns_at(
        "Notification",
        TOPIC,
        &bounce,
        "1",
        false,
        chrono::Utc::now() - minutes(59),
    );
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
