use super::*;

/// Signs an ID token with the test key, as Google would.
fn google_token(claims: Value) -> String {
    let key = jsonwebtoken::EncodingKey::from_rsa_pem(include_bytes!(
        "../../fixtures/google-test-key.pem"
    ))
    .unwrap();
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::RS256);
    header.kid = Some("test-key-1".into());
    jsonwebtoken::encode(&header, &claims, &key).unwrap()
}

#[tokio::test]
async fn google_id_tokens_are_verified_against_the_published_keys() {
    let (keys_url, fetched) = start_http(
        200,
        include_str!("../../fixtures/google-test-jwks.json").into(),
    )
    .await;
    let app = spawn_app_with(|s| {
        s.google_client_id = Some("compass-test.apps.googleusercontent.com".into());
        s.google_jwks_url = format!("{keys_url}/oauth2/v3/certs");
    })
    .await;
    let config: Value = app
        .request(Method::GET, "/auth-api/auth/config")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        config["googleClientId"],
        "compass-test.apps.googleusercontent.com"
    );
    let email = app.create_user(true, &[]).await;
    let now = chrono::Utc::now().timestamp();
    let claims = |aud: &str, iss: &str, exp: i64, email: &str, verified: bool| {
        json!({ "iss": iss, "aud": aud, "exp": exp, "iat": now, "sub": "1234", "email": email,
                "email_verified": verified })
    };
    let aud = "compass-test.apps.googleusercontent.com";
    let good = google_token(claims(
        aud,
        "https://accounts.google.com",
        now + 600,
        &email.to_uppercase(),
        true,
    ));
    let (status, body) =
        post_json(&app, "/auth-api/auth/google", json!({ "credential": good })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        decode_claims(body["accessToken"].as_str().unwrap())["user"]["email"],
        email.as_str()
    );

    let refused = [
        claims(
            "someone-else",
            "https://accounts.google.com",
            now + 600,
            &email,
            true,
        ),
        claims(aud, "https://evil.example", now + 600, &email, true),
        claims(aud, "accounts.google.com", now - 600, &email, true),
        claims(aud, "accounts.google.com", now + 600, &email, false),
        claims(
            aud,
            "accounts.google.com",
            now + 600,
            "stranger@example.org",
            true,
        ),
    ];
    for c in refused {
        let (status, _) = post_json(
            &app,
            "/auth-api/auth/google",
            json!({ "credential": google_token(c.clone()) }),
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{c}");
    }
    // A token signed with another key (here HS256 with a guessable secret) is refused.
    let forged = jsonwebtoken::encode(
        &jsonwebtoken::Header::default(),
        &claims(aud, "accounts.google.com", now + 600, &email, true),
        &jsonwebtoken::EncodingKey::from_secret(b"guess"),
    )
    .unwrap();
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/google",
        json!({ "credential": forged }),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        fetched.lock().unwrap().len(),
        1,
        "the key set is fetched once and cached"
    );
}

#[tokio::test]
async fn google_sign_in_is_off_without_a_client_id() {
    let app = spawn_app().await;
    let config: Value = app
        .request(Method::GET, "/auth-api/auth/config")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(config["googleClientId"], Value::Null);
    let page = app
        .request(Method::GET, "/auth/login")
        .send()
        .await
        .unwrap();
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(!csp.contains("google"), "{csp}");
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/google",
        json!({ "credential": "x.y.z" }),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
