use super::*;

#[tokio::test]
async fn a_file_that_is_not_an_export_fails_whole_and_names_what_is_missing() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let job = import(
        &app,
        &session,
        "meta",
        "x.csv",
        "Email,First\na@example.org,A\n",
    )
    .await;
    assert_eq!(job["success"], json!(false));
    let message = job["error"].as_str().unwrap_or_default().to_owned();
    assert!(message.contains("Meta Ads Manager"), "{job}");
    let perf = app
        .get_json(
            "/api/media/performance?from=2026-10-01&to=2026-10-02",
            &session,
        )
        .await;
    assert_eq!(perf["rows"], json!([]));
}
