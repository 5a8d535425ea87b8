use super::*;

#[tokio::test]
async fn client_auth_mode_signs_in_to_the_one_client() {
    let setup = spawn_app().await;
    let client = setup.create_client().await;
    let other = setup.create_client().await;
    let (app, inbox) = app_with_mail(|s| s.client_auth = Some(client.short_name.clone())).await;
    let config: Value = app
        .request(Method::GET, "/auth-api/auth/config")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(config["clientAuthShort"], client.short_name.as_str());
    assert_eq!(config["clientName"], client.name.as_str());

    // A universal administrator signs straight in to the client.
    let email = app.create_user(true, &[]).await;
    let (_, body) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD }),
    )
    .await;
    let claims = decode_claims(body["accessToken"].as_str().unwrap());
    assert_eq!(claims["clientShort"], client.short_name.as_str());
    let token = body["accessToken"].as_str().unwrap();
    let clients: Value = app
        .request(Method::GET, "/auth-api/session/clients")
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(clients.as_array().unwrap().len(), 1, "only the one client");
    assert_eq!(
        app.client_login(token, other.id).await.status(),
        StatusCode::FORBIDDEN
    );
    let (status, _) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": email, "password": PASSWORD, "client": other.short_name }),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "another client cannot be named"
    );

    // Registration needs no client name.
    let new_email = format!("{}@example.org", unique("ca"));
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/register",
        json!({ "email": new_email, "password": PASSWORD, "firstname": "C", "lastname": "A", "phone": "",
                "twoFactorMethod": "email" }),
    )
    .await;
    assert_eq!(
        (status, body["status"].clone()),
        (StatusCode::OK, json!("pending"))
    );
    let (_, params) = link(
        &nth_mail(&inbox, &new_email, 1).await,
        "/auth/finish-registration",
    );
    assert_eq!(params["client"], client.short_name);
}
