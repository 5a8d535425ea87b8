use super::*;

#[tokio::test]
async fn winred_refund_rows_mark_their_gift_and_a_mapped_file_goes_through_the_same_merge() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let winred = "Transaction ID,Date,Type,Amount,Fee,Email,First Name,Last Name,Source Code,Page Name,Original Transaction ID\n\
                  W1,03/01/2026 10:00 AM,Donation,$50.00,1.80,ann@example.org,Ann,Lee,fb_20260301_spring_a,spring,\n\
                  W2,03/02/2026 11:30 AM,Donation,20.00,0.90,bob@example.org,Bob,Diaz,,spring,\n\
                  R1,03/05/2026 09:00 AM,Refund,-50.00,0,ann@example.org,Ann,Lee,,spring,W1\n\
                  P1,03/06/2026 09:00 AM,Payout,-68.20,0,,,,,,\n\
                  F1,03/07/2026 09:00 AM,Dispute,0.00,15.00,bob@example.org,Bob,Diaz,,spring,W2\n";
    let job = import(
        &app,
        &session,
        "winred",
        "winred.csv",
        winred.as_bytes().to_vec(),
    )
    .await;
    let d = details(&job);
    assert_eq!(
        (d["rowsRead"].as_i64(), d["newLines"].as_i64()),
        (Some(5), Some(2))
    );
    assert_eq!(d["skipped"]["notAGift"]["rows"], serde_json::json!([5]));
    assert_eq!(d["skipped"]["zeroAmount"]["rows"], serde_json::json!([6]));
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let rows: Vec<(String, String, String, Option<String>, String)> = sqlx::query_as(
        "select platform, line_item_id, amount::text, refund_id,
                to_char(paid_at at time zone 'America/New_York', 'YYYY-MM-DD HH24:MI')
         from contributions order by line_item_id",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    assert_eq!(
        rows,
        vec![
            (
                "winred".into(),
                "W1".into(),
                "50.00".into(),
                Some("R1".into()),
                "2026-03-05 09:00".into()
            ),
            (
                "winred".into(),
                "W2".into(),
                "20.00".into(),
                None,
                "2026-03-02 11:30".into()
            ),
        ]
    );
    let origin: String = sqlx::query_scalar(
        "select o.name from contacts c join origin_codes o on o.id = c.origin_code_id where c.email = 'bob@example.org'",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    assert_eq!(origin, "winred");
    drop(tx);

    // Another platform's file, read through a mapping.
    let csv = "Gift Ref;When;Total;E-mail\nX-1;2026-03-09 12:00:00;12.34;cy@example.org\nX-2;2026-03-09 13:00:00;1,000.00;cy@example.org\n";
    let mapping = r#"{"Gift Ref":"line_item_id","When":"date","Total":"amount","E-mail":"email"}"#;
    let form = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(csv.as_bytes().to_vec()).file_name("other.csv"),
        )
        .text("platform", "mapped")
        .text("mapping", mapping);
    let response = app
        .api(Method::POST, "/api/contributions/import", &session)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let job: Value = response.json().await.unwrap();
    let job = app
        .wait_for_job(&session, job["id"].as_i64().unwrap())
        .await;
    assert_eq!(details(&job)["newLines"], 2);
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let total: String =
        sqlx::query_scalar("select sum(amount)::text from contributions where platform = 'other'")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    assert_eq!(total, "1012.34");

    // A mapping without the required fields is refused before anything is stored.
    let form = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(csv.as_bytes().to_vec()).file_name("other.csv"),
        )
        .text("platform", "mapped")
        .text("mapping", r#"{"Gift Ref":"line_item_id","When":"date"}"#);
    let response = app
        .api(Method::POST, "/api/contributions/import", &session)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(response).await,
        (StatusCode::BAD_REQUEST, "Map a column to Amount".to_owned())
    );
}
