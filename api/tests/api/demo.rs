//! The demo client (`api demo`, issue 15): besides its flights and planned month, it shows one finished
//! experiment, decided by the product's own test, with the winner sent to the rest of its list. Its giving is
//! possible in time and spread as a real client's (issue 27).

use crate::helpers::*;
use std::collections::HashSet;

#[tokio::test]
async fn the_demo_client_has_one_finished_experiment_with_its_winner_send() {
    let app = spawn_app().await;
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
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
    assert_demo_giving_is_possible_in_time(&app, &client, &session).await;
    assert_demo_journeys_have_figures(&app, &session).await;
    println!("demo: 10,000 contacts seeded in {seeded_in:?}; experiment test {test}, winner send {rest}, p = {p:.2e}");
}

/// Issue 27, items 1 and 8: no gift carries a mailing's refcode before the mailing reached the giver (or, for a
/// giver not mailed, before its send started), a mailing not sent has no revenue, every gift names a US state and a
/// ZIP, and every origin code has donors and non-donors.
async fn assert_demo_giving_is_possible_in_time(
    app: &TestApp,
    client: &tenancy::Client,
    session: &Session,
) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let (early, credited_early, gifts, without_place, states, by_refcode): (i64, i64, i64, i64, i64, i64) =
        sqlx::query_as(
            "select count(*) filter (where s.mailing_id is not null
                                       and not coalesce(c.paid_at >= coalesce(r.sent_at, m.send_attempt), false)),
                    count(*) filter (where c.attribution = 'refcode'
                                       and not coalesce(c.paid_at >= coalesce(cr.sent_at, cm.send_attempt), false)),
                    count(*),
                    count(*) filter (where c.state !~ '^[A-Z]{2}$' or c.state is null or c.zip !~ '^[0-9]{5}$'
                                       or c.zip is null),
                    count(distinct c.state),
                    count(*) filter (where c.attribution = 'refcode')
             from contributions c
             left join source_codes s on s.id = c.source_code_id
             left join mailings m on m.id = s.mailing_id
             left join mailing_recipients r on r.mailing_id = s.mailing_id and r.contact_id = c.contact_id
             left join mailings cm on cm.id = c.mailing_id
             left join mailing_recipients cr on cr.mailing_id = c.mailing_id and cr.contact_id = c.contact_id",
        )
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let unsent: Vec<i64> =
        sqlx::query_scalar("select id from mailings where send_attempt is null order by id")
            .fetch_all(&mut *tx)
            .await
            .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(
        (early, credited_early),
        (0, 0),
        "gifts with a refcode before its mailing's send"
    );
    assert!(by_refcode > 0);
    assert!(gifts > 2_000, "{gifts}");
    assert_eq!(without_place, 0, "gifts without a state and ZIP");
    assert!(states >= 40, "{states} states");

    assert!(unsent.len() >= 2, "{unsent:?}");
    for id in unsent {
        let m = app
            .get_json(&format!("/api/crm-mailing/{id}"), session)
            .await;
        assert_eq!(
            (&m["gifts"], &m["revenue"]),
            (&serde_json::json!(0), &serde_json::json!("0.00")),
            "{m}"
        );
    }

    let to = (chrono::Utc::now() + chrono::Duration::days(1)).date_naive();
    let value = app
        .get_json(
            &format!("/api/external-origin-code/value?from=2020-01-01&to={to}"),
            session,
        )
        .await;
    let items = value["items"].as_array().unwrap();
    assert!(items.len() >= 6, "{items:?}");
    for code in items {
        let share = code["donorShare"].as_f64().unwrap();
        assert!(0.0 < share && share < 1.0, "{code}");
    }
    let shares: HashSet<String> = items
        .iter()
        .map(|c| format!("{:.2}", c["donorShare"].as_f64().unwrap()))
        .collect();
    assert!(shares.len() >= 4, "donor shares barely vary: {shares:?}");
}

/// Issue 31: the welcome series and the rescue are active, with people inside and figures per step.
async fn assert_demo_journeys_have_figures(app: &TestApp, session: &Session) {
    let list = app.get_json("/api/journeys", session).await;
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Recurring rescue", "Welcome series"]);
    let series = &list[1];
    assert_eq!(series["status"], "active");
    assert!(
        series["active"].as_i64().unwrap() > 0 && series["finished"].as_i64().unwrap() > 0,
        "{series}"
    );
    assert!(
        series["converted"].as_i64().unwrap() > 0 && series["revenue_cents"].as_i64().unwrap() > 0,
        "{series}"
    );
    let figures = app
        .get_json(&format!("/api/journeys/{}/figures", series["id"]), session)
        .await;
    for step in figures["steps"].as_array().unwrap() {
        assert!(step["reached"].as_i64().unwrap() > 0, "{step}");
    }
    let welcome = figures["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["step_id"] == "welcome")
        .unwrap();
    assert!(
        welcome["human_opens"].as_i64().unwrap() > 0 && welcome["gifts"].as_i64().unwrap() > 0,
        "{welcome}"
    );
    assert!(figures["weeks"].as_array().unwrap().len() >= 8, "{figures}");
}
