//! The page's operations on one fixture of three sustainers, dated from this month (M) back: s1 pays $10 in
//! M−6…M−4, s2 $20 in M−5…M−1, s3 $30 in M−4, misses M−3, pays M−2 and M−1. s1 and s2 came from origin "web",
//! s3 from "petition".

use super::*;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

pub(crate) const FIXTURE: &str = "
    insert into origin_codes (name) values ('web'), ('petition');
    insert into contacts (email, origin_code_id)
    values ('s1@example.org', (select id from origin_codes where name = 'web')),
           ('s2@example.org', (select id from origin_codes where name = 'web')),
           ('s3@example.org', (select id from origin_codes where name = 'petition'));
    insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email, recurring_months)
    select 'actblue', k || '-' || m, date_trunc('month', client_today())::timestamp at time zone 'America/New_York'
                                     - m * interval '1 month' + interval '10 days',
           a, (select id from contacts where email = k || '@example.org'), k || '@example.org', 0
    from (values ('s1', 6, 10.00), ('s1', 5, 10.00), ('s1', 4, 10.00),
                 ('s2', 5, 20.00), ('s2', 4, 20.00), ('s2', 3, 20.00), ('s2', 2, 20.00), ('s2', 1, 20.00),
                 ('s3', 4, 30.00), ('s3', 2, 30.00), ('s3', 1, 30.00)) v (k, m, a);
    select refresh_retention();";

fn months_ago(today: NaiveDate, n: u32) -> String {
    use chrono::Datelike;
    (today.with_day(1).unwrap() - chrono::Months::new(n)).to_string()
}

