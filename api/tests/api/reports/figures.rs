use super::*;

#[tokio::test]
async fn each_report_equals_its_hand_computation() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    load_fixture(&app, &client).await;

    let catalog = app.get_json("/api/reports", &session).await;
    let keys: Vec<&str> = catalog
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "monthly-summary",
            "lybunt",
            "sybunt",
            "source-codes",
            "mailings",
            "flights",
            "acquisition",
            "media-roas"
        ]
    );

    // Jan: gifts 1, 3, 5 (line 5 is 22:30 on Jan 31 in New York); donors a, b, x; new a, x (b first gave 2025);
    // gift 3 refunded. Feb: gifts 2, 4; line 6 a refund of 10; donors a, c; new c.
    let monthly = report(&app, &session, "monthly-summary").await;
    assert_eq!(
        rows(&monthly),
        vec![
            row(&["2026-01", "3", "3", "2", "190.00", "100.00", "90.00", "7.50", "0.00", "63.33"]),
            row(&["2026-02", "2", "2", "1", "35.00", "10.00", "25.00", "1.50", "25.00", "17.50"]),
            row(&["Total", "5", "4", "3", "225.00", "110.00", "115.00", "9.00", "25.00", "45.00"]),
        ]
    );
    // Whole months read their donors from the month rollup; a range ending before a later gift of its last month
    // (c on Feb 15) counts them from the gifts: February to the 10th has only a, and the total a, b and x.
    let part = app
        .get_json(
            "/api/reports/monthly-summary?from=2026-01-01&to=2026-02-10",
            &session,
        )
        .await;
    assert_eq!(
        rows(&part),
        vec![
            row(&["2026-01", "3", "3", "2", "190.00", "100.00", "90.00", "7.50", "0.00", "63.33"]),
            row(&["2026-02", "1", "1", "0", "25.00", "0.00", "25.00", "1.00", "25.00", "25.00"]),
            row(&["Total", "4", "3", "2", "215.00", "100.00", "115.00", "8.50", "25.00", "53.75"]),
        ]
    );

    // As of Feb 28, 2026: b gave in 2025 and only a refunded gift in 2026; d gave in 2025; e last in 2024.
    let lybunt = report(&app, &session, "lybunt").await;
    let (b, d, e) = (
        contact_id(&app, &client, "b@example.org").await,
        contact_id(&app, &client, "d@example.org").await,
        contact_id(&app, &client, "e@example.org").await,
    );
    let lapsed = |id: i64,
                  email: &str,
                  first: &str,
                  last: &str,
                  day: &str,
                  year: &str,
                  life: &str,
                  sub: &str| {
        row(&[
            &id.to_string(),
            email,
            first,
            last,
            day,
            "1",
            year,
            life,
            sub,
        ])
    };
    let b_row = lapsed(
        b,
        "b@example.org",
        "Bob",
        "B",
        "2025-03-01",
        "60.00",
        "60.00",
        "unsubscribed",
    );
    let d_row = lapsed(
        d,
        "d@example.org",
        "Di",
        "D",
        "2025-06-01",
        "30.00",
        "30.00",
        "subscribed",
    );
    let e_row = lapsed(
        e,
        "e@example.org",
        "Ed",
        "E",
        "2024-03-01",
        "0.00",
        "20.00",
        "subscribed",
    );
    assert_eq!(rows(&lybunt), vec![b_row.clone(), d_row.clone()]);
    assert_eq!(lybunt["totalRows"], json!(2));
    let sybunt = report(&app, &session, "sybunt").await;
    assert_eq!(rows(&sybunt), vec![b_row.clone(), d_row.clone(), e_row]);
    assert_eq!(sybunt["totalRows"], json!(3));

    let codes = report(&app, &session, "source-codes").await;
    assert_eq!(
        rows(&codes),
        vec![
            row(&[
                "em_20260105_jan_a",
                "em",
                "jan",
                "January appeal",
                "2",
                "1",
                "75.00",
                "0.00",
                "75.00",
                "37.50"
            ]),
            row(&["fb_x", "unparsed", "", "", "2", "2", "110.00", "110.00", "0.00", "55.00"]),
        ]
    );

    // 4 recipients, c bounced: delivered 3. One human opener (a; b's open was a machine's): 1/4. One clicker
    // and one unsubscribe over 3 delivered. Gifts 1 and 2: revenue 75, RPM 75 × 1000 / 3, response 2/3.
    let mailings = report(&app, &session, "mailings").await;
    assert_eq!(
        rows(&mailings),
        vec![row(&[
            "January appeal",
            "2026-01-05",
            "4",
            "3",
            "1",
            "1",
            "0.2500",
            "1",
            "0.3333",
            "1",
            "0.3333",
            "2",
            "1",
            "75.00",
            "25000.00",
            "0.6667"
        ])]
    );
    // The report's send and event figures are the mailing page's (one definition: unsubscribes are events).
    let mailing_id: i64 = app
        .scalar_in(
            &client,
            "select id from mailings where name = 'January appeal'",
        )
        .await;
    let stats = app
        .get_json(&format!("/api/crm-mailing/{mailing_id}/stats"), &session)
        .await;
    let page: Vec<String> = [
        "recipients",
        "delivered",
        "bounced",
        "uniqueOpens",
        "uniqueClicks",
        "unsubscribes",
    ]
    .iter()
    .map(|k| stats[*k].to_string())
    .collect();
    let report_row = &rows(&mailings)[0];
    assert_eq!(
        page,
        [2, 3, 4, 5, 7, 9].map(|i| report_row[i].clone()).to_vec()
    );

    // web: a (Jan 2; gave 50 on Jan 10, 25 on Feb 3 = day 32) and f (no gifts); ads: c (10 then a 10 refund).
    let acquisition = report(&app, &session, "acquisition").await;
    assert_eq!(
        rows(&acquisition),
        vec![
            row(&["web", "2", "2", "1", "0.5000", "50.00", "75.00", "75.00", "75.00", "37.50"]),
            row(&["ads", "1", "1", "1", "1.0000", "0.00", "0.00", "0.00", "0.00", "0.00"]),
        ]
    );
    // A range of 92 days or more joins the gifts in one pass instead of reading them contact by contact; it
    // holds no other new contact here, so the rows are the same.
    let long = app
        .get_json(
            "/api/reports/acquisition?from=2025-06-01&to=2026-02-28",
            &session,
        )
        .await;
    assert_eq!(rows(&long), rows(&acquisition));

    // Every report's CSV and XLSX read back equal the page.
    for kind in keys {
        let page = report(&app, &session, kind).await;
        let expected = rows(&page);
        let kinds: Vec<String> = page["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["kind"].as_str().unwrap().to_owned())
            .collect();
        let csv_bytes = download(&app, &session, kind, "csv").await;
        assert_eq!(read_csv(&csv_bytes), expected, "{kind} csv");
        // A day is a day of the client's zone, and the file says which (issue 27).
        let header: Vec<String> = page["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| match c["kind"].as_str().unwrap() {
                "date" => format!("{} (America/New_York)", c["label"].as_str().unwrap()),
                _ => c["label"].as_str().unwrap().to_owned(),
            })
            .collect();
        let mut reader = csv::Reader::from_reader(csv_bytes.as_slice());
        let read: Vec<String> = reader
            .headers()
            .unwrap()
            .iter()
            .map(str::to_owned)
            .collect();
        assert_eq!(read, header, "{kind} csv header");
        let xlsx_rows = read_xlsx(&download(&app, &session, kind, "xlsx").await, &kinds);
        assert_eq!(xlsx_rows, expected, "{kind} xlsx");
    }
}

