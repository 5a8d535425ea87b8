//! Mailgun: HMAC signatures, fresh and used once.

use super::*;

pub(super) fn mailgun(
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
