//! Pacing per mailbox provider (issue 30): each provider's recipients go at that provider's rate, and the others
//! do not wait for them.

use super::*;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[tokio::test]
async fn each_provider_is_paced_by_its_own_setting_and_the_others_do_not_wait() {
    // The sink notes when each message arrived.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let arrivals: Arc<Mutex<Vec<(Instant, String)>>> = Arc::new(Mutex::new(Vec::new()));
    let noted = arrivals.clone();
    tokio::spawn(mail::sink::serve(
        listener,
        Arc::new(move |m: mail::sink::Delivered| {
            noted
                .lock()
                .unwrap()
                .push((Instant::now(), m.recipients[0].clone()))
        }),
    ));
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    // Gmail at two a second over one connection; the rest unpaced.
    let response = app
        .api(Method::PUT, "/api/deliverability/pacing", &session)
        .json(&json!([{ "provider": "gmail", "perSecond": 2, "connections": 1 }]))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let pacing: Value = response.json().await.unwrap();
    assert_eq!(
        pacing,
        json!([
            { "provider": "gmail", "perSecond": 2, "connections": 1 },
            { "provider": "yahoo", "perSecond": 20, "connections": 3 },
            { "provider": "microsoft", "perSecond": 20, "connections": 3 },
            { "provider": "other", "perSecond": 0, "connections": 4 },
        ])
    );

    let mut emails: Vec<String> = (0..6).map(|i| format!("paced{i}@gmail.com")).collect();
    emails.extend(addresses("free", 6));
    let id = confirmed_mailing(&app, &session, &emails).await;
    send_now(&app, &client, id).await;
    let done = wait_for_delivery(&app, &session, id, "done").await;
    assert_eq!(done["recipCount"], 12);

    let arrivals = arrivals.lock().unwrap().clone();
    assert_eq!(arrivals.len(), 12, "each recipient once");
    let gmail: Vec<Instant> = arrivals
        .iter()
        .filter(|(_, to)| to.ends_with("@gmail.com"))
        .map(|(at, _)| *at)
        .collect();
    let last_other = arrivals
        .iter()
        .filter(|(_, to)| !to.ends_with("@gmail.com"))
        .map(|(at, _)| *at)
        .max()
        .unwrap();
    assert_eq!(gmail.len(), 6);
    let (first, last) = (gmail[0], gmail[5]);
    // Six at two a second: five gaps of half a second.
    assert!(
        last - first >= Duration::from_millis(2400),
        "gmail went at its own rate: {:?}",
        last - first
    );
    assert!(
        last_other < gmail[3],
        "the other recipients did not wait behind gmail's"
    );
}

/// A sink that notes when each message arrived and to whom; answers its port and the notes.
async fn timed_sink() -> (u16, Arc<Mutex<Vec<(Instant, String)>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let arrivals: Arc<Mutex<Vec<(Instant, String)>>> = Arc::new(Mutex::new(Vec::new()));
    let noted = arrivals.clone();
    tokio::spawn(mail::sink::serve(
        listener,
        Arc::new(move |m: mail::sink::Delivered| {
            noted
                .lock()
                .unwrap()
                .push((Instant::now(), m.recipients[0].clone()))
        }),
    ));
    (port, arrivals)
}

