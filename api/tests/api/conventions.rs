use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::Value;

#[tokio::test]
async fn the_checked_in_openapi_document_is_the_one_the_api_serves() {
    let app = spawn_app().await;
    let served: Value = app
        .request(Method::GET, "/api/openapi.json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/openapi.json");
    let checked_in: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(
        served == checked_in,
        "openapi/openapi.json is stale: run `cargo run -p api -- openapi --out openapi/openapi.json`"
    );
    // Every operation has an operation_id.
    for (path, item) in served["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            assert!(
                operation["operationId"].is_string(),
                "{method} {path} has no operationId"
            );
        }
    }
    let docs = app.request(Method::GET, "/api/docs").send().await.unwrap();
    assert_eq!(docs.status(), StatusCode::OK);
    assert!(docs.text().await.unwrap().contains("swagger"));
}

#[tokio::test]
async fn client_routes_get_the_spa_but_api_paths_never_do() {
    let app = spawn_app().await;
    for path in [
        "/",
        "/crm-lists",
        "/crm-list-detail/7",
        "/auth/login",
        "/form-viewer;id=1;client=x",
    ] {
        let response = app.request(Method::GET, path).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert!(
            response.text().await.unwrap().contains("<div id=root>"),
            "{path}"
        );
    }
    for path in ["/api/no-such-thing/here", "/auth-api/nothing"] {
        let response = app.request(Method::GET, path).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(json_message(response).await.1, "Not found");
    }
}

#[tokio::test]
async fn oversized_bodies_are_refused_with_413() {
    let app = spawn_app().await;
    let big = "x".repeat(100 * 1024);
    let response = app
        .request(Method::POST, "/auth-api/auth/login")
        .header("content-type", "application/json")
        .body(format!("{{\"username\":\"{big}\",\"password\":\"p\"}}"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(response).await,
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            "Request body is too large".to_owned()
        )
    );
}

#[tokio::test]
async fn health_reports_postgres_and_redis() {
    let app = spawn_app().await;
    let response = app.request(Method::GET, "/healthz").send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body, serde_json::json!({ "postgres": "ok", "redis": "ok" }));
}