/// The lapsed reports count and list donors from their giving rollup without joining their contacts: a deleted
/// contact's gifts lose it, so it leaves both the count and the rows at once.
#[tokio::test]
async fn a_deleted_contact_leaves_the_lapsed_reports() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    load_fixture(&app, &client).await;
    let ids =
        |table: &Value| -> Vec<String> { rows(table).into_iter().map(|r| r[0].clone()).collect() };
    let b = contact_id(&app, &client, "b@example.org").await.to_string();
    let d = contact_id(&app, &client, "d@example.org").await.to_string();
    let e = contact_id(&app, &client, "e@example.org").await.to_string();
    let sybunt = report(&app, &session, "sybunt").await;
    assert_eq!(ids(&sybunt), vec![b.clone(), d.clone(), e]);

    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("delete from contacts where email in ('d@example.org', 'e@example.org')")
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let lybunt = report(&app, &session, "lybunt").await;
    assert_eq!(ids(&lybunt), vec![b.clone()]);
    assert_eq!(lybunt["totalRows"], json!(1));
    let sybunt = report(&app, &session, "sybunt").await;
    assert_eq!(ids(&sybunt), vec![b]);
    assert_eq!(sybunt["totalRows"], json!(1));
}

async fn download(app: &TestApp, session: &Session, kind: &str, format: &str) -> Vec<u8> {
    let response = app
        .api(
            Method::GET,
            &format!("/api/reports/{kind}/file?format={format}&{RANGE}"),
            session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        disposition,
        format!("attachment; filename=\"{kind}-2026-01-01-2026-02-28.{format}\"")
    );
    response.bytes().await.unwrap().to_vec()
}
