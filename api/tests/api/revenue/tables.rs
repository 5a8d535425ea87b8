use super::*;

#[tokio::test]
async fn the_gift_table_pages_sorts_filters_and_exports() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let fx = fixture(&app, &client).await;
    let page = app
        .get_json(
            &format!("/api/contributions?{MARCH}&sort=amount&order=asc&pageSize=2&page=1"),
            &session,
        )
        .await;
    assert_eq!(page["total"], 7);
    let ids: Vec<&str> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["lineItemId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["L6", "L8"]);
    let lines = |v: Value| -> Vec<String> {
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["lineItemId"].as_str().unwrap().to_owned())
            .collect()
    };
    let by_code = app
        .get_json(
            &format!("/api/contributions?{MARCH}&sourceCodeId={}", fx.s1),
            &session,
        )
        .await;
    assert_eq!(lines(by_code.clone()), ["L2", "L1"]);
    assert_eq!(by_code["items"][0]["mailingName"], "Spring appeal");
    assert_eq!(by_code["items"][0]["recurring"], true);
    assert_eq!(by_code["items"][0]["amount"], "25.00");
    let refunded = app
        .get_json(
            &format!("/api/contributions?{MARCH}&refunded=true"),
            &session,
        )
        .await;
    assert_eq!(lines(refunded), ["L3"]);
    let recurring = app
        .get_json(
            &format!("/api/contributions?{MARCH}&recurring=true"),
            &session,
        )
        .await;
    assert_eq!(lines(recurring), ["L2"]);
    let text = app
        .get_json(&format!("/api/contributions?{MARCH}&q=X@EXAMPLE"), &session)
        .await;
    assert_eq!(lines(text), ["L5"]);

    let csv = app
        .api(
            Method::GET,
            &format!("/api/contributions/export/csv?{MARCH}&sort=amount"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), StatusCode::OK);
    assert_eq!(
        csv.headers()["content-disposition"],
        "attachment; filename=\"contributions-2026-03-01-2026-03-31.csv\""
    );
    let body = csv.text().await.unwrap();
    let rows: Vec<&str> = body.lines().collect();
    assert_eq!(rows.len(), 8);
    // Issue 27 item 9: the header names the zone the times are written in.
    assert!(
        rows[0].starts_with(
            "Paid at (America/New_York),Platform,Lineitem ID,Amount,Fee,Reference Code"
        ),
        "{}",
        rows[0]
    );
    assert_eq!(
        rows[1],
        "2026-03-01 00:10:00,actblue,L8,5.00,0.20,,,no,no,a@example.org,,,,none"
    );
    let l3 = rows.iter().find(|r| r.contains(",L3,")).unwrap();
    assert_eq!(
        *l3,
        "2026-03-15 23:30:00,actblue,L3,100.00,4.00,fbad,,no,yes,b@example.org,,,,none"
    );
    let l5 = rows.iter().find(|r| r.contains(",L5,")).unwrap();
    assert!(l5.contains(",'=cmd|x,"), "{l5}");

    let xlsx = app
        .api(
            Method::GET,
            &format!("/api/contributions/export/xlsx?{MARCH}"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(xlsx.status(), StatusCode::OK);
    assert_eq!(
        xlsx.headers()["content-type"],
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    );
    let bytes = xlsx.bytes().await.unwrap();
    assert_eq!(&bytes[..2], b"PK");
    // The time column is a real date cell in the client's zone, under a header that names the zone.
    use calamine::{Data, Reader, Xlsx};
    let mut book = Xlsx::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let sheet = book.worksheet_range_at(0).unwrap().unwrap();
    assert_eq!(
        sheet.get((0, 0)),
        Some(&Data::String("Paid at (America/New_York)".to_owned()))
    );
    match sheet.get((1, 0)) {
        // 2026-03-01 is day 46,082 of Excel's calendar; 00:10 is 10 / 1,440 of a day.
        Some(Data::DateTime(t)) => assert!(
            (t.as_f64() - (46_082.0 + 10.0 / 1440.0)).abs() < 1e-6,
            "{}",
            t.as_f64()
        ),
        other => panic!("not a date cell: {other:?}"),
    }
}

#[tokio::test]
async fn source_codes_show_parts_money_and_what_they_are_tied_to() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let fx = fixture(&app, &client).await;
    let table = app
        .get_json(&format!("/api/contribution-source-codes?{MARCH}"), &session)
        .await;
    let items = table["items"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(
        items[1],
        json!({
            "id": fx.s1, "code": "em_20260301_spring_a", "parsed": true, "channel": "em",
            "codeDate": null, "campaign": "spring", "variant": null,
            "gifts": 2, "donors": 1, "gross": "35.00", "net": "35.00", "averageGift": "17.50",
            "firstGift": "2026-03-02T15:00:00+00:00", "lastGift": "2026-03-15T16:00:00+00:00",
            "mailingId": fx.mailing, "mailingName": "Spring appeal", "formId": null, "formName": null,
            "giftsBeforeSend": 0,
        })
    );
    assert_eq!(
        (
            items[0]["id"].as_i64(),
            items[0]["net"].as_str(),
            items[0]["averageGift"].as_str()
        ),
        (Some(fx.s2), Some("0.00"), Some("100.00"))
    );
    assert_eq!(
        (
            items[2]["id"].as_i64(),
            items[2]["gifts"].as_i64(),
            items[2]["gross"].as_str()
        ),
        (Some(fx.s3), Some(0), Some("0.00"))
    );
    let groups = app
        .get_json(
            &format!("/api/contribution-source-codes/groups?by=channel&{MARCH}"),
            &session,
        )
        .await;
    assert_eq!(
        groups,
        json!([
            { "key": "unparsed", "codes": 1, "gifts": 1, "donors": 1, "gross": "100.00", "net": "0.00",
              "averageGift": "100.00" },
            { "key": "em", "codes": 1, "gifts": 2, "donors": 1, "gross": "35.00", "net": "35.00",
              "averageGift": "17.50" },
        ])
    );
}
