use super::*;

#[tokio::test]
async fn projections_answer_with_goals_and_markers() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let response = app
        .api(Method::PUT, "/api/projections/goals", &session)
        .json(&json!({ "month": 3, "amount": "25000.50" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let response = app
        .api(Method::PUT, "/api/projections/goals", &session)
        .json(&json!({ "month": 3, "amount": "-5" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let view = app.get_json("/api/projections", &session).await;
    assert_eq!(view["months"][2]["goal"], json!("25000.50"), "{view}");
    let year = view["year"].as_i64().unwrap();
    let response = app
        .api(Method::POST, "/api/projections/events", &session)
        .json(&json!({ "date": format!("{year}-11-03"), "label": "Election day", "kind": "election" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let markers = app
        .get_json("/api/selection/inflection-markers", &session)
        .await;
    let labels: Vec<&str> = markers
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["label"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        vec!["Q1 end", "Q2 end", "Q3 end", "Election day", "Q4 end"]
    );
    assert_eq!(markers[0]["date"], json!(format!("{year}-03-31")));
}
