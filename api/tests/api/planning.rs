//! Email › Planning against a hand-built fixture in America/New_York (README "Planning"): every figure below is
//! worked out by hand from the rows inserted here.

use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn segment(app: &TestApp, session: &Session, name: &str) -> i64 {
    let mut tx = app.tenancy.begin(&session.client).await.unwrap();
    let id: i64 = sqlx::query_scalar("insert into segments (name) values ($1) returning id")
        .bind(name)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    id
}

async fn send(
    app: &TestApp,
    session: &Session,
    method: Method,
    path: &str,
    body: Value,
) -> (StatusCode, Value) {
    let response = app
        .api(method, path, session)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn entries<'a>(calendar: &'a Value, kind: &str) -> Vec<&'a Value> {
    calendar["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == kind)
        .collect()
}

#[tokio::test]
async fn a_planned_send_becomes_a_draft_mailing_in_one_click() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let lapsed = segment(&app, &session, "Lapsed donors").await;

    let (status, created) = send(
        &app,
        &session,
        Method::POST,
        "/api/planning/planned-sends",
        json!({ "sendDate": "2030-03-14", "name": "Pi day appeal", "segmentId": lapsed, "revenueGoal": "1500.00" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let planned = created["id"].as_i64().unwrap();

    let calendar = app
        .get_json("/api/planning?from=2030-03-01&to=2030-03-31", &session)
        .await;
    let plans = entries(&calendar, "planned");
    assert_eq!(plans.len(), 1);
    assert_eq!(plans[0]["name"], "Pi day appeal");
    assert_eq!(plans[0]["day"], "2030-03-14");
    assert_eq!(plans[0]["segmentName"], "Lapsed donors");
    assert_eq!(plans[0]["revenueGoal"], "1500.00");

    let (status, draft) = send(
        &app,
        &session,
        Method::POST,
        &format!("/api/planning/planned-sends/{planned}/draft"),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{draft}");
    let mailing = draft["id"].as_i64().unwrap();

    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let (is_draft, segment_id, subject, at): (bool, Option<i64>, String, String) = sqlx::query_as(
        "select is_draft, segment_id, subject_line, to_char(send_time at time zone 'UTC', 'YYYY-MM-DD HH24:MI')
         from mailings where id = $1",
    )
    .bind(mailing)
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    // 10:00 on 14 March 2030 in New York is daylight time (UTC−4): 14:00 UTC.
    assert_eq!(
        (is_draft, segment_id, subject.as_str(), at.as_str()),
        (true, Some(lapsed), "Pi day appeal", "2030-03-14 14:00")
    );

    let calendar = app
        .get_json("/api/planning?from=2030-03-01&to=2030-03-31", &session)
        .await;
    assert!(entries(&calendar, "planned").is_empty());
    let drafts = entries(&calendar, "draft");
    assert_eq!(drafts.len(), 1);
    assert_eq!(drafts[0]["id"], mailing);
    assert_eq!(drafts[0]["plannedSendId"], planned);
    assert_eq!(drafts[0]["revenueGoal"], "1500.00");

    // A second click makes no second draft.
    let (status, _) = send(
        &app,
        &session,
        Method::POST,
        &format!("/api/planning/planned-sends/{planned}/draft"),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);

    // Hostile input: a goal that is no amount, an unknown segment, an unknown planned send.
    for bad in [
        json!({ "sendDate": "2030-03-14", "name": "X", "revenueGoal": "12,5" }),
        json!({ "sendDate": "2030-03-14", "name": "X", "revenueGoal": "-1" }),
        json!({ "sendDate": "2030-03-14", "name": "   ", "revenueGoal": "1" }),
        json!({ "sendDate": "2030-03-14", "name": "X", "revenueGoal": "1", "segmentId": 999999 }),
    ] {
        let (status, _) = send(
            &app,
            &session,
            Method::POST,
            "/api/planning/planned-sends",
            bad.clone(),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    }
    let (status, _) = send(
        &app,
        &session,
        Method::POST,
        "/api/planning/planned-sends/999999/draft",
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn dragging_moves_drafts_scheduled_and_planned_sends_but_never_a_sent_one() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let mailing = |name: &'static str, draft: bool, attempt: bool| {
        sqlx::query_scalar::<_, i64>(
            "insert into mailings (name, subject_line, is_draft, send_time, send_attempt)
             values ($1, $1, $2, '2030-05-06 13:30Z', case when $3 then now() end) returning id",
        )
        .bind(name)
        .bind(draft)
        .bind(attempt)
    };
    let draft = mailing("Draft", true, false)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let scheduled = mailing("Scheduled", false, false)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let sent = mailing("Sent", false, true)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let calendar = app
        .get_json("/api/planning?from=2030-05-01&to=2030-05-31", &session)
        .await;
    let kinds: Vec<(&str, &str)> = calendar["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap(), e["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("Draft", "draft"),
            ("Scheduled", "scheduled"),
            ("Sent", "sent")
        ]
    );

    // 13:30 UTC is 09:30 in New York (daylight time); the move keeps it.
    for id in [draft, scheduled] {
        let (status, moved) = send(
            &app,
            &session,
            Method::PUT,
            &format!("/api/planning/mailings/{id}/day"),
            json!({ "day": "2030-05-09" }),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{moved}");
        assert_eq!(moved["sendTime"], "2030-05-09T13:30:00+00:00");
    }
    let (status, refused) = send(
        &app,
        &session,
        Method::PUT,
        &format!("/api/planning/mailings/{sent}/day"),
        json!({ "day": "2030-05-09" }),
    )
    .await;
    assert_eq!(
        (status, refused["message"].as_str()),
        (StatusCode::CONFLICT, Some("A sent mailing cannot be moved"))
    );
    let (status, _) = send(
        &app,
        &session,
        Method::PUT,
        &format!("/api/planning/mailings/{draft}/day"),
        json!({ "day": "2020-01-01" }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = send(
        &app,
        &session,
        Method::PUT,
        "/api/planning/mailings/999999/day",
        json!({ "day": "2030-05-09" }),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let sent_at: String = sqlx::query_scalar("select to_char(send_time at time zone 'UTC', 'YYYY-MM-DD HH24:MI') from mailings where id = $1")
        .bind(sent)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(sent_at, "2030-05-06 13:30");

    // A planned send moves by its date.
    let (_, created) = send(
        &app,
        &session,
        Method::POST,
        "/api/planning/planned-sends",
        json!({ "sendDate": "2030-05-20", "name": "Plan", "revenueGoal": "10" }),
    )
    .await;
    let id = created["id"].as_i64().unwrap();
    let (status, _) = send(
        &app,
        &session,
        Method::PUT,
        &format!("/api/planning/planned-sends/{id}"),
        json!({ "sendDate": "2030-05-22", "name": "Plan", "revenueGoal": "10" }),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let calendar = app
        .get_json("/api/planning?from=2030-05-01&to=2030-05-31", &session)
        .await;
    assert_eq!(entries(&calendar, "planned")[0]["day"], "2030-05-22");
    let (status, _) = send(
        &app,
        &session,
        Method::PUT,
        &format!("/api/planning/planned-sends/{id}"),
        json!({ "sendDate": "2020-05-22", "name": "Plan", "revenueGoal": "10" }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Another client sees none of it.
    let other = app.create_client().await;
    let other_session = app.session(&other).await;
    let theirs = app
        .get_json(
            "/api/planning?from=2030-05-01&to=2030-05-31",
            &other_session,
        )
        .await;
    assert_eq!(theirs["entries"], json!([]));
    let (status, _) = send(
        &app,
        &other_session,
        Method::PUT,
        &format!("/api/planning/mailings/{draft}/day"),
        json!({ "day": "2030-05-10" }),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn each_month_shows_goal_planned_and_actual_revenue_and_its_marked_days() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let mailing: i64 = sqlx::query_scalar(
        "insert into mailings (name, subject_line, is_draft, send_time, send_attempt)
         values ('March appeal', 'Give', false, '2030-02-27 15:00Z', '2030-02-27 15:00Z') returning id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    // line, paid at (UTC), amount, attributed, refunded
    let gifts = [
        ("g1", "2030-03-01 03:00Z", "10.00", true, false), // 28 Feb 22:00 in New York: February
        ("g2", "2030-03-15 12:00Z", "100.00", true, false),
        ("g3", "2030-04-01 03:30Z", "50.25", true, false), // 31 Mar 23:30 in New York: March
        ("g4", "2030-03-10 12:00Z", "999.00", true, true), // refunded: not counted
        ("g5", "2030-03-11 12:00Z", "77.00", false, false), // not from e-mail
        ("g6", "2030-03-12 12:00Z", "-5.00", true, false), // a refund line: not a gift
    ];
    for (line, at, amount, attributed, refunded) in gifts {
        sqlx::query(
            "insert into contributions (platform, line_item_id, paid_at, amount, mailing_id, refunded_at)
             values ('actblue', $1, $2::timestamptz, $3::numeric, case when $4 then $5 end,
                     case when $6 then $2::timestamptz end)",
        )
        .bind(line)
        .bind(at)
        .bind(amount)
        .bind(attributed)
        .bind(mailing)
        .bind(refunded)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
    for (day, name, goal) in [
        ("2030-03-05", "A", "1500.00"),
        ("2030-03-25", "B", "2500.50"),
        ("2030-02-10", "C", "300"),
    ] {
        let (status, _) = send(
            &app,
            &session,
            Method::POST,
            "/api/planning/planned-sends",
            json!({ "sendDate": day, "name": name, "revenueGoal": goal }),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let (status, _) = send(
        &app,
        &session,
        Method::PUT,
        "/api/planning/month-goal",
        json!({ "month": "2030-03-17", "goal": "20000" }),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = send(
        &app,
        &session,
        Method::PUT,
        "/api/planning/month-goal",
        json!({ "month": "2030-03-17", "goal": "1e9" }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let settings = app.get_json("/api", &session).await;
    let (status, body) = send(
        &app,
        &session,
        Method::PATCH,
        &format!("/api/{}", settings["id"]),
        json!({ "electionDay": "2030-03-05" }),
    )
    .await;
    assert_eq!(
        (status, &body["electionDay"]),
        (StatusCode::OK, &json!("2030-03-05"))
    );

    let calendar = app
        .get_json("/api/planning?from=2030-02-01&to=2030-03-31", &session)
        .await;
    assert_eq!(
        calendar["months"],
        json!([
            { "month": "2030-02-01", "goal": null, "planned": "300.00", "actual": "10.00" },
            { "month": "2030-03-01", "goal": "20000.00", "planned": "4000.50", "actual": "150.25" },
        ])
    );
    assert_eq!(
        calendar["marks"],
        json!([
            { "day": "2030-02-28", "kind": "month_end" },
            { "day": "2030-03-05", "kind": "election_day" },
            { "day": "2030-03-31", "kind": "month_end" },
            { "day": "2030-03-31", "kind": "quarter_end" },
        ])
    );
    assert_eq!(entries(&calendar, "sent")[0]["day"], "2030-02-27");

    // Clearing the goal and the election day.
    send(
        &app,
        &session,
        Method::PUT,
        "/api/planning/month-goal",
        json!({ "month": "2030-03-01", "goal": null }),
    )
    .await;
    let (_, body) = send(
        &app,
        &session,
        Method::PATCH,
        &format!("/api/{}", settings["id"]),
        json!({ "electionDay": "" }),
    )
    .await;
    assert_eq!(body["electionDay"], Value::Null);
    let calendar = app
        .get_json("/api/planning?from=2030-03-01&to=2030-03-31", &session)
        .await;
    assert_eq!(calendar["months"][0]["goal"], Value::Null);
    assert_eq!(calendar["marks"].as_array().unwrap().len(), 2);

    let (status, _) = send(
        &app,
        &session,
        Method::GET,
        "/api/planning?from=2030-03-31&to=2030-03-01",
        Value::Null,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
