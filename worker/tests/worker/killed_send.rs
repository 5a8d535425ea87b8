//! The worker process killed (SIGKILL) in the middle of a send, and another started: every recipient receives
//! exactly one message at the SMTP sink. The real binary, a real sink, Postgres and Redis.

use jobs::{JobKind, JobQueue};
use mail::sink::{serve, Delivered};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tenancy::{ClientShort, Tenancy};

use crate::common::{env, unique, Setup};

const RECIPIENTS: i64 = 3000;

#[tokio::test]
async fn a_worker_killed_mid_send_and_restarted_mails_everyone_exactly_once() {
    let _alone = crate::ONE_AT_A_TIME.lock().await;
    let setup = Setup {
        database_url: env(
            "TEST_DATABASE_URL",
            "postgres://postgres@127.0.0.1:5432/compass_test",
        ),
        redis_url: env("TEST_REDIS_URL", "redis://127.0.0.1:6379"),
        queue: unique("compass-killed-send-"),
        smtp_url: String::new(),
        journal: std::env::temp_dir().join(unique("compass-journal-")),
        tracking_secret: "killed-send-test",
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let setup = Setup {
        smtp_url: format!("smtp://127.0.0.1:{}", listener.local_addr().unwrap().port()),
        ..setup
    };
    let domain = format!("{}.example.org", unique("k"));
    let inbox: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
    let store = inbox.clone();
    let ours = domain.clone();
    tokio::spawn(serve(
        listener,
        Arc::new(move |m: Delivered| {
            for to in m.recipients.into_iter().filter(|to| to.ends_with(&ours)) {
                *store.lock().unwrap().entry(to).or_default() += 1;
            }
        }),
    ));
    let delivered = || inbox.lock().unwrap().values().sum::<usize>() as i64;

    let tenancy = Tenancy::connect(&setup.database_url, 2).await.unwrap();
    tenancy.migrate_all().await.unwrap();
    let client = tenancy
        .create_client(&ClientShort::parse(&unique("k")).unwrap(), "Killed send")
        .await
        .unwrap();
    let mut tx = tenancy.begin(&client).await.unwrap();
    for statement in [
        "insert into contacts (email, first_name) select 'p' || i || '@' || $2, 'Pat' from generate_series(1, $1) i",
        "insert into crm_lists (name, kind) values ('Everyone', 'upload')",
        "insert into crm_list_members (list_id, contact_id) select 1, id from contacts",
        "insert into senders (name, from_address) values ('Team', 'team@example.org')",
        "insert into mailings (name, subject_line, sender_id, send_time, list_id, body_html, is_draft, send_attempt, delivery)
         values ('Appeal', 'Hello', 1, now(), 1, '<p>Dear {{First.Name}}</p>', false, now(), 'sending')",
    ] {
        sqlx::query(statement)
            .bind(RECIPIENTS)
            .bind(&domain)
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    let queue = JobQueue::connect(&setup.redis_url, &setup.queue)
        .await
        .unwrap();
    queue
        .enqueue(tx, None, &JobKind::SendMailing { mailing_id: 1 })
        .await
        .unwrap();

    let mut first = setup.start_worker();
    let started = Instant::now();
    while delivered() < RECIPIENTS / 3 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the send never started"
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    first.kill().unwrap();
    first.wait().unwrap();
    let at_kill = delivered();
    assert!(at_kill < RECIPIENTS, "killed before the send ended");

    let mut second = setup.start_worker();
    let mut delivery = String::new();
    while started.elapsed() < Duration::from_secs(120) {
        let mut tx = tenancy.begin(&client).await.unwrap();
        delivery = sqlx::query_scalar("select delivery from mailings where id = 1")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        if delivery == "done" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    second.kill().unwrap();
    second.wait().unwrap();
    assert_eq!(delivery, "done", "the second worker finished the send");

    let inbox = inbox.lock().unwrap().clone();
    let twice: Vec<_> = inbox.iter().filter(|(_, n)| **n > 1).collect();
    assert!(
        twice.is_empty(),
        "mailed twice (killed at {at_kill}): {twice:?}"
    );
    assert_eq!(
        inbox.len() as i64,
        RECIPIENTS,
        "everyone received the mailing"
    );
    let mut tx = tenancy.begin(&client).await.unwrap();
    let sent: i64 = sqlx::query_scalar(
        "select count(*) from mailing_recipients where mailing_id = 1 and status = 'sent'",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(sent, RECIPIENTS);
}
