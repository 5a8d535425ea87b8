use super::*;

/// Issue 11, item 9.
#[tokio::test]
async fn a_universal_users_email_cannot_be_registered_as_a_client_user_and_signs_in_to_the_client()
{
    let (app, inbox) = app_with_mail(|_| {}).await;
    let client = app.create_client().await;
    let staff = app.create_user(false, &[&client]).await;
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/register",
        json!({ "email": staff.to_uppercase(), "password": PASSWORD, "firstname": "Mal", "lastname": "Lory",
                "phone": "", "twoFactorMethod": "email", "client": client.short_name }),
    )
    .await;
    assert_eq!(
        (status, body),
        (
            StatusCode::OK,
            json!({ "status": "duplicate", "duplicate": true })
        ),
        "answered as for an existing account"
    );
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let rows: i64 = sqlx::query_scalar("select count(*) from client_users where email = $1")
        .bind(&staff)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(rows, 0, "no client user was made");

    // A client user left behind with the staff member's address (before this fix) does not shadow them.
    sqlx::query(
        "insert into client_users (email, password_hash, email_verified, enabled) values ($1, 'x', now(), true)",
    )
    .bind(&staff)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let (status, body) = post_json(
        &app,
        "/auth-api/auth/login",
        json!({ "username": staff, "password": PASSWORD, "client": client.short_name }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let claims = decode_claims(body["accessToken"].as_str().unwrap());
    assert_eq!(claims["user"]["kind"], "universal");
    assert_eq!(claims["clientShort"], client.short_name.as_str());
    let told = nth_mail(&inbox, &staff, 1).await;
    assert!(told.contains("Someone tried to register"), "{told}");
    assert!(
        !told.contains("/auth/finish-registration"),
        "no verification link"
    );
    assert_eq!(mail_to(&inbox, &staff).len(), 1);
}
