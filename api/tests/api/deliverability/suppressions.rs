//! The suppression page's operations: add by hand, search, lift (audited), import a CSV, export, the evidence.

use super::*;

async fn add(app: &TestApp, session: &Session, emails: Value) -> (StatusCode, Value) {
    let response = app
        .api(Method::POST, "/api/suppressions", session)
        .json(&json!({ "emails": emails, "note": "Asked by phone" }))
        .send()
        .await
        .unwrap();
    (response.status(), response.json().await.unwrap())
}

#[tokio::test]
async fn addresses_are_added_searched_lifted_imported_and_exported() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    let (status, added) = add(
        &app,
        &session,
        json!([
            "Pat@Example.org",
            "not an address",
            "lee@example.org",
            "pat@example.org"
        ]),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{added}");
    assert_eq!(added["added"], 2, "{added}");
    assert_eq!(
        added["rejected"],
        json!([{ "row": 2, "value": "not an address", "reason": "Not an e-mail address" }])
    );
    let (_, again) = add(&app, &session, json!(["lee@example.org"])).await;
    assert_eq!(
        (again["added"].clone(), again["alreadySuppressed"].clone()),
        (json!(0), json!(1))
    );

    let rows = suppressed(&app, &session, "pat").await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["email"], "pat@example.org");
    assert_eq!(rows[0]["reasonText"], "Added by hand");
    assert_eq!(rows[0]["note"], "Asked by phone");
    assert!(
        rows[0]["source"].as_str().unwrap().contains('@'),
        "the person: {}",
        rows[0]
    );

    // Lifting: gone from the page, in the audit trail; lifting it twice is a 404.
    let id = rows[0]["id"].as_i64().unwrap();
    let lift = || {
        app.api(
            Method::POST,
            &format!("/api/suppressions/{id}/lift"),
            &session,
        )
        .send()
    };
    assert_eq!(lift().await.unwrap().status(), StatusCode::NO_CONTENT);
    assert_eq!(lift().await.unwrap().status(), StatusCode::NOT_FOUND);
    assert!(suppressed(&app, &session, "pat").await.is_empty());
    let audited = app
        .scalar_in(
            &client,
            "select count(*) from audit_events where action = 'suppression lifted'
             and detail->>'email' = 'pat@example.org'",
        )
        .await;
    assert_eq!(audited, 1);

    // A file: a header, a bad row, a blank line; every good row is taken, the bad one named by its row.
    let csv = "Email,Name\nann@example.org,Ann\nbroken-row,Bo\n\nbob@example.org,Bob\nlee@example.org,Lee\n";
    let response = app
        .upload(
            "/api/suppressions/import",
            &session,
            "list.csv",
            csv.as_bytes().to_vec(),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let imported: Value = response.json().await.unwrap();
    assert_eq!(imported["added"], 2, "{imported}");
    assert_eq!(imported["alreadySuppressed"], 1, "{imported}");
    assert_eq!(
        imported["rejected"],
        json!([{ "row": 3, "value": "broken-row", "reason": "Not an e-mail address" }])
    );
    let page = app.get_json("/api/suppressions", &session).await;
    assert_eq!(page["total"], 3, "{page}");

    let export = app
        .api(Method::GET, "/api/suppressions/export", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(export.status(), StatusCode::OK);
    let text = export.text().await.unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap().trim_start_matches('\u{feff}'),
        "Email,Reason,Source,Suppressed,Mailing,Status code,Diagnostic"
    );
    let mut emails: Vec<&str> = lines.map(|l| l.split(',').next().unwrap()).collect();
    emails.sort();
    assert_eq!(
        emails,
        ["ann@example.org", "bob@example.org", "lee@example.org"]
    );
    assert!(
        text.contains("Imported") && text.contains("Added by hand"),
        "{text}"
    );
}

#[tokio::test]
async fn the_evidence_of_a_suppression_downloads_for_its_client_only() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let raw = b"From: MAILER-DAEMON\r\nContent-Type: multipart/report\r\n\r\n550 5.1.1 unknown\r\n"
        .to_vec();
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let evidence =
        store::deliverability::store_evidence(&mut tx, Source::Dsn, "message/rfc822", &raw)
            .await
            .unwrap();
    let mut bounce = event(
        Source::Dsn,
        "dsn-e",
        Kind::HardBounce,
        "nobody@example.org",
        0,
    );
    bounce.evidence_id = Some(evidence);
    store::deliverability::record(&mut tx, &[bounce])
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let rows = suppressed(&app, &session, "nobody").await;
    assert_eq!(rows[0]["evidenceId"], evidence);
    let download = app
        .api(
            Method::GET,
            &format!("/api/delivery-evidence/{evidence}"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(download.status(), StatusCode::OK);
    assert!(download.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .contains(&format!("evidence-{evidence}.eml")));
    assert_eq!(download.bytes().await.unwrap().to_vec(), raw);

    // Another client asking for the same id finds nothing of its own.
    let other = app.create_client().await;
    let stranger = app.session(&other).await;
    let refused = app
        .api(
            Method::GET,
            &format!("/api/delivery-evidence/{evidence}"),
            &stranger,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::NOT_FOUND);
    assert!(suppressed(&app, &stranger, "").await.is_empty());
}

#[tokio::test]
async fn the_deliverability_settings_are_read_and_changed_on_the_settings_page() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let settings = app.get_json("/api/", &session).await;
    assert_eq!(
        (
            settings["softBounceLimit"].clone(),
            settings["softBounceDays"].clone(),
            settings["guardAfterDelivered"].clone(),
            settings["complaintPausePercent"].clone(),
            settings["hardBouncePausePercent"].clone()
        ),
        (json!(3), json!(30), json!(2000), json!("0.3"), json!("5"))
    );
    let id = settings["id"].as_i64().unwrap();
    let patch = |body: Value| {
        app.api(Method::PATCH, &format!("/api/{id}"), &session)
            .json(&body)
            .send()
    };
    let changed: Value = patch(json!({ "softBounceLimit": 2, "softBounceDays": 7, "guardAfterDelivered": 500,
                                        "complaintPausePercent": "0.1", "hardBouncePausePercent": "2.5" }))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (
            changed["softBounceLimit"].clone(),
            changed["softBounceDays"].clone(),
            changed["guardAfterDelivered"].clone(),
            changed["complaintPausePercent"].clone(),
            changed["hardBouncePausePercent"].clone()
        ),
        (json!(2), json!(7), json!(500), json!("0.1"), json!("2.5"))
    );
    for bad in ["0", "101", "abc", "0.0001"] {
        let (status, message) = json_message(
            patch(json!({ "complaintPausePercent": bad }))
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(message.contains("complaint limit"), "{message}");
    }
    // The new soft-bounce limit applies: two in the week suppress.
    for n in 0..2 {
        record(
            &app,
            &client,
            &[event(
                Source::Postmark,
                &format!("p{n}"),
                Kind::SoftBounce,
                "full@example.org",
                0,
            )],
        )
        .await;
    }
    assert_eq!(suppressed(&app, &session, "full").await.len(), 1);
}
