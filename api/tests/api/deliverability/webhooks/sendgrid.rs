//! SendGrid: ECDSA-signed batches.

use super::*;

pub(super) fn sendgrid_headers(
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

    let now = chrono::Utc::now().timestamp();
    // Signed over another timestamp than the one sent: refused, nothing kept.
    let (status, _) = post(
        &app,
        "sendgrid",
        &client,
        &body,
        &sendgrid_headers(&body, &now.to_string(), &(now + 1).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = post(&app, "sendgrid", &client, &body, &[]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // Rightly signed, but more than 15 minutes ago (a captured request played again) or ahead: refused.
    for at in [now - 16 * 60, now + 16 * 60] {
        let at = at.to_string();
        let (status, answer) = post(
            &app,
            "sendgrid",
            &client,
            &body,
            &sendgrid_headers(&body, &at, &at),
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert!(
            answer["message"]
                .as_str()
                .unwrap()
                .contains("more than 15 minutes from now"),
            "{answer}"
        );
    }
    assert_eq!(counts(&app, &client).await, (0, 0, 0));

    // Thirteen minutes late (SendGrid was slow) is still taken, and so is its retry below.
    let late = (now - 13 * 60).to_string();
    let headers = sendgrid_headers(&body, &late, &late);
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
