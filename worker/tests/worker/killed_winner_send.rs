//! Issue 15: the worker process killed (SIGKILL) in the middle of an experiment's winner send, and another
//! started: every recipient outside the test receives the winner exactly once, and nobody in the test cells
//! receives a second message. The real binary, a real SMTP sink, Postgres and Redis; the experiment is judged
//! by the worker's own experiments pass.

use jobs::{JobKind, JobQueue};
use mail::sink::{serve, Delivered};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tenancy::{ClientShort, Tenancy};

use crate::common::{env, unique, Setup};

const AUDIENCE: i64 = 3000;
/// 20 % of 3,000: 300 people in each of the two cells.
const TEST: i64 = 600;

/// What the sink received for this test's domain: each address with the subjects it was sent, in order.
type Inbox = Arc<Mutex<HashMap<String, Vec<String>>>>;

#[tokio::test]
async fn a_worker_killed_mid_winner_send_loses_and_duplicates_nothing() {
    let _alone = crate::ONE_AT_A_TIME.lock().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let setup = Setup {
        database_url: env(
            "TEST_DATABASE_URL",
            "postgres://postgres@127.0.0.1:5432/compass_test",
        ),
        redis_url: env("TEST_REDIS_URL", "redis://127.0.0.1:6379"),
        queue: unique("compass-killed-winner-"),
        smtp_url: format!("smtp://127.0.0.1:{}", listener.local_addr().unwrap().port()),
        journal: std::env::temp_dir().join(unique("compass-journal-")),
        tracking_secret: "killed-winner-send-test",
    };
    let domain = format!("{}.example.org", unique("w"));
    let inbox: Inbox = Arc::default();
    let store = inbox.clone();
    let ours = domain.clone();
    tokio::spawn(serve(
        listener,
        Arc::new(move |m: Delivered| {
            let data = String::from_utf8_lossy(&m.data);
            let subject = data
                .lines()
                .find_map(|l| l.strip_prefix("Subject: "))
                .unwrap_or_default()
                .to_owned();
            for to in m.recipients.into_iter().filter(|to| to.ends_with(&ours)) {
                store
                    .lock()
                    .unwrap()
                    .entry(to)
                    .or_default()
                    .push(subject.clone());
            }
        }),
    ));
    let delivered = || {
        inbox
            .lock()
            .unwrap()
            .values()
            .map(|s| s.len() as i64)
            .sum::<i64>()
    };

    let tenancy = Tenancy::connect(&setup.database_url, 2).await.unwrap();
    tenancy.migrate_all().await.unwrap();
    let client = tenancy
        .create_client(
            &ClientShort::parse(&unique("w")).unwrap(),
            "Killed winner send",
        )
        .await
        .unwrap();
    let mut tx = tenancy.begin(&client).await.unwrap();
    // An unsent mailing with variants A ("Hello") and B ("Other") to everyone.
    for statement in [
        "insert into contacts (email, first_name) select 'p' || i || '@' || $2, 'Pat' from generate_series(1, $1) i",
        "insert into crm_lists (name, kind) values ('Everyone', 'upload')",
        "insert into crm_list_members (list_id, contact_id) select 1, id from contacts",
        "insert into senders (name, from_address) values ('Team', 'team@example.org')",
        "insert into mailings (name, subject_line, sender_id, send_time, list_id, body_html, is_draft)
         values ('Appeal', 'Hello', 1, now() + interval '1 day', 1, '<p>Dear {{First.Name}}</p>', true)",
        "insert into mailing_variants (mailing_id, letter, subject_line) values (1, 'b', 'Other')",
    ] {
        sqlx::query(statement)
            .bind(AUDIENCE)
            .bind(&domain)
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    let experiment = store::experiments::create(
        &mut tx,
        &store::experiments::NewExperiment {
            name: "Subject test".to_owned(),
            kind: "subject".to_owned(),
            mailing_id: 1,
            test_fraction: 0.2,
            metric: "open_rate".to_owned(),
            wait_hours: 0,
            auto_send: true,
            baseline_rate: 0.2,
            expected_lift: 0.1,
            alpha: 0.05,
            power: 0.8,
        },
    )
    .await
    .unwrap();
    let mailing = store::experiments::start(&mut tx, experiment)
        .await
        .unwrap();
    // B's cell opens far more than A's (150 of 300 against 30): B wins whenever the worker judges it.
    sqlx::query(
        "insert into mailing_events (mailing_id, contact_id, kind, machine)
         select $2, contact_id, 'open', false from experiment_cells x
         where experiment_id = $1
           and (select count(*) from experiment_cells y
                where y.experiment_id = $1 and y.variant = x.variant and y.contact_id < x.contact_id)
               < case x.variant when 'b' then 150 else 30 end",
    )
    .bind(experiment)
    .bind(mailing)
    .execute(&mut *tx)
    .await
    .unwrap();
    let queue = JobQueue::connect(&setup.redis_url, &setup.queue)
        .await
        .unwrap();
    queue
        .enqueue(
            tx,
            None,
            &JobKind::SendMailing {
                mailing_id: mailing,
            },
        )
        .await
        .unwrap();

    let status = || async {
        let mut tx = tenancy.begin(&client).await.unwrap();
        let row: (String, String) = sqlx::query_as(
            "select x.status, m.delivery from experiments x join mailings m on m.id = x.mailing_id
             where x.id = $1",
        )
        .bind(experiment)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
        row
    };

    // The first worker sends the test cells; the experiments pass (the scheduler's, run here as a worker's
    // pass would) judges them and queues the winner send, which the same worker starts.
    let mut first = setup.start_worker();
    let started = Instant::now();
    loop {
        worker::experiments_due(&tenancy, &queue, &client)
            .await
            .unwrap();
        if status().await.0 == "winner_sending" {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "the test was never judged: {:?}",
            status().await
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut tx = tenancy.begin(&client).await.unwrap();
    let tested: HashSet<String> = sqlx::query_scalar(
        "select c.email from experiment_cells x join contacts c on c.id = x.contact_id where x.experiment_id = $1",
    )
    .bind(experiment)
    .fetch_all(&mut *tx)
    .await
    .unwrap()
    .into_iter()
    .collect();
    tx.commit().await.unwrap();
    assert_eq!(tested.len() as i64, TEST);
    {
        let inbox = inbox.lock().unwrap();
        assert!(
            tested
                .iter()
                .all(|to| inbox.get(to).map(Vec::len) == Some(1)),
            "each test cell member got the test message"
        );
    }
    while delivered() < TEST + (AUDIENCE - TEST) / 3 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the winner send never started"
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    first.kill().unwrap();
    first.wait().unwrap();
    let at_kill = delivered();
    assert!(at_kill < AUDIENCE, "killed before the winner send ended");

    let mut second = setup.start_worker();
    let mut last = (String::new(), String::new());
    while started.elapsed() < Duration::from_secs(180) {
        worker::experiments_due(&tenancy, &queue, &client)
            .await
            .unwrap();
        last = status().await;
        if last.0 == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    second.kill().unwrap();
    second.wait().unwrap();
    assert_eq!(
        last,
        ("finished".to_owned(), "done".to_owned()),
        "the second worker finished the winner send"
    );

    let inbox = inbox.lock().unwrap().clone();
    let twice: Vec<_> = inbox.iter().filter(|(_, s)| s.len() > 1).collect();
    assert!(
        twice.is_empty(),
        "mailed twice (killed at {at_kill} of {AUDIENCE}): {:?}",
        &twice[..twice.len().min(5)]
    );
    assert_eq!(
        inbox.len() as i64,
        AUDIENCE,
        "everyone received one message"
    );
    let rest: Vec<_> = inbox
        .iter()
        .filter(|(to, _)| !tested.contains(*to))
        .collect();
    assert_eq!(rest.len() as i64, AUDIENCE - TEST);
    assert!(
        rest.iter().all(|(_, s)| s.as_slice() == ["Other"]),
        "the rest got the winner, B"
    );

    let mut tx = tenancy.begin(&client).await.unwrap();
    let rows: Vec<(String, String, i64)> = sqlx::query_as(
        "select r.variant, r.status, count(*) from mailing_recipients r
         where r.mailing_id = $1
           and not exists (select 1 from experiment_cells x where x.experiment_id = $2 and x.contact_id = r.contact_id)
         group by 1, 2 order by 1, 2",
    )
    .bind(mailing)
    .bind(experiment)
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    let winner: Option<String> = sqlx::query_scalar("select winner from experiments where id = $1")
        .bind(experiment)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(
        rows,
        vec![("b".to_owned(), "sent".to_owned(), AUDIENCE - TEST)]
    );
    assert_eq!(winner.as_deref(), Some("b"));
    println!(
        "killed winner send: killed at {at_kill} of {AUDIENCE} delivered; {} addresses, each mailed once",
        inbox.len()
    );
}
