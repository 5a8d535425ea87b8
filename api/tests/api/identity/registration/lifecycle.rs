use super::*;

#[tokio::test]
async fn a_client_user_registers_verifies_is_enabled_and_signs_in_with_an_emailed_code() {
    let (app, inbox) = app_with_mail(|_| {}).await;
    let client = app.create_client().await;
    let admin = app.session(&client).await;
    let email = format!("{}@example.org", unique("reg"));

    // Registered but not verified: the password is right, but sign-in is refused.
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/register",
        json!({ "email": email, "password": PASSWORD, "firstname": "A", "lastname": "B", "phone": "",
                "twoFactorMethod": "email", "client": client.short_name }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let login = json!({ "username": email, "password": PASSWORD, "client": client.short_name });
    let (status, body) = post_json(&app, "/auth-api/auth/login", login.clone()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        body["message"],
        "Verify your email first: follow the link we sent you"
    );

    // A forged verification token is refused; the real one verifies.
    let (_, params) = link(
        &nth_mail(&inbox, &email, 1).await,
        "/auth/finish-registration",
    );
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/finish-registration",
        json!({ "email": email, "token": "forged", "client": client.short_name }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "This link is invalid or has expired");
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/finish-registration",
        json!({ "email": email, "token": params["token"], "client": client.short_name }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    // Verified, not yet enabled.
    let (status, body) = post_json(&app, "/auth-api/auth/login", login.clone()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        body["message"],
        "This account is not enabled yet. An administrator has to enable it"
    );
    let users = app.get_json("/api/users", &admin).await;
    let user = users
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["email"] == email)
        .unwrap()
        .clone();
    assert_eq!(
        (
            user["kind"].clone(),
            user["enabled"].clone(),
            user["emailVerified"].clone()
        ),
        (json!("client"), json!(false), json!(true))
    );
    let response = app
        .api(
            Method::PATCH,
            &format!("/api/users/client/{}", user["id"]),
            &admin,
        )
        .json(&json!({ "enabled": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);

    // Registering again reports the duplicate and flags it once the account is enabled.
    let (_, body) = post_json(
        &app,
        "/auth-api/auth/register",
        json!({ "email": email, "password": PASSWORD, "firstname": "A", "lastname": "B", "phone": "",
                "twoFactorMethod": "email", "client": client.short_name }),
    )
    .await;
    assert_eq!(body, json!({ "status": "duplicate", "duplicate": true }));
    let told = nth_mail(&inbox, &email, 2).await;
    assert!(told.contains("Someone tried to register"), "{told}");

    // Step 1 mails a code; step 2 takes it once.
    let (status, body) = post_json(&app, "/auth-api/auth/login", login.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["twoFactorRequired"], true);
    assert_eq!(body["accessToken"], Value::Null);
    assert_eq!(body["twoFactorMethod"], "email");
    let mail = nth_mail(&inbox, &email, 3).await;
    assert!(mail.contains("Subject: Your Compass login code"), "{mail}");
    let code = login_code(&mail);
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let submit = |code: &str| json!({ "email": email, "code": code, "client": client.short_name });
    let (status, body) = post_json(&app, "/auth-api/auth/login-code", submit(wrong)).await;
    assert_eq!(
        (status, body["message"].clone()),
        (StatusCode::UNAUTHORIZED, json!("Invalid passcode"))
    );
    let (status, body) = post_json(&app, "/auth-api/auth/login-code", submit(&code)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let session = session_from(&body, &client);
    let (status, _) = post_json(&app, "/auth-api/auth/login-code", submit(&code)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a code works once");

    // The client user acts for their client at once, with no page permission until a role grants one.
    let claims = decode_claims(&session.token);
    assert_eq!(claims["user"]["kind"], "client");
    assert_eq!(claims["clientShort"], client.short_name.as_str());
    assert_eq!(claims["scope"], json!(["basic", "client"]));
    let lists = app
        .api(Method::GET, "/api/crm-list", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(lists.status(), StatusCode::OK, "CRM needs no permission");
    let contacts = app
        .api(Method::GET, "/api/contacts", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(contacts.status(), StatusCode::FORBIDDEN);
    let role: Value = app
        .api(Method::POST, "/api/roles", &admin)
        .json(&json!({ "name": "Contacts", "permissions": ["pageContacts"] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let response = app
        .api(
            Method::PATCH,
            &format!("/api/users/client/{}", user["id"]),
            &admin,
        )
        .json(&json!({ "roleIds": [role["id"]] }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let contacts = app
        .api(Method::GET, "/api/contacts", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(
        contacts.status(),
        StatusCode::OK,
        "the role grants the page"
    );
    let me = app
        .request(Method::GET, "/auth-api/session/me")
        .bearer_auth(&session.token)
        .send()
        .await
        .unwrap();
    let me: Value = me.json().await.unwrap();
    assert_eq!(me["permissions"], json!(["pageContacts"]));
    assert_eq!(me["kind"], "client");
    assert_eq!(me["canSwitchClient"], false);

    // Disabling the user ends their session at once.
    let response = app
        .api(
            Method::PATCH,
            &format!("/api/users/client/{}", user["id"]),
            &admin,
        )
        .json(&json!({ "enabled": false }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let lists = app
        .api(Method::GET, "/api/crm-list", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(lists.status(), StatusCode::UNAUTHORIZED);

    // Sign-ins and changes are in the client's audit trail.
    let events = app.get_json("/api/audit-events", &admin).await;
    let actions: Vec<&str> = events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    for expected in [
        "register",
        "sign in",
        "user enabled",
        "role created",
        "roles assigned",
        "user disabled",
    ] {
        assert!(actions.contains(&expected), "{expected} in {actions:?}");
    }
}
