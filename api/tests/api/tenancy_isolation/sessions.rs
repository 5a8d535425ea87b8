use super::*;

#[tokio::test]
async fn one_clients_session_never_reaches_another_clients_rows() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let a = app.create_client().await;
    let b = app.create_client().await;
    let session_a = app.session(&a).await;
    let session_b = app.session(&b).await;

    let job: Value = app
        .api(Method::POST, "/api/crm-list/recount", &session_a)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let job_id = job["id"].as_i64().unwrap();

    // B's jobs table is B's alone: A's job id means nothing there.
    let b_jobs: Vec<Value> = app
        .api(Method::GET, "/api/jobs", &session_b)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(b_jobs.is_empty(), "{b_jobs:?}");
    let (status, message) = json_message(
        app.api(Method::GET, &format!("/api/jobs/{job_id}"), &session_b)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status, message.as_str()),
        (StatusCode::NOT_FOUND, "Job not found")
    );

    // A's token with B's headers is refused.
    let response = app
        .request(Method::GET, "/api/jobs")
        .bearer_auth(&session_a.token)
        .header("client-short", &b.short_name)
        .header("client-id", b.id.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);

    // Settings are per client too.
    let settings_a: Value = app
        .api(Method::GET, "/api", &session_a)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let settings_b: Value = app
        .api(Method::GET, "/api", &session_b)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(settings_a["client_short"], a.short_name.as_str());
    assert_eq!(settings_b["client_short"], b.short_name.as_str());
}
