use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn create_form(app: &TestApp, session: &Session, body: Value) -> Value {
    let response = app
        .api(Method::POST, "/api/crm-form", session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    response.json().await.unwrap()
}

/// A visitor: no token, only the client-short header, as the public viewer sends it.
fn public(
    app: &TestApp,
    method: Method,
    path: &str,
    client: &tenancy::Client,
) -> reqwest::RequestBuilder {
    app.request(method, path)
        .header("client-short", &client.short_name)
}

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
        std::time::Duration::from_secs(10),
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
async fn disabled_or_unknown_forms_and_unknown_clients_accept_nothing() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let form = create_form(&app, &session, json!({ "name": "Closed" })).await;
    let id = form["id"].as_i64().unwrap();
    let patched = app
        .api(Method::PATCH, &format!("/api/crm-form/{id}"), &session)
        .json(&json!({ "enabled": false }))
        .send()
        .await
        .unwrap();
    assert_eq!(patched.status(), StatusCode::OK);

    for (path, method) in [
        (format!("/api/crm-form/{id}/viewer"), Method::GET),
        (format!("/api/crm-form/{id}/view"), Method::POST),
        ("/api/crm-form/999999/viewer".to_owned(), Method::GET),
    ] {
        let response = public(&app, method, &path, &client).send().await.unwrap();
        assert_eq!(
            json_message(response).await,
            (
                StatusCode::NOT_FOUND,
                "This form is not available".to_owned()
            ),
            "{path}"
        );
    }
    let submit = public(
        &app,
        Method::POST,
        &format!("/api/crm-form/{id}/submit"),
        &client,
    )
    .json(&json!({ "email": "a@example.org" }))
    .send()
    .await
    .unwrap();
    assert_eq!(submit.status(), StatusCode::NOT_FOUND);
    let stranger = app
        .request(Method::GET, &format!("/api/crm-form/{id}/viewer"))
        .header("client-short", "nosuchclient")
        .send()
        .await
        .unwrap();
    assert_eq!(stranger.status(), StatusCode::NOT_FOUND);
    assert_eq!(app.get_json("/api/contacts", &session).await["total"], 0);

    // Another client's session cannot reach the form at all.
    let other = app.session(&app.create_client().await).await;
    let response = app
        .api(Method::GET, &format!("/api/crm-form/{id}"), &other)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn form_bodies_are_sanitised_and_redirects_must_be_http() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let evil = "<form action=\"https://evil.example\"><input name=email onfocus=alert(1) autofocus>\
                <script>steal()</script><a href=\"javascript:alert(1)\">x</a><svg onload=alert(1)></svg>\
                <button formaction=\"https://evil.example\">Go</button></form>";
    let form = create_form(&app, &session, json!({ "name": "Evil", "bodyHtml": evil })).await;
    let body = form["bodyHtml"].as_str().unwrap().to_lowercase();
    for bad in [
        "<script",
        "onfocus",
        "javascript:",
        "<svg",
        "evil.example",
        "onload",
    ] {
        assert!(!body.contains(bad), "{bad} survived: {body}");
    }
    assert!(body.contains("<input name=\"email\">"), "{body}");

    for url in [
        "javascript:alert(1)",
        "ftp://example.org",
        "//evil.example",
        "https://a b",
    ] {
        let response = app
            .api(Method::POST, "/api/crm-form", &session)
            .json(&json!({ "name": "R", "redirect_url": url }))
            .send()
            .await
            .unwrap();
        assert_eq!(
            json_message(response).await,
            (
                StatusCode::BAD_REQUEST,
                "Redirect URL must start with http:// or https://".to_owned()
            ),
            "{url}"
        );
    }
    let nameless = app
        .api(Method::POST, "/api/crm-form", &session)
        .json(&json!({ "name": " " }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(nameless).await,
        (StatusCode::BAD_REQUEST, "Form name is required".to_owned())
    );

    let deleted = app
        .api(
            Method::DELETE,
            &format!("/api/crm-form/{}", form["id"]),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_eq!(app.get_json("/api/crm-form", &session).await, json!([]));
}

#[tokio::test]
async fn public_endpoints_limit_each_address_and_answer_no_cross_site_callers() {
    let app = spawn_app_with(|s| {
        s.form_submits_per_minute = 2;
        s.form_views_per_minute = 3;
    })
    .await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let id = create_form(&app, &session, json!({ "name": "Limited" })).await["id"]
        .as_i64()
        .unwrap();

    let mut statuses = Vec::new();
    for i in 0..3 {
        let response = public(
            &app,
            Method::POST,
            &format!("/api/crm-form/{id}/submit"),
            &client,
        )
        .json(&json!({ "email": format!("p{i}@example.org") }))
        .send()
        .await
        .unwrap();
        statuses.push(response.status().as_u16());
    }
    assert_eq!(statuses, vec![200, 200, 429]);
    let mut views = Vec::new();
    for _ in 0..4 {
        views.push(
            public(
                &app,
                Method::POST,
                &format!("/api/crm-form/{id}/view"),
                &client,
            )
            .send()
            .await
            .unwrap()
            .status()
            .as_u16(),
        );
    }
    assert_eq!(views, vec![204, 204, 204, 429]);
    assert_eq!(
        app.get_json(&format!("/api/crm-form/{id}"), &session).await["submissionCount"],
        2
    );

    // A page on another site may not call these endpoints from a browser: no CORS grant is ever given.
    let preflight = app
        .request(Method::OPTIONS, &format!("/api/crm-form/{id}/submit"))
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "client-short, content-type",
        )
        .send()
        .await
        .unwrap();
    assert!(preflight
        .headers()
        .get("access-control-allow-origin")
        .is_none());
}

#[tokio::test]
async fn a_form_save_refused_for_its_redirect_url_leaves_no_new_origin_code_behind() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let codes = || app.get_json("/api/external-origin-code/search", &session);

    let refused = app
        .api(Method::POST, "/api/crm-form", &session)
        .json(&json!({ "name": "R", "originCodeName": "spring-form", "redirect_url": "javascript:alert(1)" }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(refused).await,
        (
            StatusCode::BAD_REQUEST,
            "Redirect URL must start with http:// or https://".to_owned()
        )
    );
    assert_eq!(codes().await, json!([]));

    // Saved, the new code is created with the form in the same request.
    let form = create_form(
        &app,
        &session,
        json!({ "name": "R", "originCodeName": " spring-form ", "redirect_url": "https://example.org/thanks" }),
    )
    .await;
    assert_eq!(form["originCodeName"], "spring-form");
    let found = codes().await;
    assert_eq!(found.as_array().unwrap().len(), 1);
    assert_eq!(form["externalOriginCodeId"], found[0]["id"]);
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
