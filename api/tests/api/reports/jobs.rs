use super::*;

#[tokio::test]
async fn a_large_report_is_built_by_a_job_whose_file_equals_the_page() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    load_fixture(&app, &client).await;
    let worker = app.start_worker().await;
    let response = app
        .api(Method::POST, "/api/reports/sybunt/build", &session)
        .json(&json!({ "from": "2026-01-01", "to": "2026-02-28", "format": "xlsx" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let job: Value = response.json().await.unwrap();
    assert_eq!(job["label"], json!("Build Report"));
    let done = app
        .wait_for_job(&session, job["id"].as_i64().unwrap())
        .await;
    assert_eq!(done["success"], json!(true), "{done}");
    let link = done["result"]["link"].as_str().unwrap().to_owned();
    let file_id = link.strip_prefix("/reports?file=").unwrap();
    let response = app
        .api(
            Method::GET,
            &format!("/api/report-files/{file_id}"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.bytes().await.unwrap();
    let page = report(&app, &session, "sybunt").await;
    let kinds: Vec<String> = page["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(read_xlsx(&bytes, &kinds), rows(&page));
    worker.stop().await;

    // Another client cannot fetch the file.
    let other = app.create_client().await;
    let stranger = app.session(&other).await;
    let response = app
        .api(
            Method::GET,
            &format!("/api/report-files/{file_id}"),
            &stranger,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_scheduled_report_arrives_by_mail_with_its_file_attached() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let client = app.create_client().await;
    let email = app.create_user(false, &[&client]).await;
    let session = app.session(&client).await;
    load_fixture(&app, &client).await;
    let response = app
        .api(Method::POST, "/api/report-schedules", &session)
        .json(
            &json!({ "kind": "monthly-summary", "format": "xlsx", "frequency": "monthly",
                        "recipients": [email.to_uppercase()] }),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let schedule: Value = response.json().await.unwrap();
    assert_eq!(schedule["recipients"], json!([email]));
    let listed = app.get_json("/api/report-schedules", &session).await;
    assert_eq!(listed.as_array().unwrap().len(), 1);

    // Pretend the clock reached the run on March 1, 2026: it covers February.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("update report_schedules set next_run = now() - interval '1 minute'")
        .execute(&mut *tx)
        .await
        .unwrap();
    let due = store::reports::schedules::claim_due(&mut tx).await.unwrap();
    assert_eq!(due.len(), 1);
    // A second claim finds nothing: the first moved the schedule to its next run.
    assert!(store::reports::schedules::claim_due(&mut tx)
        .await
        .unwrap()
        .is_empty());
    let queue = ::jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let first = queue
        .enqueue(
            tx,
            None,
            &::jobs::JobKind::SendReport {
                schedule_id: due[0].schedule_id,
                from: "2026-02-01".parse().unwrap(),
                to: "2026-02-28".parse().unwrap(),
            },
        )
        .await
        .unwrap();
    let worker = app.start_worker().await;
    let done = app.wait_for_job(&session, first.id).await;
    assert_eq!(done["success"], json!(true), "{done}");
    worker.stop().await;

    let messages = inbox.lock().unwrap().clone();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].recipients, vec![email.clone()]);
    let raw = String::from_utf8_lossy(&messages[0].data).to_string();
    assert!(
        raw.contains("Subject: Monthly summary: 2026-02-01 to 2026-02-28"),
        "{raw}"
    );
    let attachment = attachment(&raw, "monthly-summary-2026-02-01-2026-02-28.xlsx");
    let kinds: Vec<String> = [
        "text", "integer", "integer", "integer", "money", "money", "money", "money", "money",
        "money",
    ]
    .iter()
    .map(|k| (*k).to_owned())
    .collect();
    assert_eq!(
        read_xlsx(&attachment, &kinds),
        vec![
            row(&["2026-02", "2", "2", "1", "35.00", "10.00", "25.00", "1.50", "25.00", "17.50"]),
            row(&["Total", "2", "2", "1", "35.00", "10.00", "25.00", "1.50", "25.00", "17.50"]),
        ]
    );

    // The job again (a redelivery) mails nobody twice.
    let tx = app.tenancy.begin(&client).await.unwrap();
    let again = queue
        .enqueue(
            tx,
            None,
            &::jobs::JobKind::SendReport {
                schedule_id: due[0].schedule_id,
                from: "2026-02-01".parse().unwrap(),
                to: "2026-02-28".parse().unwrap(),
            },
        )
        .await
        .unwrap();
    let worker = app.start_worker().await;
    app.wait_for_job(&session, again.id).await;
    worker.stop().await;
    assert_eq!(inbox.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn a_report_file_larger_than_a_chunk_is_kept_in_chunks_and_served_whole() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    // 20,000 donors who gave in 2024 and not since: all SYBUNT as of February 2026, about 1.6 MB of CSV.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    for sql in [
        "insert into contacts (email, first_name, last_name)
         select 'donor' || i || '@example.org', 'Donor', 'N' || i from generate_series(1, 20000) i",
        "insert into contributions (platform, line_item_id, paid_at, contact_id, email, amount)
         select 'actblue', 'L' || k.id, timestamptz '2024-05-01 15:00Z' + k.id * interval '1 minute', k.id, k.email,
                5 + k.id % 100
         from contacts k",
    ] {
        sqlx::query(sql).execute(&mut *tx).await.unwrap();
    }
    tx.commit().await.unwrap();
    let worker = app.start_worker().await;
    let response = app
        .api(Method::POST, "/api/reports/sybunt/build", &session)
        .json(&json!({ "from": "2026-01-01", "to": "2026-02-28", "format": "csv" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let job: Value = response.json().await.unwrap();
    let done = app
        .wait_for_job(&session, job["id"].as_i64().unwrap())
        .await;
    worker.stop().await;
    assert_eq!(done["success"], json!(true), "{done}");
    assert_eq!(done["result"]["details"]["rows"], json!(20000), "{done}");
    let file_id = done["result"]["details"]["fileId"].as_i64().unwrap();

    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let chunks: i64 =
        sqlx::query_scalar("select count(*) from report_file_chunks where file_id = $1")
            .bind(file_id)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    tx.commit().await.unwrap();
    assert!(chunks >= 2, "a file over 1 MB is kept in chunks: {chunks}");

    let response = app
        .api(
            Method::GET,
            &format!("/api/report-files/{file_id}"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.bytes().await.unwrap();
    let read = read_csv(&bytes);
    assert_eq!(read.len(), 20000, "every donor, once");
    // The page's first 500 rows are the file's first 500, in the same order (most lifetime giving first).
    let page = report(&app, &session, "sybunt").await;
    assert_eq!(page["totalRows"], json!(20000));
    assert_eq!(read[..500], rows(&page)[..]);
    let mut seen: Vec<&String> = read.iter().map(|r| &r[1]).collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 20000, "no donor twice");
}
