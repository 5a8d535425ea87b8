//! One e-mail rule on the server: registration and staff accounts refuse what the public form and imports refuse.

use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::json;

const REFUSED: [&str; 5] = [
    "<b>@x.org",
    "a;b@x.org",
    "(c)a@x.org",
    "a..b@x.org",
    "a@-x.org",
];

#[tokio::test]
async fn registration_refuses_addresses_the_one_email_rule_refuses() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    for bad in REFUSED {
        let response = app
            .request(Method::POST, "/auth-api/auth/register")
            .json(&json!({ "email": bad, "password": "Passw0rd-long", "firstname": "A", "lastname": "B",
                           "phone": "", "twoFactorMethod": "email", "client": client.short_name }))
            .send()
            .await
            .unwrap();
        assert_eq!(
            json_message(response).await,
            (StatusCode::BAD_REQUEST, "Not a valid email".to_owned()),
            "{bad}"
        );
    }
}
