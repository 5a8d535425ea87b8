use super::*;

#[tokio::test]
async fn hostile_report_requests_are_refused_plainly() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    for (path, status) in [
        ("/api/reports/nope", StatusCode::NOT_FOUND),
        (
            "/api/reports/lybunt%27%3B%20drop%20table%20contacts",
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/reports/monthly-summary?from=2026-03-01&to=2026-01-01",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/reports/monthly-summary?from=2000-01-01&to=2026-01-01",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/reports/monthly-summary?from=yesterday",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/reports/mailings/file?format=pdf",
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let response = app.api(Method::GET, path, &session).send().await.unwrap();
        assert_eq!(response.status(), status, "{path}");
    }
    let response = app
        .api(Method::POST, "/api/report-schedules", &session)
        .json(
            &json!({ "kind": "lybunt", "format": "csv", "frequency": "weekly",
                        "recipients": ["stranger@example.org"] }),
        )
        .send()
        .await
        .unwrap();
    let (status, message) = json_message(response).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(message, "stranger@example.org is not a user of this client");
}
