use super::*;

#[tokio::test]
async fn password_reset_mails_a_single_use_link_and_does_not_reveal_accounts() {
    let (app, inbox) = app_with_mail(|_| {}).await;
    let client = app.create_client().await;
    let email = app.create_user(false, &[&client]).await;
    let old = app.basic_token(&email).await;
    let unknown = format!("{}@example.org", unique("nobody"));

    // The unknown address first: its background task (a lookup that finds nobody) starts before the known one's
    // (a lookup, a token and a mail), so the known address's mail arriving says the unknown one's task is over.
    let unknown_answer = post_json(
        &app,
        "/auth-api/auth/reset-email",
        json!({ "email": unknown }),
    )
    .await;
    let known_answer = post_json(
        &app,
        "/auth-api/auth/reset-email",
        json!({ "email": email }),
    )
    .await;
    assert_eq!(known_answer, unknown_answer, "the same answer either way");
    assert_eq!(known_answer, (StatusCode::OK, json!({ "status": "sent" })));
    let (_, params) = link(&nth_mail(&inbox, &email, 1).await, "/auth/reset-password");
    assert!(mail_to(&inbox, &unknown).is_empty());

    let check = |token: &str| json!({ "email": email, "token": token });
    assert_eq!(
        post_json(&app, "/auth-api/auth/reset-check", check("forged"))
            .await
            .1,
        json!({ "valid": false })
    );
    assert_eq!(
        post_json(&app, "/auth-api/auth/reset-check", check(&params["token"]))
            .await
            .1,
        json!({ "valid": true })
    );
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/reset-password",
        json!({ "email": email, "token": params["token"], "password": "weak" }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], api::identity::PASSWORD_RULE);
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/reset-password",
        json!({ "email": email, "token": params["token"], "password": NEW_PASSWORD }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/reset-password",
        json!({ "email": email, "token": params["token"], "password": "Another-passw0rd" }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "the link works once");

    assert_eq!(
        app.login(&email, PASSWORD).await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.login(&email, NEW_PASSWORD).await.status(),
        StatusCode::OK
    );
    let me = app
        .request(Method::GET, "/auth-api/session/me")
        .bearer_auth(&old)
        .send()
        .await
        .unwrap();
    assert_eq!(
        me.status(),
        StatusCode::UNAUTHORIZED,
        "a reset ends every session"
    );
}

/// Issue 11, item 11: the answer does not wait for the account's work, so it cannot tell whether there is one.
#[tokio::test]
async fn reset_email_answers_alike_for_known_and_unknown_addresses_and_the_mail_still_arrives() {
    let (app, inbox) = app_with_mail(|_| {}).await;
    let email = app.create_user(false, &[]).await;
    let unknown = format!("{}@example.org", unique("nobody"));
    let reset = |to: &str| post_json(&app, "/auth-api/auth/reset-email", json!({ "email": to }));
    let unknown_answer = reset(&unknown).await;
    assert_eq!(
        unknown_answer,
        (StatusCode::OK, json!({ "status": "sent" }))
    );
    assert_eq!(reset(&email).await, unknown_answer);
    link(&nth_mail(&inbox, &email, 1).await, "/auth/reset-password");

    // Hold the account's open reset challenge: any work on it now waits until the lock goes.
    let mut lock = app.tenancy.public().await.unwrap();
    let held: Vec<i64> = sqlx::query_scalar(
        "select c.id from auth_challenges c join universal_users u on u.id = c.user_id
         where u.email = $1 and c.used is null for update of c",
    )
    .bind(&email)
    .fetch_all(&mut *lock)
    .await
    .unwrap();
    assert_eq!(held.len(), 1);
    let answer = tokio::time::timeout(std::time::Duration::from_secs(2), reset(&email)).await;
    assert_eq!(
        answer.expect("answered without waiting for the account's work"),
        unknown_answer
    );
    lock.commit().await.unwrap();
    let second = nth_mail(&inbox, &email, 2).await;
    let (_, params) = link(&second, "/auth/reset-password");
    assert_eq!(
        post_json(
            &app,
            "/auth-api/auth/reset-check",
            json!({ "email": email, "token": params["token"] })
        )
        .await
        .1,
        json!({ "valid": true }),
        "the newest link works"
    );
    assert!(mail_to(&inbox, &unknown).is_empty());
}
