//! The demo client (`api demo`, issue 15): besides its flights and planned month, it shows one finished
//! experiment, decided by the product's own test, with the winner sent to the rest of its list.

use crate::helpers::*;
use std::collections::HashSet;

#[tokio::test]
async fn the_demo_client_has_one_finished_experiment_with_its_winner_send() {
    let app = spawn_app().await;
    let queue = worker::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let short = unique("demo");
    let started = std::time::Instant::now();
    let client = api::demo::seed(&app.tenancy, &queue, &short, "Demo", 10_000, 2_000)
        .await
        .unwrap();
    let seeded_in = started.elapsed();
    // Seeding again changes nothing: still one experiment.
    api::demo::seed(&app.tenancy, &queue, &short, "Demo", 10_000, 2_000)
        .await
        .unwrap();
    let session = app.session(&client).await;

    let list = app.get_json("/api/experiments", &session).await;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 1, "{list:?}");
    let x = &list[0];
    assert_eq!(x["name"], "Quarter-end subject line test");
    assert_eq!(x["status"], "finished");
    assert_eq!(x["winner"], "B");

    let id = x["id"].as_i64().unwrap();
    let x = app
        .get_json(&format!("/api/experiments/{id}"), &session)
        .await;
    assert_eq!(x["status"], "finished", "{x}");
    assert_eq!(x["winner"], "B");
    for stamp in ["startedAt", "decidedAt", "winnerSentAt", "finishedAt"] {
        assert!(x[stamp].is_string(), "{stamp}: {x}");
    }
    let r = &x["result"];
    assert_eq!(r["best"], "B");
    assert_eq!(r["runnerUp"], "A");
    assert_eq!(r["significant"], true, "{r}");
    let p = r["pValue"].as_f64().unwrap();
    assert!(p < 0.05, "{p}");
    let (low, high) = (r["ciLow"].as_f64().unwrap(), r["ciHigh"].as_f64().unwrap());
    let difference = r["difference"].as_f64().unwrap();
    assert!(0.0 < low && low < difference && difference < high, "{r}");
    assert!(r["summary"]
        .as_str()
        .unwrap()
        .starts_with("B wins: open rate "));

    // The cells: A and B, even within one, with their figures; B opened more.
    let v = x["variants"].as_array().unwrap();
    let letters: Vec<&str> = v.iter().map(|c| c["variant"].as_str().unwrap()).collect();
    assert_eq!(letters, ["A", "B"]);
    let (a, b) = (&v[0], &v[1]);
    let test = a["recipients"].as_i64().unwrap() + b["recipients"].as_i64().unwrap();
    assert!((a["recipients"].as_i64().unwrap() - b["recipients"].as_i64().unwrap()).abs() <= 1);
    assert!(a["delivered"].as_i64().unwrap() > 0 && a["opens"].as_i64().unwrap() > 0);
    let rate =
        |c: &serde_json::Value| c["opens"].as_f64().unwrap() / c["delivered"].as_f64().unwrap();
    assert!(rate(b) > rate(a));

    // The winner send: B, to everyone on the list outside the test, with its own figures.
    let w = &x["winnerSend"];
    assert_eq!(w["variant"], "B", "{x}");
    let rest = w["recipients"].as_i64().unwrap();
    assert!(w["delivered"].as_i64().unwrap() > 0 && w["opens"].as_i64().unwrap() > 0);
    assert!(w["gifts"].as_i64().unwrap() > 0, "{w}");
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let audience: i64 =
        sqlx::query_scalar("select count(*) from experiments x, mailing_audience(x.mailing_id) a")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    let mailed: Vec<i64> = sqlx::query_scalar(
        "select r.contact_id from experiments x join mailing_recipients r on r.mailing_id = x.mailing_id",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(test + rest, audience);
    assert!((test as f64 - audience as f64 * 0.2).abs() <= 1.0);
    assert_eq!(mailed.iter().collect::<HashSet<_>>().len() as i64, audience);
    println!("demo: 10,000 contacts seeded in {seeded_in:?}; experiment test {test}, winner send {rest}, p = {p:.2e}");
}
