use super::*;

#[tokio::test]
async fn bad_files_end_in_a_clear_error_and_change_nothing() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    let failures = [
        (
            "no-email.csv",
            b"Name,Phone\nAnn,555\n".to_vec(),
            "The file has no 'Email' column",
        ),
        ("header-only.csv", b"".to_vec(), ""),
        (
            "garbage.csv",
            vec![0u8, 159, 146, 150, 0, 1, 2, 3],
            "The file is not a text file (CSV or TXT)",
        ),
        (
            "fake.xlsx",
            b"this is not a workbook at all".to_vec(),
            "The file is not a readable Excel workbook (.xls or .xlsx)",
        ),
    ];
    for (name, bytes, error) in failures {
        let response = app
            .upload(
                "/api/crm-list/upload?name=Bad&createNewContacts=1",
                &session,
                name,
                bytes,
            )
            .await;
        if error.is_empty() {
            assert_eq!(
                json_message(response).await,
                (StatusCode::BAD_REQUEST, "The file is empty".to_owned())
            );
            continue;
        }
        assert_eq!(response.status(), StatusCode::ACCEPTED);
        let job: Value = response.json().await.unwrap();
        let done = app
            .wait_for_job(&session, job["id"].as_i64().unwrap())
            .await;
        assert_eq!(
            (done["success"].as_bool(), done["error"].as_str()),
            (Some(false), Some(error)),
            "{name}"
        );
    }
    let wrong_type = app
        .upload(
            "/api/crm-list/upload?name=Bad",
            &session,
            "notes.pdf",
            b"%PDF".to_vec(),
        )
        .await;
    assert_eq!(
        json_message(wrong_type).await,
        (
            StatusCode::BAD_REQUEST,
            "Upload a .csv, .xls or .xlsx file".to_owned()
        )
    );
    let too_big = app
        .upload(
            "/api/crm-list/upload?name=Big",
            &session,
            "big.csv",
            vec![b'a'; 5 * 1024 * 1024],
        )
        .await;
    assert_eq!(too_big.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert!(contacts(&app, &client).await.is_empty());
}

async fn list_names(app: &TestApp, session: &Session) -> Vec<String> {
    app.get_json("/api/crm-list", session)
        .await
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn an_unterminated_quote_fails_the_job_naming_the_line() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    // The quote opened in line 3 is never closed: read naively, the rest of the file becomes one name.
    let csv =
        b"Email,First\nann@example.org,Ann\nbob@example.org,\"Bob\ncy@example.org,Cy\n".to_vec();
    let job = app
        .import(
            "/api/crm-list/upload?name=Quoted&createNewContacts=1",
            &session,
            "quoted.csv",
            csv,
        )
        .await;
    assert_eq!(
        (job["success"].as_bool(), job["error"].as_str()),
        (
            Some(false),
            Some("The quote opened on line 3 is never closed")
        ),
        "{job}"
    );
    assert!(contacts(&app, &client).await.is_empty());

    // A quoted cell may span lines and hold doubled quotes; that is not an error.
    let csv =
        b"Email,First\n\"ann@example.org\",\"Ann \"\"A\"\"\nLee\"\nbob@example.org,Bob\n".to_vec();
    let job = app
        .import(
            "/api/crm-list/upload?name=Fine&createNewContacts=1",
            &session,
            "fine.csv",
            csv,
        )
        .await;
    assert_eq!(job["success"], true, "{job}");
    assert_eq!(job["result"]["details"]["contactsCreated"], 2);
    assert_eq!(contacts(&app, &client).await[0].1, "Ann \"A\"\nLee");
}

#[tokio::test]
async fn a_failed_list_upload_leaves_no_empty_list_behind() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    let job = app
        .import(
            "/api/crm-list/upload?name=No%20email&createNewContacts=1",
            &session,
            "no-email.csv",
            b"Name,Phone\nAnn,555\n".to_vec(),
        )
        .await;
    assert_eq!(job["error"], "The file has no 'Email' column");
    let job = app
        .import(
            "/api/crm-list/upload?name=Not%20a%20workbook",
            &session,
            "fake.xlsx",
            b"this is not a workbook at all".to_vec(),
        )
        .await;
    assert_eq!(job["success"], false);
    assert!(list_names(&app, &session).await.is_empty());

    // A successful upload still ends as one list holding its members.
    let job = app
        .import(
            "/api/crm-list/upload?name=Good&createNewContacts=1",
            &session,
            "good.csv",
            b"email\na@example.org\n".to_vec(),
        )
        .await;
    assert_eq!(job["success"], true, "{job}");
    assert_eq!(list_names(&app, &session).await, vec!["Good".to_owned()]);
    let list = app
        .get_json(&format!("/api/crm-list/{}", list_id(&job)), &session)
        .await;
    assert_eq!(list["count"], 1);
}

#[tokio::test]
async fn a_list_name_over_the_limit_is_refused_naming_the_limit() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let long = "x".repeat(5000);

    let response = app
        .upload(
            &format!("/api/crm-list/upload?name={long}"),
            &session,
            "a.csv",
            b"email\na@example.org\n".to_vec(),
        )
        .await;
    let expected = (
        StatusCode::BAD_REQUEST,
        "List name must be at most 200 characters".to_owned(),
    );
    assert_eq!(json_message(response).await, expected);
    let response = app
        .api(Method::POST, "/api/crm-list", &session)
        .json(&json!({ "name": long, "originCodes": [1] }))
        .send()
        .await
        .unwrap();
    assert_eq!(json_message(response).await, expected);

    let response = app
        .upload(
            "/api/crm-list/upload?name=%20%20",
            &session,
            "a.csv",
            b"email\na@example.org\n".to_vec(),
        )
        .await;
    assert_eq!(
        json_message(response).await,
        (StatusCode::BAD_REQUEST, "List name is required".to_owned())
    );
}