#[tokio::test]
async fn custom_domains_are_paced_with_the_provider_their_mx_hosts_belong_to() {
    // A Google Workspace domain, a Microsoft 365 domain, a domain without MX records, and one DNS refuses.
    let dns = DnsServer::start(&["workspace.test", "m365.test", "plain.test"]).await;
    dns.mx("workspace.test", 1, "aspmx.l.google.com").await;
    dns.mx("workspace.test", 5, "alt1.aspmx.l.google.com").await;
    dns.mx("m365.test", 0, "m365-test.mail.protection.outlook.com")
        .await;
    let (port, arrivals) = timed_sink().await;
    let resolver = dns.address.clone();
    let app = spawn_app_with(|s| {
        s.smtp_url = format!("smtp://127.0.0.1:{port}");
        s.dns_resolver = Some(resolver);
    })
    .await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let response = app
        .api(Method::PUT, "/api/deliverability/pacing", &session)
        .json(&json!([
            { "provider": "gmail", "perSecond": 2, "connections": 1 },
            { "provider": "microsoft", "perSecond": 2, "connections": 1 },
        ]))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);

    let mut emails = Vec::new();
    for domain in ["workspace.test", "m365.test"] {
        emails.extend((0..4).map(|i| format!("staff{i}@{domain}")));
    }
    emails.extend((0..4).map(|i| format!("plain{i}@plain.test")));
    emails.extend((0..2).map(|i| format!("far{i}@unserved.example")));
    let id = confirmed_mailing(&app, &session, &emails).await;
    send_now(&app, &client, id).await;
    let done = wait_for_delivery(&app, &session, id, "done").await;
    assert_eq!(done["recipCount"], 14);

    let arrivals = arrivals.lock().unwrap().clone();
    assert_eq!(arrivals.len(), 14, "each recipient once");
    let at = |domain: &str| -> Vec<Instant> {
        arrivals
            .iter()
            .filter(|(_, to)| to.ends_with(&format!("@{domain}")))
            .map(|(at, _)| *at)
            .collect()
    };
    let last_other = at("plain.test")
        .into_iter()
        .chain(at("unserved.example"))
        .max()
        .unwrap();
    for domain in ["workspace.test", "m365.test"] {
        let paced = at(domain);
        assert_eq!(paced.len(), 4, "{domain}");
        // Four at two a second: three gaps of half a second.
        assert!(
            paced[3] - paced[0] >= Duration::from_millis(1400),
            "{domain} went at its provider's rate: {:?}",
            paced[3] - paced[0]
        );
        assert!(
            last_other < paced[2],
            "the domains without a provider's MX did not wait behind {domain}"
        );
    }

    // The rates per provider put each domain where the send paced it: the Workspace domain with Gmail, the
    // Microsoft 365 one with Microsoft.
    let rates = app
        .get_json(
            &format!("/api/delivery-rates?by=provider&mailingId={id}"),
            &session,
        )
        .await;
    let mut sent: Vec<(String, i64)> = rates
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["group"].as_str().unwrap().to_owned(),
                r["sent"].as_i64().unwrap(),
            )
        })
        .collect();
    sent.sort();
    assert_eq!(
        sent,
        vec![
            ("gmail".to_owned(), 4),
            ("microsoft".to_owned(), 4),
            ("other".to_owned(), 6)
        ],
        "{rates}"
    );
}

#[tokio::test]
async fn pacing_settings_out_of_range_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let before = app.get_json("/api/deliverability/pacing", &session).await;
    assert_eq!(before.as_array().unwrap().len(), 4);

    for body in [
        json!([{ "provider": "hotmail", "perSecond": 2, "connections": 1 }]),
        json!([{ "provider": "gmail", "perSecond": 2, "connections": 0 }]),
        json!([{ "provider": "gmail", "perSecond": -1, "connections": 1 }]),
    ] {
        let response = app
            .api(Method::PUT, "/api/deliverability/pacing", &session)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
    }
    let after = app.get_json("/api/deliverability/pacing", &session).await;
    assert_eq!(after, before, "a refused change changes nothing");
}

#[tokio::test]
async fn the_database_and_the_send_put_an_address_with_the_same_provider() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let addresses = [
        "a@gmail.com",
        "b@googlemail.com",
        "c@yahoo.com",
        "d@yahoo.co.uk",
        "e@aol.com",
        "f@sbcglobal.net",
        "g@hotmail.com",
        "h@hotmail.fr",
        "i@outlook.com",
        "j@live.co.uk",
        "k@msn.com",
        "l@example.org",
        "m@notgmail.com",
        "n@gmail.com.example.org",
    ];
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    for address in addresses {
        let in_sql: String = sqlx::query_scalar("select mailbox_provider($1)")
            .bind(address)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        assert_eq!(
            in_sql,
            domain::MailboxProvider::of(address).as_str(),
            "{address}"
        );
    }
}
