use super::*;

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
async fn issue_27_item_16_a_form_nobody_can_fill_in_is_not_enabled() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let refusal = (
        StatusCode::BAD_REQUEST,
        "This form cannot be enabled: its body has no <form> with an e-mail field (an input of type email or \
         named email), so visitors would have nothing to fill in."
            .to_owned(),
    );
    // Created enabled with a body that has nothing to fill in: refused, and nothing is saved.
    for body in [
        "<h2>Sign up</h2><p>Join us!</p>",
        "<form><input type=\"text\" name=\"name\"><button type=\"submit\">Go</button></form>",
    ] {
        let response = app
            .api(Method::POST, "/api/crm-form", &session)
            .json(&json!({ "name": "Empty", "bodyHtml": body, "enabled": true }))
            .send()
            .await
            .unwrap();
        assert_eq!(json_message(response).await, refusal, "{body}");
    }
    assert_eq!(app.get_json("/api/crm-form", &session).await, json!([]));

    // Saved disabled it is kept; enabling it is refused; a body with an e-mail field can then be enabled.
    let form = create_form(
        &app,
        &session,
        json!({ "name": "Later", "bodyHtml": "<p>Coming soon</p>", "enabled": false }),
    )
    .await;
    let id = form["id"].as_i64().unwrap();
    let patch = |body: Value| {
        app.api(Method::PATCH, &format!("/api/crm-form/{id}"), &session)
            .json(&body)
            .send()
    };
    assert_eq!(
        json_message(patch(json!({ "enabled": true })).await.unwrap()).await,
        refusal
    );
    let still = app.get_json(&format!("/api/crm-form/{id}"), &session).await;
    assert_eq!(still["enabled"], false);
    let enabled = patch(json!({ "enabled": true,
        "bodyHtml": "<form><input type=\"email\" name=\"email\"><button type=\"submit\">Join</button></form>" }))
    .await
    .unwrap();
    assert_eq!(enabled.status(), StatusCode::OK);
    // An enabled form cannot lose its e-mail field either.
    assert_eq!(
        json_message(patch(json!({ "bodyHtml": "<p>Gone</p>" })).await.unwrap()).await,
        refusal
    );
}
