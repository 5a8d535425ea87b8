use super::*;

#[tokio::test]
async fn the_summary_follows_each_written_definition() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    fixture(&app, &client).await;
    let summary = app
        .get_json(&format!("/api/contributions/summary?{MARCH}"), &session)
        .await;
    let share = summary["recurringShare"].as_f64().unwrap();
    assert!((share - 25.0 / 197.5).abs() < 1e-9, "{share}");
    assert_eq!(
        summary,
        json!({
            "from": "2026-03-01", "to": "2026-03-31",
            // 5 + 10 + 25 + 100 (refunded) + 50 + 7.50
            "gross": "197.50",
            // the refunded 100 and the -20 row
            "refunds": "120.00",
            "net": "77.50",
            "fees": "7.60",
            "gifts": 6, "refundedGifts": 1,
            // a, b, c and the contactless x@
            "donors": 4,
            // c gave in February
            "newDonors": 3,
            // 197.50 / 6 = 32.9166…
            "averageGift": "32.92",
            // 5, 7.50, 10 | 25, 50, 100
            "medianGift": "17.50",
            "recurringGross": "25.00",
            "recurringShare": share,
        })
    );
    // Another client sees none of it.
    let other = app.create_client().await;
    let other_session = app.session(&other).await;
    let theirs = app
        .get_json(
            &format!("/api/contributions/summary?{MARCH}"),
            &other_session,
        )
        .await;
    assert_eq!(
        (
            theirs["gross"].as_str(),
            theirs["gifts"].as_i64(),
            theirs["medianGift"].as_str()
        ),
        (Some("0.00"), Some(0), Some("0.00"))
    );
    let (status, message) = json_message(
        app.api(
            Method::GET,
            "/api/contributions/summary?from=2026-03-02&to=2026-03-01",
            &session,
        )
        .send()
        .await
        .unwrap(),
    )
    .await;
    assert_eq!(
        (status, message.as_str()),
        (
            StatusCode::BAD_REQUEST,
            "The start of the range is after its end"
        )
    );
}

/// Distinct donors are read from the month rollup when the range is whole client months (or a month up to a
/// day after which it has no gift) and from the gifts otherwise: both ways give the same count.
#[tokio::test]
async fn donors_are_the_same_count_for_whole_months_and_parts_of_months() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    fixture(&app, &client).await;
    let donors = async |range: &str| {
        app.get_json(&format!("/api/contributions/summary?{range}"), &session)
            .await["donors"]
            .as_i64()
            .unwrap()
    };
    // March 1–15: a (L8, L1, L2) and b (L3, 23:30 on the 15th); L4, L5 and L6 come later in March, so the
    // month's rows (4 donors) do not answer.
    assert_eq!(donors("from=2026-03-01&to=2026-03-15").await, 2);
    // March 2–31: not from the first; a, b, c and x@ all gave after the 1st.
    assert_eq!(donors("from=2026-03-02&to=2026-03-31").await, 4);
    // April 1–15: a's L11 only, and nothing later in April: the month's rows answer.
    assert_eq!(donors("from=2026-04-01&to=2026-04-15").await, 1);
    // February and March: c gave in both months and counts once (a, b, c, x@).
    assert_eq!(donors("from=2026-02-01&to=2026-03-31").await, 4);
    // February 15 – March 31 from the gifts: the same four.
    assert_eq!(donors("from=2026-02-15&to=2026-03-31").await, 4);
    // A refund line alone makes no donor: b's -20 of March 20 (moved to May) leaves May without donors.
    app.exec_in(
        &client,
        "update contributions set paid_at = '2026-05-20 14:00Z' where line_item_id = 'L6'",
    )
    .await;
    assert_eq!(donors("from=2026-05-01&to=2026-05-31").await, 0);
    // A gift moved into February adds its donor there (a: L8 to Feb 27).
    app.exec_in(
        &client,
        "update contributions set paid_at = '2026-02-27 14:00Z' where line_item_id = 'L8'",
    )
    .await;
    assert_eq!(donors("from=2026-02-01&to=2026-02-28").await, 2);
    assert_eq!(donors("from=2026-03-01&to=2026-03-31").await, 4);
}

#[tokio::test]
async fn the_daily_series_groups_by_the_clients_day_beside_the_previous_period() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    fixture(&app, &client).await;
    let series = app
        .get_json(&format!("/api/contributions/series/?{MARCH}"), &session)
        .await;
    let days = series["days"].as_array().unwrap();
    assert_eq!(days.len(), 31);
    let day = |date: &str| days.iter().find(|d| d["date"] == date).unwrap().clone();
    assert_eq!(
        day("2026-03-15"),
        json!({ "date": "2026-03-15", "gross": "125.00", "net": "25.00", "gifts": 2,
                "previousDate": "2026-02-12", "previousNet": "0.00", "previousGifts": 0 })
    );
    assert_eq!(day("2026-03-20")["net"], "-12.50");
    assert_eq!(day("2026-03-01")["gross"], "5.00");
    // The previous period is Jan 29 – Feb 28: Mar 31 sits beside Feb 28 (L9, 23:50 in New York).
    assert_eq!(
        (
            day("2026-03-31")["previousDate"].clone(),
            day("2026-03-31")["previousNet"].clone()
        ),
        (json!("2026-02-28"), json!("3.00"))
    );
    assert_eq!(day("2026-03-13")["previousNet"], "5.00");
    assert_eq!(days[0]["previousDate"], "2026-01-29");
}

#[tokio::test]
async fn breakdowns_split_the_range_by_channel_code_page_and_band() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let fx = fixture(&app, &client).await;
    let b = app
        .get_json(&format!("/api/contributions/breakdowns?{MARCH}"), &session)
        .await;
    let row = |key: &str, gifts: i64, donors: i64, gross: &str, net: &str| json!({ "key": key, "gifts": gifts, "donors": donors, "gross": gross, "net": net });
    let strip = |rows: &Value| -> Vec<Value> {
        rows.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let mut r = r.clone();
                r.as_object_mut().unwrap().remove("sourceCodeId");
                r
            })
            .collect()
    };
    assert_eq!(
        strip(&b["channels"]),
        vec![
            row("unparsed", 1, 1, "100.00", "0.00"),
            // L4, L5, L8 and the -20 row
            row("none", 3, 3, "62.50", "42.50"),
            row("em", 2, 1, "35.00", "35.00"),
        ]
    );
    assert_eq!(b["sourceCodes"][2]["sourceCodeId"], fx.s1);
    assert_eq!(b["sourceCodes"][2]["key"], "em_20260301_spring_a");
    assert_eq!(b["sourceCodes"][0]["sourceCodeId"], fx.s2);
    assert_eq!(strip(&b["pages"])[1], row("main", 1, 1, "50.00", "50.00"));
    assert_eq!(
        strip(&b["bands"]),
        vec![
            row("Refunds and adjustments", 0, 0, "0.00", "-20.00"),
            row("Under $25", 3, 2, "22.50", "22.50"),
            row("$25–49.99", 1, 1, "25.00", "25.00"),
            row("$50–99.99", 1, 1, "50.00", "50.00"),
            row("$100–249.99", 1, 1, "100.00", "0.00"),
        ]
    );
}
