use super::*;

#[tokio::test]
async fn operations_check_permissions_not_just_the_menu() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let admin = app.session(&client).await;
    let email = app.create_user(false, &[&client]).await;
    let plain = app.session_for(&email, &client).await;
    let basic = app.basic_token(&email).await;

    for (method, path, body) in [
        (Method::GET, "/api/contacts", None),
        (Method::GET, "/api/external-origin-code", None),
        (Method::GET, "/api/users", None),
        (Method::GET, "/api/audit-events", None),
        (Method::GET, "/api/roles", None),
        (
            Method::POST,
            "/api/roles",
            Some(json!({ "name": "Mine", "permissions": ["pageReports"] })),
        ),
    ] {
        let mut request = app.api(method.clone(), path, &plain);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let (status, message) = json_message(request.send().await.unwrap()).await;
        assert_eq!(
            (status, message.as_str()),
            (
                StatusCode::FORBIDDEN,
                "You do not have permission to do this"
            ),
            "{method} {path}"
        );
    }
    let grantable = app
        .request(Method::GET, "/auth-api/session/universal-users/clients")
        .bearer_auth(&basic)
        .send()
        .await
        .unwrap();
    assert_eq!(grantable.status(), StatusCode::FORBIDDEN);
    let universal = app
        .request(Method::GET, "/auth-api/session/universal-users")
        .bearer_auth(&basic)
        .send()
        .await
        .unwrap();
    assert_eq!(universal.status(), StatusCode::FORBIDDEN);

    // A role with "view user" and "edit role" opens user and role management.
    let role: Value = app
        .api(Method::POST, "/api/roles", &admin)
        .json(&json!({ "name": "Managers", "permissions": ["edit role", "view user", "bogus"] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(role["message"], "Unknown permission: bogus");
    let role: Value = app
        .api(Method::POST, "/api/roles", &admin)
        .json(&json!({ "name": "Managers", "permissions": ["edit role", "view user"] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(role["permissions"], json!(["view user", "edit role"]));
    let duplicate = app
        .api(Method::POST, "/api/roles", &admin)
        .json(&json!({ "name": "Managers", "permissions": [] }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(duplicate).await,
        (
            StatusCode::CONFLICT,
            "A role with this name already exists".to_owned()
        )
    );
    let users = app.get_json("/api/users", &admin).await;
    let me = users
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["email"] == email.as_str())
        .unwrap()
        .clone();
    assert_eq!(me["kind"], "universal");
    let response = app
        .api(
            Method::PATCH,
            &format!("/api/users/universal/{}", me["id"]),
            &admin,
        )
        .json(&json!({ "roleIds": [role["id"]] }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        app.api(Method::GET, "/api/users", &plain)
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
    assert_eq!(
        app.api(Method::GET, "/api/roles", &plain)
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
    assert_eq!(
        app.api(Method::GET, "/api/contacts", &plain)
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::FORBIDDEN
    );

    // Roles are per client: the same user in another client holds nothing there.
    let other = app.create_client().await;
    let other_admin = app.session(&other).await;
    let response = app
        .api(
            Method::PATCH,
            &format!("/api/users/universal/{}", me["id"]),
            &other_admin,
        )
        .json(&json!({ "roleIds": [] }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.status(),
        StatusCode::NOT_FOUND,
        "not granted that client"
    );
    let foreign_role = app
        .api(
            Method::PATCH,
            &format!("/api/users/universal/{}", me["id"]),
            &admin,
        )
        .json(&json!({ "roleIds": [role["id"].as_i64().unwrap() + 100000] }))
        .send()
        .await
        .unwrap();
    assert_eq!(foreign_role.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn universal_users_are_managed_with_the_view_user_permission() {
    let (app, inbox) = app_with_mail(|_| {}).await;
    let client = app.create_client().await;
    let admin_email = app.create_user(true, &[]).await;
    let admin = app.basic_token(&admin_email).await;
    let new_email = format!("{}@example.org", unique("staff"));
    let created = app
        .request(Method::POST, "/auth-api/session/universal-users")
        .bearer_auth(&admin)
        .json(&json!({ "email": new_email, "firstName": "New", "lastName": "Staff", "allClients": false,
                       "universalPermissions": [], "clientIds": [client.id] }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::OK);
    let created: Value = created.json().await.unwrap();
    assert_eq!(created["clientIds"], json!([client.id]));
    assert_eq!(created["twoFactorMethod"], "email");
    let grantable: Value = app
        .request(Method::GET, "/auth-api/session/universal-users/clients")
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(grantable
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["id"] == client.id));

    // The invitation is a reset link that sets the first password.
    let (_, params) = link(
        &nth_mail(&inbox, &new_email, 1).await,
        "/auth/reset-password",
    );
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/reset-password",
        json!({ "email": new_email, "token": params["token"], "password": NEW_PASSWORD }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, body) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": new_email, "password": NEW_PASSWORD }),
    )
    .await;
    assert_eq!(body["twoFactorRequired"], true);
    let code = login_code(&nth_mail(&inbox, &new_email, 2).await);
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/login-code",
        json!({ "email": new_email, "code": code }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let staff = body["accessToken"].as_str().unwrap().to_owned();
    let clients: Value = app
        .request(Method::GET, "/auth-api/session/clients")
        .bearer_auth(&staff)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(clients.as_array().unwrap().len(), 1);

    // Self-protection and disabling.
    let admin_id = app
        .request(Method::GET, "/auth-api/session/me")
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap()["id"]
        .clone();
    let lock_out = app
        .request(
            Method::PATCH,
            &format!("/auth-api/session/universal-users/{admin_id}"),
        )
        .bearer_auth(&admin)
        .json(&json!({ "enabled": false }))
        .send()
        .await
        .unwrap();
    assert_eq!(lock_out.status(), StatusCode::BAD_REQUEST);
    let disable = app
        .request(
            Method::PATCH,
            &format!("/auth-api/session/universal-users/{}", created["id"]),
        )
        .bearer_auth(&admin)
        .json(&json!({ "enabled": false }))
        .send()
        .await
        .unwrap();
    assert_eq!(disable.status(), StatusCode::OK);
    let me = app
        .request(Method::GET, "/auth-api/session/me")
        .bearer_auth(&staff)
        .send()
        .await
        .unwrap();
    assert_eq!(
        me.status(),
        StatusCode::UNAUTHORIZED,
        "disabling ends the session"
    );
    assert_eq!(
        app.login(&new_email, NEW_PASSWORD).await.status(),
        StatusCode::FORBIDDEN,
        "a disabled account cannot sign in"
    );
}

#[tokio::test]
async fn profile_and_password_changes() {
    let app = spawn_app().await;
    let email = app.create_user(true, &[]).await;
    let token = app.basic_token(&email).await;
    let other_session = app.basic_token(&email).await;
    let patch = |body: Value| {
        app.request(Method::PATCH, "/auth-api/session/profile")
            .bearer_auth(&token)
            .json(&body)
            .send()
    };
    let (status, message) = json_message(
        patch(
            json!({ "firstName": "A", "lastName": "B", "phone": "12", "twoFactorMethod": "email" }),
        )
        .await
        .unwrap(),
    )
    .await;
    assert_eq!(
        (status, message.as_str()),
        (
            StatusCode::BAD_REQUEST,
            "Phone number should include only digits"
        )
    );
    let me: Value = patch(json!({ "firstName": " Ann ", "lastName": "Lee", "phone": "2025550123", "twoFactorMethod": "phone" }))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (
            me["firstName"].clone(),
            me["phone"].clone(),
            me["twoFactorMethod"].clone()
        ),
        (json!("Ann"), json!("2025550123"), json!("phone"))
    );
    let (status, _) = json_message(
        patch(json!({ "firstName": "A", "lastName": "B", "phone": "", "twoFactorMethod": "app" }))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "no authenticator enrolled");

    let change = |current: &str, new: &str| {
        app.request(Method::POST, "/auth-api/session/password")
            .bearer_auth(&token)
            .json(&json!({ "currentPassword": current, "newPassword": new }))
            .send()
    };
    let (status, message) = json_message(change("wrong", NEW_PASSWORD).await.unwrap()).await;
    assert_eq!(
        (status, message.as_str()),
        (StatusCode::BAD_REQUEST, "Current password is incorrect")
    );
    assert_eq!(
        change(PASSWORD, NEW_PASSWORD).await.unwrap().status(),
        StatusCode::NO_CONTENT
    );
    let me = app
        .request(Method::GET, "/auth-api/session/me")
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), StatusCode::OK, "this session stays");
    let other = app
        .request(Method::GET, "/auth-api/session/me")
        .bearer_auth(&other_session)
        .send()
        .await
        .unwrap();
    assert_eq!(
        other.status(),
        StatusCode::UNAUTHORIZED,
        "other sessions end"
    );
}
