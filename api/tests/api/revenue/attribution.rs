use super::*;

#[tokio::test]
async fn mailings_carry_revenue_response_rate_and_rpm() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let fx = fixture(&app, &client).await;
    let mailing = app
        .get_json(&format!("/api/crm-mailing/{}", fx.mailing), &session)
        .await;
    // L1 and L2 by refcode; 4 of 5 recipients delivered (one bounced).
    assert_eq!(
        (
            &mailing["delivered"],
            &mailing["revenue"],
            &mailing["gifts"],
            &mailing["donors"],
            &mailing["responseRate"],
            &mailing["rpm"]
        ),
        (
            &json!(4),
            &json!("35.00"),
            &json!(2),
            &json!(1),
            &json!(0.5),
            &json!("8750.00")
        )
    );
    let all = app.get_json("/api/crm-mailing", &session).await;
    assert_eq!(all[0]["rpm"], "8750.00");
}

#[tokio::test]
async fn a_contacts_giving_names_its_category() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let fx = fixture(&app, &client).await;
    let giving = |id: i64| {
        let app = &app;
        let session = &session;
        async move {
            app.get_json(&format!("/api/contacts/{id}/giving"), session)
                .await
        }
    };
    let a = giving(fx.a).await;
    assert_eq!(
        a["summary"],
        json!({
            "firstGift": "2026-03-01T05:10:00+00:00", "lastGift": "2026-04-01T04:30:00+00:00",
            "hpc": "1000.00", "mrc": "1000.00", "total": "1040.00", "count": 4,
            "sustainer": false, "category": "repeat donor",
        })
    );
    assert_eq!(a["gifts"].as_array().unwrap().len(), 4);
    assert_eq!(a["gifts"][0]["lineItemId"], "L11");
    // B's only gift was refunded, and a -20 row followed.
    let b = giving(fx.b).await;
    assert_eq!(
        (
            &b["summary"]["hpc"],
            &b["summary"]["total"],
            &b["summary"]["count"],
            &b["summary"]["category"]
        ),
        (
            &Value::Null,
            &json!("-20.00"),
            &json!(1),
            &json!("first-time donor")
        )
    );
    assert_eq!(giving(fx.d).await["summary"]["category"], "sustainer");
    assert_eq!(giving(fx.d).await["summary"]["sustainer"], true);
    assert_eq!(giving(fx.e).await["summary"]["category"], "lapsed");
    assert_eq!(giving(fx.f).await["summary"]["category"], "repeat donor");
    assert_eq!(giving(fx.f).await["summary"]["mrc"], "30.00");
    let (status, _) = json_message(
        app.api(Method::GET, "/api/contacts/999999/giving", &session)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let categories = app
        .get_json("/api/selection/contact-categories", &session)
        .await;
    assert_eq!(categories.as_array().unwrap().len(), 5);
    let codes = app
        .get_json("/api/selection/contribcode-names", &session)
        .await;
    assert_eq!(
        codes[0],
        json!({ "id": fx.s1, "label": "em_20260301_spring_a" })
    );
}

#[tokio::test]
async fn origin_codes_show_what_their_contacts_gave() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    fixture(&app, &client).await;
    let range = "from=2026-02-01&to=2026-03-31";
    let value = app
        .get_json(
            &format!("/api/external-origin-code/value?{range}"),
            &session,
        )
        .await;
    let items = value["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{items:?}");
    let web = &items[0];
    let share = web["donorShare"].as_f64().unwrap();
    assert!((share - 2.0 / 3.0).abs() < 1e-9);
    // a (40 within 30 days; the April 1000 is 35 days after arriving), b (-20), g (nothing).
    assert_eq!(
        (
            &web["name"],
            &web["acquired"],
            &web["stillSubscribed"],
            &web["donors"],
            &web["revenue30"],
            &web["revenue90"],
            &web["revenueAll"],
            &web["revenuePerContact"]
        ),
        (
            &json!("web"),
            &json!(3),
            &json!(2),
            &json!(2),
            &json!("20.00"),
            &json!("1020.00"),
            &json!("1020.00"),
            &json!("340.00")
        )
    );
    let weeks = app
        .get_json(
            &format!("/api/external-origin-code/acquisition?{range}"),
            &session,
        )
        .await;
    let weeks: Vec<(String, i64)> = weeks
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["week"].as_str().unwrap().to_owned(),
                w["contacts"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        weeks,
        [("2026-02-23".to_owned(), 1), ("2026-03-09".to_owned(), 2)]
    );
}

