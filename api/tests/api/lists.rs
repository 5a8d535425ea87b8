use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn origin_code(app: &TestApp, session: &Session, name: &str) -> i64 {
    let code: Value = app
        .api(
            Method::POST,
            "/api/external-origin-code/get-or-create-crm",
            session,
        )
        .json(&json!({ "name": name }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    code["id"].as_i64().unwrap()
}

#[tokio::test]
async fn origin_codes_are_created_once_and_searched_by_name() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let first = origin_code(&app, &session, "fb-lead-ad").await;
    assert_eq!(origin_code(&app, &session, "  fb-lead-ad ").await, first);
    origin_code(&app, &session, "web_signup").await;
    origin_code(&app, &session, "websignup").await;

    let found = app
        .get_json("/api/external-origin-code/search?q=LEAD", &session)
        .await;
    assert_eq!(
        found,
        json!([{ "id": first, "name": "fb-lead-ad", "label": "fb-lead-ad" }])
    );
    // `_` is a literal underscore, not a LIKE wildcard.
    let found = app
        .get_json("/api/external-origin-code/search?q=web_", &session)
        .await;
    assert_eq!(found.as_array().unwrap().len(), 1);
    let all = app
        .get_json("/api/external-origin-code/search", &session)
        .await;
    assert_eq!(all.as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn a_query_list_counts_its_contacts_exports_them_and_can_be_deleted() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let web = origin_code(&app, &session, "web").await;
    let event = origin_code(&app, &session, "event").await;
    let other = origin_code(&app, &session, "other").await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query(
        "insert into contacts (email, first_name, last_name, origin_code_id)
         values ('ann@example.org', 'Ann', 'Lee', $1), ('bob@example.org', 'Bob', 'Diaz, Jr.', $2),
                ('cy@example.org', 'Cy', 'Ng', $3)",
    )
    .bind(web)
    .bind(event)
    .bind(other)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();

    let response = app
        .api(Method::POST, "/api/crm-list", &session)
        .json(&json!({ "name": "Web and events", "originCodes": [web, event] }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let list: Value = response.json().await.unwrap();
    assert_eq!(list["count"], 2);
    assert_eq!(list["kind"], "query");
    assert_eq!(list["originCodes"].as_array().unwrap().len(), 2);
    let id = list["id"].as_i64().unwrap();

    let lists = app.get_json("/api/crm-list", &session).await;
    assert_eq!(lists.as_array().unwrap().len(), 1);
    assert_eq!(
        app.get_json(&format!("/api/crm-list/{id}"), &session).await["name"],
        "Web and events"
    );

    let csv = app
        .api(
            Method::GET,
            &format!("/api/crm-list/{id}/download"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), StatusCode::OK);
    assert!(csv.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/csv"));
    assert_eq!(
        csv.headers()["content-disposition"],
        "attachment; filename=\"Web and events.csv\""
    );
    assert_eq!(
        csv.text().await.unwrap(),
        "Email,First,Last,Origin code\nann@example.org,Ann,Lee,web\nbob@example.org,Bob,\"Diaz, Jr.\",event\n"
    );

    // Another client cannot see it.
    let stranger = app.session(&app.create_client().await).await;
    let (status, _) = json_message(
        app.api(Method::GET, &format!("/api/crm-list/{id}"), &stranger)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let deleted = app
        .api(Method::DELETE, &format!("/api/crm-list/{id}"), &session)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let gone = app
        .api(Method::GET, &format!("/api/crm-list/{id}"), &session)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(gone).await,
        (StatusCode::NOT_FOUND, "List not found".to_owned())
    );
}

#[tokio::test]
async fn invalid_lists_are_refused_and_nothing_is_created() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let code = origin_code(&app, &session, "web").await;
    let cases = [
        (
            json!({ "name": "", "originCodes": [code] }),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({ "name": "   ", "originCodes": [code] }),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({ "name": "No codes", "originCodes": [] }),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({ "name": "Unknown code", "originCodes": [code, 987654] }),
            StatusCode::BAD_REQUEST,
        ),
        (json!({ "originCodes": [code] }), StatusCode::BAD_REQUEST),
    ];
    for (body, status) in cases {
        let response = app
            .api(Method::POST, "/api/crm-list", &session)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), status, "{body}");
    }
    assert_eq!(app.get_json("/api/crm-list", &session).await, json!([]));
}
