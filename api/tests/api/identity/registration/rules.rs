use super::*;

#[tokio::test]
async fn registration_checks_the_spec_rules() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let register = |password: &str, phone: &str, method: &str| {
        json!({ "email": format!("{}@example.org", unique("r")), "password": password, "firstname": "A",
                "lastname": "B", "phone": phone, "twoFactorMethod": method, "client": client.short_name })
    };
    let cases = [
        (
            register("weakpassword1", "", "email"),
            api::identity::PASSWORD_RULE,
        ),
        (
            register(PASSWORD, "555-0123", "email"),
            "Phone number should include only digits",
        ),
        (
            register(PASSWORD, "", "phone"),
            "A phone number is needed for the phone method",
        ),
    ];
    for (body, message) in cases {
        let (status, answer) = post_json(&app, "/auth-api/auth/register", body).await;
        assert_eq!(
            (status, answer["message"].as_str().unwrap()),
            (StatusCode::BAD_REQUEST, message)
        );
    }
    let mut no_client = register(PASSWORD, "", "email");
    no_client["client"] = Value::Null;
    let (status, _) = post_json(&app, "/auth-api/auth/register", no_client).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
