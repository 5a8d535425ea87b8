use super::*;

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
    // Actual is e-mail revenue by send date (docs/metrics.md): the net of the gifts of mailings whose send
    // started in the month, whenever paid. "March appeal" went out on 27 February, so all its gifts are February's.
    let april: i64 = sqlx::query_scalar(
        "insert into mailings (name, subject_line, is_draft, send_time, send_attempt)
         values ('April appeal', 'Give', false, '2030-04-01 03:30Z', '2030-04-01 03:30Z') returning id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    // line, paid at (UTC), amount, attributed, refunded
    let gifts = [
        ("g1", "2030-03-01 03:00Z", "10.00", true, false),
        ("g2", "2030-03-15 12:00Z", "100.00", true, false),
        ("g3", "2030-04-01 03:30Z", "50.25", true, false),
        ("g4", "2030-03-10 12:00Z", "999.00", true, true), // refunded: counts 0
        ("g5", "2030-03-11 12:00Z", "77.00", false, false), // not from e-mail
        ("g6", "2030-03-12 12:00Z", "-5.00", true, false), // a refund line takes its amount away
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
            // 10 + 100 + 50.25 + 0 − 5: paid in February and March, all from the 27 February send.
            { "month": "2030-02-01", "goal": null, "planned": "300.00", "actual": "155.25" },
            // "April appeal" started at 23:30 on 31 March in New York: a March send, without gifts yet.
            { "month": "2030-03-01", "goal": "20000.00", "planned": "4000.50", "actual": "0.00" },
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
    assert_eq!(entries(&calendar, "sent")[1]["id"], april);

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
