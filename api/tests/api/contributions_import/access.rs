use super::*;

#[tokio::test]
async fn importing_contributions_needs_the_contributions_page_and_a_known_platform() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let form = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(b"a".to_vec()).file_name("x.csv"),
        )
        .text("platform", "paypal");
    let response = app
        .api(Method::POST, "/api/contributions/import", &session)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(response).await,
        (
            StatusCode::BAD_REQUEST,
            "platform must be actblue, winred or mapped".to_owned()
        )
    );
    let form = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(b"a".to_vec()).file_name("x.csv"),
        )
        .text("platform", "actblue");
    let response = app
        .request(Method::POST, "/api/contributions/import")
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}
