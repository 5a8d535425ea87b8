use super::*;

#[tokio::test]
async fn a_visitor_views_and_submits_a_form_and_becomes_a_contact_with_its_origin_code() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let code: Value = app
        .api(
            Method::POST,
            "/api/external-origin-code/get-or-create-crm",
            &session,
        )
        .json(&json!({ "name": "spring-petition" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let form = create_form(
        &app,
        &session,
        json!({ "name": "Spring petition", "externalOriginCodeId": code["id"], "redirect_url": "https://example.org/thanks" }),
    )
    .await;
    let id = form["id"].as_i64().unwrap();
    assert_eq!(form["enabled"], true);
    assert_eq!(form["originCodeName"], "spring-petition");
    // A new form starts with a usable body.
    assert!(form["bodyHtml"]
        .as_str()
        .unwrap()
        .contains("type=\"email\""));

    let viewer: Value = public(
        &app,
        Method::GET,
        &format!("/api/crm-form/{id}/viewer"),
        &client,
    )
    .send()
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(viewer["redirect_url"], "https://example.org/thanks");
    for _ in 0..3 {
        let view = public(
            &app,
            Method::POST,
            &format!("/api/crm-form/{id}/view"),
            &client,
        )
        .send()
        .await
        .unwrap();
        assert_eq!(view.status(), StatusCode::NO_CONTENT);
    }
    let submitted = public(
        &app,
        Method::POST,
        &format!("/api/crm-form/{id}/submit/"),
        &client,
    )
    .header("referer", "https://campaign.example/petition")
    .json(&json!({ "email": " New.Person@Example.org " }))
    .send()
    .await
    .unwrap();
    assert_eq!(submitted.status(), StatusCode::OK);
    let result: Value = submitted.json().await.unwrap();
    assert_eq!(result["redirect_url"], "https://example.org/thanks");

    // Views are summed in memory and written within a second.
    let counts = wait_until(
        "three views and one submission",
        std::time::Duration::from_secs(30),
        || async {
            let form = app.get_json(&format!("/api/crm-form/{id}"), &session).await;
            let counts = (form["viewCount"].as_i64(), form["submissionCount"].as_i64());
            (counts == (Some(3), Some(1))).then_some(counts)
        },
    )
    .await;
    assert_eq!(counts, (Some(3), Some(1)));

    let contacts = app.get_json("/api/contacts?q=new.person", &session).await;
    assert_eq!(contacts["items"][0]["originCodeName"], "spring-petition");
    let signups = app
        .get_json(
            &format!("/api/external-signup?filter=%7B%22formId%22%3A{id}%7D"),
            &session,
        )
        .await;
    assert_eq!(signups[0]["email"], "new.person@example.org");
    assert_eq!(signups[0]["referrer"], "https://campaign.example/petition");
    let one = app
        .get_json(
            &format!("/api/external-signup/{}", signups[0]["id"]),
            &session,
        )
        .await;
    assert_eq!(one["formName"], "Spring petition");
}

#[tokio::test]
async fn an_existing_contact_keeps_its_origin_code_and_bad_submissions_change_nothing() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let code: Value = app
        .api(
            Method::POST,
            "/api/external-origin-code/get-or-create-crm",
            &session,
        )
        .json(&json!({ "name": "form-code" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query(
        "with o as (insert into origin_codes (name) values ('first-touch') returning id)
                 insert into contacts (email, origin_code_id) select 'old@example.org', id from o",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let form = create_form(
        &app,
        &session,
        json!({ "name": "F", "externalOriginCodeId": code["id"] }),
    )
    .await;
    let id = form["id"].as_i64().unwrap();
    let submit = |body: Value| {
        public(
            &app,
            Method::POST,
            &format!("/api/crm-form/{id}/submit"),
            &client,
        )
        .json(&body)
        .send()
    };

    assert_eq!(
        submit(json!({ "email": "old@example.org" }))
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
    let contacts = app.get_json("/api/contacts?q=old@", &session).await;
    assert_eq!(contacts["items"][0]["originCodeName"], "first-touch");

    let (status, message) =
        json_message(submit(json!({ "email": "not an email" })).await.unwrap()).await;
    assert_eq!(
        (status, message.as_str()),
        (StatusCode::BAD_REQUEST, "Enter a valid email address")
    );
    // The honeypot: answered like a success, recorded nowhere.
    assert_eq!(
        submit(json!({ "email": "bot@example.org", "website": "http://spam" }))
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
    assert_eq!(app.get_json("/api/contacts", &session).await["total"], 1);
    assert_eq!(
        app.get_json(&format!("/api/crm-form/{id}"), &session).await["submissionCount"],
        1
    );
}

#[tokio::test]
async fn the_public_submit_refuses_addresses_the_one_email_rule_refuses() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let form = create_form(&app, &session, json!({ "name": "F" })).await;
    let id = form["id"].as_i64().unwrap();
    let submit = |email: &str| {
        public(
            &app,
            Method::POST,
            &format!("/api/crm-form/{id}/submit"),
            &client,
        )
        .json(&json!({ "email": email }))
        .send()
    };
    for bad in [
        "<b>@x.org",
        "a;b@x.org",
        "(c)a@x.org",
        "a..b@x.org",
        "a@-x.org",
    ] {
        assert_eq!(
            json_message(submit(bad).await.unwrap()).await,
            (
                StatusCode::BAD_REQUEST,
                "Enter a valid email address".to_owned()
            ),
            "{bad:?}"
        );
    }
    // A NUL never reaches the e-mail rule: the input guard refuses it first, naming the field.
    assert_eq!(
        json_message(submit("a@x.org\u{0}").await.unwrap()).await,
        (
            StatusCode::BAD_REQUEST,
            "email: must not contain a NUL character".to_owned()
        )
    );
    assert_eq!(app.get_json("/api/contacts", &session).await["total"], 0);
    assert_eq!(
        submit("  Ann.Lee+news@Example.ORG ")
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
    let page = app.get_json("/api/contacts", &session).await;
    assert_eq!(page["items"][0]["email"], "ann.lee+news@example.org");
}
