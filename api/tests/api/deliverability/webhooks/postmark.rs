//! Postmark: Basic credentials.

use super::*;

pub(super) fn basic(user: &str, password: &str) -> String {
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
