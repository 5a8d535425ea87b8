//! One client's credentials never open another client's address; a webhook is off until it is set up.

use super::mailgun::mailgun;
use super::postmark::basic;
use super::sendgrid::sendgrid_headers;
use super::ses::sns;
use super::*;

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
            sendgrid_headers(&sendgrid, &now.to_string(), &now.to_string()),
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
