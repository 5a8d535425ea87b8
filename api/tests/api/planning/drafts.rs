use super::*;

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
