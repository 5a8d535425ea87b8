//! `GET /metrics` (issue 18): Prometheus text with requests by operation and status and latency histograms,
//! and nothing that names a client.
use crate::helpers::*;

#[tokio::test]
async fn metrics_count_requests_by_operation_and_status_without_naming_clients() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    app.get_json("/api/contacts?q=someone", &session).await;
    let text = app
        .http
        .get(format!("{}/metrics", app.address))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let line = text
        .lines()
        .find(|l| {
            l.starts_with("compass_http_requests_total{")
                && l.contains("operation=\"searchContacts\"")
                && l.contains("status=\"200\"")
        })
        .unwrap_or_else(|| panic!("no searchContacts counter in:\n{text}"));
    let count: f64 = line.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(count >= 1.0, "{line}");
    assert!(text.contains(
        "compass_http_request_duration_seconds_bucket{operation=\"searchContacts\",le=\"0.05\"}"
    ));
    assert!(
        !text.contains(&client.short_name),
        "a client's name in /metrics"
    );
    assert!(!text.contains("someone"));
}
