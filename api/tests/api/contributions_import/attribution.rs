use super::*;

#[tokio::test]
async fn gifts_are_credited_by_refcode_then_by_the_last_human_click_in_the_window() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let mut mailing = Vec::new();
    for name in ["March appeal", "Match week"] {
        let id: i64 = sqlx::query_scalar(
            "insert into mailings (name, subject_line, send_time, is_draft, send_attempt, delivery)
             values ($1, $1, '2026-03-09 15:00:00+00', false, '2026-03-09 15:00:00+00', 'done')
             returning id",
        )
        .bind(name)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        mailing.push(id);
    }
    // Rule 1 at send: the donation link gets the mailing's code, recorded as a source code tied to it.
    let body = "<a href=\"https://secure.actblue.com/donate/spring?amount=25\">Give</a> <a href=\"https://example.org\">Read</a>";
    let tagged = mail::links::refcode_donation_links(&mut tx, mailing[0], "a", body)
        .await
        .unwrap();
    let code = format!("em_20260309_{}_a", mailing[0]);
    assert!(
        tagged.contains(&format!(
            "https://secure.actblue.com/donate/spring?amount=25&amp;refcode={code}\""
        )),
        "{tagged}"
    );
    assert!(tagged.contains("href=\"https://example.org\""));
    let tied: Option<i64> =
        sqlx::query_scalar("select mailing_id from source_codes where code = $1")
            .bind(&code)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    assert_eq!(tied, Some(mailing[0]));

    let mut contact = Vec::new();
    for email in ["ann@example.org", "bob@example.org", "cy@example.org"] {
        let id: i64 = sqlx::query_scalar("insert into contacts (email) values ($1) returning id")
            .bind(email)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        contact.push(id);
    }
    // Gifts are at 2026-03-10 12:00 UTC. Ann clicked Match week too, but her gift carries Appeal's code.
    // Bob's last human click (a day before) is Match week; a scanner's later click on Appeal does not count.
    // Cy clicked five days before: outside the 3-day window.
    for (mailing_id, contact_id, at, machine) in [
        (mailing[1], contact[0], "2026-03-10 11:00:00+00", false),
        (mailing[0], contact[1], "2026-03-08 12:00:00+00", false),
        (mailing[1], contact[1], "2026-03-09 12:00:00+00", false),
        (mailing[0], contact[1], "2026-03-10 11:59:00+00", true),
        (mailing[1], contact[1], "2026-03-10 13:00:00+00", false),
        (mailing[0], contact[2], "2026-03-05 12:00:00+00", false),
    ] {
        sqlx::query(
            "insert into mailing_events (mailing_id, contact_id, kind, machine, created)
             values ($1, $2, 'click', $4, $3::timestamptz)",
        )
        .bind(mailing_id)
        .bind(contact_id)
        .bind(at)
        .bind(machine)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();

    let csv = format!(
        "Lineitem ID,Date,Amount,Donor Email,Reference Code\n\
         1,2026-03-10T12:00:00+00:00,25.00,ann@example.org,{code}\n\
         2,2026-03-10T12:00:00+00:00,10.00,bob@example.org,homepage\n\
         3,2026-03-10T12:00:00+00:00,15.00,cy@example.org,\n\
         4,2026-03-10T12:00:00+00:00,20.00,dee@example.org,\n"
    );
    let job = import(&app, &session, "actblue", "export.csv", csv.into_bytes()).await;
    assert_eq!(
        details(&job)["attributed"],
        serde_json::json!({ "refcode": 1, "click": 1 })
    );
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let credited: Vec<(String, Option<i64>, String)> = sqlx::query_as(
        "select line_item_id, mailing_id, attribution from contributions order by line_item_id",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    assert_eq!(
        credited,
        vec![
            ("1".into(), Some(mailing[0]), "refcode".into()),
            ("2".into(), Some(mailing[1]), "click".into()),
            ("3".into(), None, "none".into()),
            ("4".into(), None, "none".into()),
        ]
    );
}

/// Issue 27, item 1: a refcode credits a gift to its mailing only when the gift was paid at or after the mailing
/// reached the giver (their recipient row), or after the send started for a giver who was not mailed. A mailing not
/// sent (confirmed for later, or a draft) has no revenue; the early gifts show on Source Codes.
#[tokio::test]
async fn issue_27_a_refcode_credits_an_imported_gift_only_after_its_mailing_reached_the_giver() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    app.exec_in(
        &client,
        "insert into contacts (email) values ('ann@example.org'), ('bob@example.org'), ('cy@example.org');
         insert into mailings (name, subject_line, is_draft, send_time, send_attempt, delivery) values
             ('Spring appeal', 'S', false, '2026-03-09 15:00Z', '2026-03-09 15:00Z', 'done'),
             ('November appeal', 'N', false, '2026-04-01 15:00Z', null, 'idle'),
             ('Year-end draft', 'D', true, '2026-05-01 15:00Z', null, 'idle');
         insert into mailing_recipients (mailing_id, contact_id, email, status, sent_at)
         select m.id, c.id, c.email, 'sent', '2026-03-09 16:00Z' from mailings m, contacts c
         where m.name = 'Spring appeal' and c.email = 'ann@example.org';
         insert into source_codes (code, parsed, mailing_id)
         select x.code, false, m.id
         from (values ('em_spring_a', 'Spring appeal'), ('em_november_a', 'November appeal'),
                      ('em_yearend_a', 'Year-end draft')) x (code, mailing)
         join mailings m on m.name = x.mailing;",
    )
    .await;
    let id = |name: &str| format!("select id from mailings where name = '{name}'");
    let spring = app.scalar_in(&client, &id("Spring appeal")).await;
    let november = app.scalar_in(&client, &id("November appeal")).await;
    let draft = app.scalar_in(&client, &id("Year-end draft")).await;

    // Ann was mailed at 16:00: her 15:30 gift came before the mailing reached her. Bob was not mailed: the send
    // started at 15:00, so his 14:00 gift is early and his 15:00 one is the mailing's.
    let csv = "Lineitem ID,Date,Amount,Donor Email,Reference Code\n\
               1,2026-03-09T15:30:00+00:00,10.00,ann@example.org,em_spring_a\n\
               2,2026-03-09T16:30:00+00:00,20.00,ann@example.org,em_spring_a\n\
               3,2026-03-09T14:00:00+00:00,30.00,bob@example.org,em_spring_a\n\
               4,2026-03-09T15:00:00+00:00,40.00,bob@example.org,em_spring_a\n\
               5,2026-03-10T12:00:00+00:00,50.00,cy@example.org,em_november_a\n\
               6,2026-03-10T12:00:00+00:00,60.00,cy@example.org,em_yearend_a\n";
    let job = import(
        &app,
        &session,
        "actblue",
        "export.csv",
        csv.as_bytes().to_vec(),
    )
    .await;
    assert_eq!(
        details(&job)["attributed"],
        serde_json::json!({ "refcode": 2, "click": 0 })
    );
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let credited: Vec<(String, Option<i64>, String, Option<String>)> = sqlx::query_as(
        "select line_item_id, mailing_id, attribution, refcode from contributions order by line_item_id",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let spring_code = Some("em_spring_a".to_owned());
    assert_eq!(
        credited,
        vec![
            ("1".into(), None, "none".into(), spring_code.clone()),
            (
                "2".into(),
                Some(spring),
                "refcode".into(),
                spring_code.clone()
            ),
            ("3".into(), None, "none".into(), spring_code.clone()),
            ("4".into(), Some(spring), "refcode".into(), spring_code),
            (
                "5".into(),
                None,
                "none".into(),
                Some("em_november_a".into())
            ),
            ("6".into(), None, "none".into(), Some("em_yearend_a".into())),
        ]
    );

    let figures = |m: Value| (m["gifts"].clone(), m["revenue"].clone());
    let mailing = |id: i64| {
        let (app, session) = (&app, &session);
        async move {
            figures(
                app.get_json(&format!("/api/crm-mailing/{id}"), session)
                    .await,
            )
        }
    };
    assert_eq!(
        mailing(spring).await,
        (serde_json::json!(2), serde_json::json!("60.00"))
    );
    for unsent in [november, draft] {
        assert_eq!(
            mailing(unsent).await,
            (serde_json::json!(0), serde_json::json!("0.00")),
            "mailing {unsent}"
        );
    }
    // The gift rollups of Email › Performance agree with a recount.
    assert_eq!(
        crate::flight_gifts::differences(&app, &client, &[spring, november, draft]).await,
        Vec::<String>::new()
    );

    // Source Codes: every gift stays with its code; the early ones are counted apart, per code and in all.
    let codes = app
        .get_json(
            "/api/contribution-source-codes?from=2026-03-01&to=2026-03-31",
            &session,
        )
        .await;
    let row = |code: &str| {
        let r = codes["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["code"] == code)
            .unwrap_or_else(|| panic!("no {code}: {codes}"));
        (r["gifts"].as_i64(), r["giftsBeforeSend"].as_i64())
    };
    assert_eq!(row("em_spring_a"), (Some(4), Some(2)));
    assert_eq!(row("em_november_a"), (Some(1), Some(1)));
    assert_eq!(row("em_yearend_a"), (Some(1), Some(1)));
    assert_eq!(codes["giftsBeforeSend"], 4);
}

/// Issue 27, item 1, through the ActBlue webhook: the same rule as the import.
#[tokio::test]
async fn issue_27_the_webhook_credits_a_refcode_only_after_its_mailing_was_sent() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let settings = app.get_json("/api", &session).await;
    let response = app
        .api(Method::PATCH, &format!("/api/{}", settings["id"]), &session)
        .json(&serde_json::json!({
            "actblueWebhookUsername": "actblue",
            "actblueWebhookPassword": "long-enough-secret"
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    // The fixture's gifts were paid at 2026-04-01 03:41 UTC: after "Early match" went out, before "Late match".
    app.exec_in(
        &client,
        "insert into mailings (name, subject_line, is_draft, send_time, send_attempt, delivery) values
             ('Early match', 'E', false, '2026-03-31 12:00Z', '2026-03-31 12:00Z', 'done'),
             ('Late match', 'L', false, '2026-04-01 12:00Z', '2026-04-01 12:00Z', 'done');
         insert into source_codes (code, parsed, mailing_id)
         select x.code, false, m.id
         from (values ('em_20260331_qend_match_a', 'Late match'), ('em_early_a', 'Early match')) x (code, mailing)
         join mailings m on m.name = x.mailing;",
    )
    .await;
    let body: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/actblue-webhook.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let mut early = body.clone();
    early["contribution"]["refcode"] = "em_early_a".into();
    early["contribution"]["refcodes"]["refcode"] = "em_early_a".into();
    early["contribution"]["orderNumber"] = "AB81234999".into();
    for line in early["lineitems"].as_array_mut().unwrap() {
        line["lineitemId"] = (line["lineitemId"].as_i64().unwrap() + 1000).into();
    }
    let url = format!("/api/webhooks/actblue/{}", client.short_name);
    for payload in [&body, &early] {
        let response = app
            .request(Method::POST, &url)
            .header(
                "authorization",
                super::webhook::basic("actblue", "long-enough-secret"),
            )
            .json(payload)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
    }
    let early_id = app
        .scalar_in(
            &client,
            "select id from mailings where name = 'Early match'",
        )
        .await;
    let late_id = app
        .scalar_in(&client, "select id from mailings where name = 'Late match'")
        .await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let credited: Vec<(String, Option<i64>, String)> = sqlx::query_as(
        "select line_item_id, mailing_id, attribution from contributions order by line_item_id",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(
        credited,
        vec![
            ("55501".into(), None, "none".into()),
            ("55502".into(), None, "none".into()),
            ("56501".into(), Some(early_id), "refcode".into()),
            ("56502".into(), Some(early_id), "refcode".into()),
        ]
    );
    let late = app
        .get_json(&format!("/api/crm-mailing/{late_id}"), &session)
        .await;
    assert_eq!(
        (&late["gifts"], &late["revenue"]),
        (&serde_json::json!(0), &serde_json::json!("0.00"))
    );
}
