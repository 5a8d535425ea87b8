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

#[tokio::test]
async fn a_burst_is_written_together_and_each_request_hears_what_became_of_its_own_events() {
    let app = spawn_app().await;
    let emails: Vec<String> = (0..40).map(|n| format!("burst{n}@example.net")).collect();
    let refs: Vec<&str> = emails.iter().map(String::as_str).collect();
    let (client, session, mailing, contacts) = client_with(&app, &refs).await;
    configure(
        &app,
        &session,
        "mailgun",
        json!({ "mailgunSigningKey": MAILGUN_KEY, "enabled": true }),
    )
    .await;
    let now = chrono::Utc::now().timestamp();
    let body = |n: usize| {
        mailgun(
            "mailgun-failed-permanent.json",
            &emails[n],
            &message_id(mailing, contacts[n], &client),
            now,
            &format!("burst-token-{n}"),
            MAILGUN_KEY,
        )
        .replace("G9Bn5sl1TC6nu79C8C0bwg", &format!("burst-event-{n}"))
    };
    // Forty events at once, the first ten of them twice (Mailgun retrying while the first try is in flight).
    let posts: Vec<(usize, String)> = (0..40).chain(0..10).map(|n| (n, body(n))).collect();
    let answers = futures_util::future::join_all(
        posts
            .iter()
            .map(|(n, b)| async { (*n, post(&app, "mailgun", &client, b, &[]).await) }),
    )
    .await;
    let mut stored = vec![0; 40];
    let mut suppressed = vec![0; 40];
    for (n, (status, answer)) in &answers {
        assert_eq!(*status, StatusCode::OK, "{answer}");
        stored[*n] += answer["stored"].as_i64().unwrap();
        suppressed[*n] += answer["suppressed"].as_i64().unwrap();
    }
    // Each event stored by exactly one of its requests, which also says it suppressed the address.
    assert_eq!(stored, vec![1; 40]);
    assert_eq!(suppressed, vec![1; 40]);
    assert_eq!(counts(&app, &client).await, (40, 40, 40));
    assert_eq!(
        app.scalar_in(
            &client,
            "select count(*) from contacts where subscription = 'bounced'"
        )
        .await,
        40
    );

    // A token of the burst signing another event afterwards is a replay, and changes nothing.
    let replay = mailgun(
        "mailgun-complained.json",
        &emails[39],
        "",
        now,
        "burst-token-3",
        MAILGUN_KEY,
    );
    assert_eq!(
        post(&app, "mailgun", &client, &replay, &[]).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(counts(&app, &client).await, (40, 40, 40));
}
