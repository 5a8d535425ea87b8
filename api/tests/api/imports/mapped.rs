use super::*;

#[tokio::test]
async fn a_column_mapped_import_reads_files_whose_headers_are_not_ours() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let fields = app.get_json("/api/imports/fields/", &session).await;
    assert!(fields
        .as_array()
        .unwrap()
        .contains(&json!({ "id": "email", "label": "Email" })));

    let form = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(
                b"Correo,Nombre,Fuente\nana@example.org,Ana,feria\n".to_vec(),
            )
            .file_name("x.csv"),
        )
        .text(
            "mapping",
            r#"{"Correo":"email","Nombre":"first_name","Fuente":"origin_code","Ignored":""}"#,
        );
    let response = app
        .api(Method::POST, "/api/imports/contacts", &session)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let job: Value = response.json().await.unwrap();
    let done = app
        .wait_for_job(&session, job["id"].as_i64().unwrap())
        .await;
    assert_eq!(done["success"], true, "{done}");
    assert_eq!(
        contacts(&app, &client).await,
        vec![("ana@example.org".into(), "Ana".into(), Some("feria".into()))]
    );

    let page = app
        .get_json("/api/contacts?q=ANA&page=1&pageSize=10", &session)
        .await;
    assert_eq!(page["total"], 1);
    assert_eq!(page["items"][0]["originCodeName"], "feria");
    let id = page["items"][0]["id"].as_i64().unwrap();
    let detail = app.get_json(&format!("/api/contacts/{id}"), &session).await;
    assert_eq!(detail["contact"]["email"], "ana@example.org");
    assert_eq!(detail["lists"], json!([]));

    let no_email = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(b"a\n1\n".to_vec()).file_name("x.csv"),
        )
        .text("mapping", r#"{"a":"first_name"}"#);
    let response = app
        .api(Method::POST, "/api/imports/contacts", &session)
        .multipart(no_email)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(response).await,
        (StatusCode::BAD_REQUEST, "Map a column to Email".to_owned())
    );
}