/// Issue 27, item 2: a donor imported long after giving is acquired at their first gift (and a form signup before
/// the contact was made counts too), so the 30 / 90 / 365-day windows are less than all.
#[tokio::test]
async fn issue_27_origin_code_windows_start_at_a_contacts_earliest_known_moment() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    // A: imported 2026-03-10, first gift 2025-10-01. B: imported 2026-03-10, signed up 2026-01-01. C: no gift.
    app.exec_in(
        &client,
        "insert into origin_codes (name) values ('actblue');
         insert into contacts (email, origin_code_id, created)
         select e, (select id from origin_codes where name = 'actblue'), '2026-03-10 12:00Z'
         from unnest(array['a@example.org', 'b@example.org', 'c@example.org']) e;
         insert into external_signups (contact_id, email, created)
         select id, email, '2026-01-01 12:00Z' from contacts where email = 'b@example.org';
         insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email)
         select 'actblue', x.line, x.paid::timestamptz, x.amount, c.id, c.email
         from (values ('A1', '2025-10-01 12:00Z', 100.00, 'a@example.org'),
                      ('A2', '2025-10-20 12:00Z', 50.00, 'a@example.org'),
                      ('A3', '2025-12-15 12:00Z', 25.00, 'a@example.org'),
                      ('A4', '2026-03-12 12:00Z', 10.00, 'a@example.org'),
                      ('A5', '2026-10-15 12:00Z', 10.00, 'a@example.org'),
                      ('B1', '2026-02-15 12:00Z', 40.00, 'b@example.org'))
              as x (line, paid, amount, email)
         join contacts c on c.email = x.email;",
    )
    .await;
    let value = app
        .get_json(
            "/api/external-origin-code/value?from=2026-03-01&to=2026-03-31",
            &session,
        )
        .await;
    let items = value["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{items:?}");
    let v = &items[0];
    // A: 30 days from 2025-10-01 hold 150, 90 days 175, 365 days 185 (A5 is 379 days on), all 195.
    // B: acquired at the signup; B1 is 45 days on: 0, 40, 40, 40.
    assert_eq!(
        (
            &v["acquired"],
            &v["donors"],
            &v["revenue30"],
            &v["revenue90"],
            &v["revenue365"],
            &v["revenueAll"],
            &v["revenuePerContact"]
        ),
        (
            &json!(3),
            &json!(2),
            &json!("150.00"),
            &json!("215.00"),
            &json!("225.00"),
            &json!("235.00"),
            &json!("78.33")
        )
    );
    // A range of 92 days or more joins the gifts in one pass instead of reading them contact by contact; the
    // same three contacts must come out the same.
    let long = app
        .get_json(
            "/api/external-origin-code/value?from=2025-06-01&to=2026-12-31",
            &session,
        )
        .await;
    assert_eq!(long["items"], value["items"]);
    // The acquisition report shows the page's figures (its windows had counted from the import: A's 30 days
    // held only A4, 10.00).
    let report = app
        .get_json(
            "/api/reports/acquisition?from=2026-03-01&to=2026-03-31",
            &session,
        )
        .await;
    assert_eq!(
        report["rows"],
        json!([[
            "actblue", "3", "3", "2", "0.6667", "150.00", "215.00", "225.00", "235.00", "78.33"
        ]])
    );
}