async fn post(app: &TestApp, session: &Session, path: &str, body: Value) -> reqwest::Response {
    app.api(Method::POST, path, session)
        .json(&body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn cohorts_sustainers_donors_and_segments_of_any_figure() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    app.exec_in(&client, FIXTURE).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let today = retention::client_today(&mut tx).await.unwrap();
    tx.commit().await.unwrap();
    let m = |n| months_ago(today, n);

    // Sustainers: the last 24 complete months, oldest first.
    let s = app.get_json("/api/retention/sustainers", &session).await;
    let months = s["months"].as_array().unwrap();
    assert_eq!(months.len(), 24);
    let at = |n: u32| months.iter().find(|x| x["month"] == m(n)).unwrap().clone();
    let figures = |n| {
        let x = at(n);
        (
            x["active"].as_i64().unwrap(),
            x["started"].as_i64().unwrap(),
            x["ended"].as_i64().unwrap(),
        )
    };
    assert_eq!(figures(6), (1, 1, 0));
    assert_eq!(figures(5), (2, 1, 0));
    assert_eq!(figures(4), (3, 1, 0));
    assert_eq!(figures(3), (1, 0, 2));
    assert_eq!(figures(2), (2, 1, 0));
    assert_eq!(figures(1), (2, 0, 0));
    assert_eq!(at(3)["churn"], "0.6667");
    assert_eq!(at(4)["averageAmount"], "20.00");
    // EARN 3: s1 3, s2 3, s3 2 of 3 each; EARN 6: s1 alone, 3 of 6; EARN 12: nobody yet.
    let earn: Vec<(i64, i64, i64, String)> = s["earn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["sustainers"].as_i64().unwrap(),
                e["received"].as_i64().unwrap(),
                e["expected"].as_i64().unwrap(),
                e["rate"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        earn,
        vec![
            (3, 8, 9, "0.8889".into()),
            (1, 3, 6, "0.5000".into()),
            (0, 0, 0, "0.0000".into())
        ]
    );

    // Cohorts by origin code: web's M−6 cohort (s1) gave at month 1, not at 3 or 6; $20 through month 1, $30
    // through 3 and 6; petition's M−4 cohort (s3) not at 1, at 3 ($90 through it); month 6 not reached yet.
    let c = app
        .get_json("/api/retention/cohorts?by=origin", &session)
        .await;
    let cohort = |source: &str, n| {
        c["cohorts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["source"] == source && k["cohort"] == m(n))
            .unwrap()
            .clone()
    };
    let cells = |k: Value| -> Vec<(Value, Value)> {
        k["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| (x["share"].clone(), x["revenuePerDonor"].clone()))
            .collect()
    };
    assert_eq!(
        cells(cohort("web", 6)),
        vec![
            (json!("1.0000"), json!("20.00")),
            (json!("0.0000"), json!("30.00")),
            (json!("0.0000"), json!("30.00")),
            (Value::Null, Value::Null),
            (Value::Null, Value::Null)
        ]
    );
    let petition = cohort("petition", 4);
    assert_eq!(
        (petition["donors"].as_i64(), petition["age"].as_i64()),
        (Some(1), Some(4))
    );
    assert_eq!(
        cells(petition)[..3],
        [
            (json!("0.0000"), json!("30.00")),
            (json!("1.0000"), json!("90.00")),
            (Value::Null, Value::Null)
        ]
    );
    // Lifetime value: web's donors gave $30 and $100; no cohort is 24 months old, so nothing is projected.
    let web = c["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["source"] == "web")
        .unwrap()
        .clone();
    assert_eq!(
        (web["donors"].as_i64(), web["observedPerDonor"].as_str()),
        (Some(2), Some("65.00"))
    );
    assert_eq!(
        (
            web["projectedPerDonor"].clone(),
            web["backtestMape"].clone()
        ),
        (Value::Null, Value::Null)
    );
    assert!(c["refreshed"].is_string());

    // The donors behind figures: a heat-map cell, a sustainer month, a gain/loss line (M−3 against M−4: s1 and
    // s3 lost, with what they gave before).
    let page = post(&app, &session, "/api/retention/donors",
        json!({ "kind": "cohort", "grain": "month", "by": "origin", "source": "web", "cohort": m(6), "age": 1 })).await;
    let page: Value = page.json().await.unwrap();
    assert_eq!(
        (page["total"].as_i64(), page["rows"][0]["email"].as_str()),
        (Some(1), Some("s1@example.org"))
    );
    let ended = json!({ "kind": "sustainers", "month": m(3), "status": "ended" });
    let page: Value = post(
        &app,
        &session,
        "/api/retention/donors?pageSize=1&page=2",
        ended.clone(),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        (page["total"].as_i64(), page["rows"][0]["email"].as_str()),
        (Some(2), Some("s3@example.org"))
    );
    let lost = json!({ "kind": "retention", "period": "month", "asOf": m(3), "category": "lost" });
    let page: Value = post(&app, &session, "/api/retention/donors", lost)
        .await
        .json()
        .await
        .unwrap();
    let rows: Vec<(&str, &str)> = page["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["email"].as_str().unwrap(),
                r["previous"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![("s1@example.org", "10.00"), ("s3@example.org", "30.00")]
    );

    // A segment from a cell: an upload list of its contacts and a segment of that list, computed by a job.
    let name = unique("Ended ");
    let made = post(
        &app,
        &session,
        "/api/retention/segments",
        json!({ "name": name, "cell": ended }),
    )
    .await;
    assert_eq!(made.status(), StatusCode::ACCEPTED);
    let made: Value = made.json().await.unwrap();
    assert_eq!(made["contacts"], 2);
    let members = app
        .scalar_in(
            &client,
            &format!(
                "select count(*) from crm_list_members where list_id = {}",
                made["listId"]
            ),
        )
        .await;
    assert_eq!(members, 2);
    let rule = app
        .scalar_in(&client, &format!(
            "select count(*) from segments where id = {} and rule @> '{{\"conditions\": [{{\"field\": \"list\"}}]}}'",
            made["segmentId"]))
        .await;
    assert_eq!(rule, 1);
    let again = post(
        &app,
        &session,
        "/api/retention/segments",
        json!({ "name": name, "cell": ended }),
    )
    .await;
    assert_eq!(
        json_message(again).await,
        (
            StatusCode::CONFLICT,
            "A list with this name exists".to_owned()
        )
    );
    let refresh = app
        .api(Method::POST, "/api/retention/refresh", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(refresh.status(), StatusCode::ACCEPTED);

    // Hostile input: plain-English 400s.
    for (path, message) in [
        (
            "/api/retention?period=decade",
            "period must be month, quarter, year or fiscal_year",
        ),
        ("/api/retention?asOf=1900-01-01", "The date is out of range"),
        (
            "/api/retention/cohorts?by=zip",
            "by must be all, origin, channel, campaign or form",
        ),
        (
            "/api/retention/cohorts?grain=week",
            "grain must be month or quarter",
        ),
    ] {
        let r = app.api(Method::GET, path, &session).send().await.unwrap();
        assert_eq!(
            json_message(r).await,
            (StatusCode::BAD_REQUEST, message.to_owned()),
            "{path}"
        );
    }
    for (path, body, message) in [
        (
            "/api/retention/donors",
            json!({ "kind": "everyone" }),
            "kind must be retention, cohort or sustainers",
        ),
        (
            "/api/retention/donors",
            json!({ "kind": "retention", "category": "vip" }),
            "category must be new, recaptured, upgraded, same, downgraded or lost",
        ),
        (
            "/api/retention/donors",
            json!({ "kind": "cohort", "source": "web", "age": 99 }),
            "age must be 0 to 24",
        ),
        (
            "/api/retention/donors?pageSize=500",
            ended.clone(),
            "page must be 1 or more and pageSize 1 to 200",
        ),
        (
            "/api/retention/segments",
            json!({ "name": " ", "cell": ended }),
            "The name must be 1 to 200 characters",
        ),
    ] {
        let r = post(&app, &session, path, body).await;
        assert_eq!(
            json_message(r).await,
            (StatusCode::BAD_REQUEST, message.to_owned()),
            "{path}"
        );
    }
}
