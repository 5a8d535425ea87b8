use super::*;

#[tokio::test]
async fn refresh_tokens_rotate_and_logout_ends_the_session() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let email = app.create_user(true, &[]).await;
    let (_, login) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD }),
    )
    .await;
    let first = login["refreshToken"].as_str().unwrap().to_owned();
    let (status, pair) = post_json(
        &app,
        "/auth-api/auth/refresh",
        json!({ "refreshToken": first }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let second = pair["refreshToken"].as_str().unwrap().to_owned();
    assert_ne!(first, second);
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/refresh",
        json!({ "refreshToken": first }),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "a used refresh token is dead"
    );

    // Client login replaces the session; refreshing keeps the client.
    let client_login: Value = app
        .client_login(pair["accessToken"].as_str().unwrap(), client.id)
        .await
        .json()
        .await
        .unwrap();
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/refresh",
        json!({ "refreshToken": second }),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "client login ended the universal session"
    );
    let (status, refreshed) = post_json(
        &app,
        "/auth-api/auth/refresh",
        json!({ "refreshToken": client_login["refreshToken"] }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let claims = decode_claims(refreshed["accessToken"].as_str().unwrap());
    assert_eq!(claims["clientId"], client.id);
    let session = session_from(&refreshed, &client);
    assert_eq!(
        app.api(Method::GET, "/api/crm-list", &session)
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );

    let response = app
        .request(Method::POST, "/auth-api/auth/logout")
        .bearer_auth(&session.token)
        .json(&json!({ "refreshToken": refreshed["refreshToken"] }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        app.api(Method::GET, "/api/crm-list", &session)
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::UNAUTHORIZED
    );
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/refresh",
        json!({ "refreshToken": refreshed["refreshToken"] }),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/refresh",
        json!({ "refreshToken": "u.forged" }),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn an_expired_token_is_refused() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let expired = expired(&session.token);
    let stale = Session {
        token: expired,
        client,
    };
    let (status, message) = json_message(
        app.api(Method::GET, "/api/crm-list", &stale)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status, message.as_str()),
        (StatusCode::UNAUTHORIZED, "Invalid or expired token")
    );
}

/// Issue 11, item 12: one key per purpose. The master secret and the tracking key (which the worker holds)
/// cannot sign access tokens, and refresh tokens are not hashed with the master secret.
#[tokio::test]
async fn neither_the_master_secret_nor_the_tracking_key_signs_tokens_or_keys_hashes() {
    use hmac::Mac;
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let works = |token: String| {
        let app = &app;
        let client = client.clone();
        async move {
            app.api(Method::GET, "/api/crm-list", &Session { token, client })
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    assert_eq!(works(session.token.clone()).await, StatusCode::OK);
    let claims = decode_claims(&session.token);
    for (name, key) in [
        ("JWT_SECRET", JWT_SECRET),
        ("the tracking key", app.tracking_secret.as_str()),
    ] {
        let forged = jsonwebtoken::encode(
            &jsonwebtoken::Header::default(),
            &claims,
            &jsonwebtoken::EncodingKey::from_secret(key.as_bytes()),
        )
        .unwrap();
        assert_eq!(
            works(forged).await,
            StatusCode::UNAUTHORIZED,
            "a token signed with {name}"
        );
    }

    let email = app.create_user(false, &[]).await;
    let (_, body) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD }),
    )
    .await;
    let refresh = body["refreshToken"].as_str().unwrap();
    let secret = refresh.strip_prefix("u.").unwrap();
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(JWT_SECRET.as_bytes()).unwrap();
    mac.update(b"refresh\0");
    mac.update(secret.as_bytes());
    let with_master = mac.finalize().into_bytes().to_vec();
    let mut tx = app.tenancy.public().await.unwrap();
    let stored: Vec<Vec<u8>> = sqlx::query_scalar(
        "select s.token_hash from auth_sessions s join universal_users u on u.id = s.user_id where u.email = $1",
    )
    .bind(&email)
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    assert_eq!(stored.len(), 1);
    assert_ne!(stored[0], with_master, "keyed with the master secret");
}

/// Makes every spent refresh token of the universal realm look spent a minute ago, past the grace for two tabs.
async fn age_spent_tokens(app: &TestApp) {
    let mut tx = app.tenancy.public().await.unwrap();
    sqlx::query("update auth_spent_refresh_tokens set spent = spent - interval '1 minute'")
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

async fn refresh(app: &TestApp, token: &Value) -> (StatusCode, Value) {
    post_json(
        app,
        "/auth-api/auth/refresh",
        json!({ "refreshToken": token }),
    )
    .await
}

/// Issue 33, item 11: a replayed old refresh token is a stolen copy, so it ends the whole session family: the
/// session it belonged to and the client session a client login made from it, with their access tokens.
#[tokio::test]
async fn a_replayed_refresh_token_ends_the_whole_session_family() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let email = app.create_user(true, &[]).await;
    let (_, login) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD }),
    )
    .await;
    let stolen = login["refreshToken"].clone();
    let (status, universal) = refresh(&app, &stolen).await;
    assert_eq!(status, StatusCode::OK);
    let in_client: Value = app
        .client_login(universal["accessToken"].as_str().unwrap(), client.id)
        .await
        .json()
        .await
        .unwrap();
    let (status, in_client) = refresh(&app, &in_client["refreshToken"]).await;
    assert_eq!(status, StatusCode::OK);
    let session = session_from(&in_client, &client);
    let lists = || async {
        app.api(Method::GET, "/api/crm-list", &session)
            .send()
            .await
            .unwrap()
            .status()
    };
    assert_eq!(lists().await, StatusCode::OK);

    age_spent_tokens(&app).await;
    let (status, _) = refresh(&app, &stolen).await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "the replay itself is refused"
    );
    assert_eq!(
        lists().await,
        StatusCode::UNAUTHORIZED,
        "the client session made from the stolen one has ended, access token included"
    );
    let (status, _) = refresh(&app, &in_client["refreshToken"]).await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "the current refresh token of the family no longer works"
    );

    // Another session of the same user, signed in elsewhere, is not part of the family and lives on.
    let other = app.session_for(&email, &client).await;
    assert_eq!(
        app.api(Method::GET, "/api/crm-list", &other)
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
}

/// Two tabs of one browser may refresh with the same token at once: the loser is refused, but nothing ends.
#[tokio::test]
async fn a_token_spent_moments_ago_is_refused_without_ending_the_session() {
    let app = spawn_app().await;
    let email = app.create_user(true, &[]).await;
    let (_, login) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD }),
    )
    .await;
    let (status, first_tab) = refresh(&app, &login["refreshToken"]).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = refresh(&app, &login["refreshToken"]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = refresh(&app, &first_tab["refreshToken"]).await;
    assert_eq!(status, StatusCode::OK, "the session lives on");
}
