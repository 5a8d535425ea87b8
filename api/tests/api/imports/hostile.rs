//! Hostile files through every import endpoint and the real worker (issue 33): a cell past the limit fails the
//! job naming its row and column; a row with a NUL byte is skipped, named and counted while the rest imports;
//! the media and external mailings uploads take the upload limit, not the body limit.

use super::*;

#[path = "../../../../worker/tests/common/hostile.rs"]
mod files;

/// Every import endpoint: its path and the form fields it needs besides the file.
const IMPORTS: [(&str, &[(&str, &str)]); 8] = [
    ("/api/crm-list/upload?name=Hostile&createNewContacts=1", &[]),
    ("/api/contacts/ngp-import", &[]),
    (
        "/api/imports/contacts",
        &[("mapping", r#"{"Email":"email"}"#)],
    ),
    ("/api/contributions/import", &[("platform", "actblue")]),
    (
        "/api/contributions/import",
        &[
            ("platform", "mapped"),
            (
                "mapping",
                r#"{"Id":"line_item_id","Date":"date","Amount":"amount"}"#,
            ),
        ],
    ),
    ("/api/media/import", &[("platform", "meta")]),
    (
        "/api/media/import",
        &[
            ("platform", "other"),
            (
                "mapping",
                r#"{"Day":"day","Campaign":"campaign","Ad":"ad","Spend":"spend"}"#,
            ),
        ],
    ),
    ("/api/external-mailings/import", &[]),
];

async fn post(
    app: &TestApp,
    session: &Session,
    path: &str,
    fields: &[(&str, &str)],
    name: &str,
    bytes: Vec<u8>,
) -> reqwest::Response {
    let mut form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(bytes).file_name(name.to_owned()),
    );
    for (field, value) in fields {
        form = form.text(field.to_string(), value.to_string());
    }
    app.api(Method::POST, path, session)
        .multipart(form)
        .send()
        .await
        .unwrap()
}

/// Posts the file and waits for its job; `None` when the endpoint does not take this type of file.
async fn run(
    app: &TestApp,
    session: &Session,
    (path, fields): (&str, &[(&str, &str)]),
    name: &str,
    bytes: Vec<u8>,
) -> Option<Value> {
    let response = post(app, session, path, fields, name, bytes).await;
    if response.status() == StatusCode::BAD_REQUEST {
        let body: Value = response.json().await.unwrap();
        assert!(
            body["message"].as_str().unwrap_or("").contains("Upload a"),
            "{path} {name}: {body}"
        );
        return None;
    }
    assert_eq!(response.status(), StatusCode::ACCEPTED, "{path} {name}");
    let job: Value = response.json().await.unwrap();
    Some(app.wait_for_job(session, job["id"].as_i64().unwrap()).await)
}

#[tokio::test]
async fn every_import_refuses_a_cell_past_the_limit_naming_its_row_and_column() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    // The oversized cell is in the header row, which every import reads first, whatever columns it wants.
    let xlsx = files::giant_cell(
        std::io::Cursor::new(Vec::new()),
        files::Packing::Deflated,
        files::Giant::SharedString,
        1,
        1 << 20,
    )
    .into_inner();
    let mut csv = b"Email,".to_vec();
    files::repeat(&mut csv, b'x', 1 << 20);
    csv.extend_from_slice(b"\nann@example.org,x\n");
    for import in IMPORTS {
        let mut read = 0;
        for (name, bytes, error) in [
            (
                "hostile.xlsx",
                xlsx.clone(),
                "Row 1, column B: the cell is longer than 65536 bytes",
            ),
            (
                "hostile.csv",
                csv.clone(),
                "Row 1, column 2: the cell is longer than 65536 bytes",
            ),
        ] {
            let Some(job) = run(&app, &session, import, name, bytes).await else {
                continue;
            };
            read += 1;
            assert_eq!(
                (job["success"].as_bool(), job["error"].as_str()),
                (Some(false), Some(error)),
                "{} {name}: {job}",
                import.0
            );
        }
        assert!(read > 0, "{} took neither file", import.0);
    }
}

#[tokio::test]
async fn media_and_external_mailings_uploads_take_the_upload_limit() {
    // Every operation that takes a file is an upload because it declares a multipart body: no list to keep.
    let mut uploads = api::body_limit::UploadOperations::of::<api::routes::Apis>().list();
    uploads.sort();
    assert_eq!(
        uploads,
        [
            "POST /api/contacts/ngp-import",
            "POST /api/contributions/import",
            "POST /api/crm-list/upload",
            "POST /api/external-mailings/import",
            "POST /api/imports/contacts",
            "POST /api/media/import",
            "POST /api/suppressions/import",
        ]
    );
    // The upload limit is 4 MiB in the tests and the body limit 64 KiB.
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let big = |bytes: usize| {
        let mut csv = b"Day,Campaign,Ad,Spend\n".to_vec();
        while csv.len() < bytes {
            csv.extend_from_slice(b"2026-10-01,Fall,Video,1.00\n");
        }
        csv
    };
    for (path, fields) in [IMPORTS[6], IMPORTS[7]] {
        let response = post(&app, &session, path, fields, "big.csv", big(3 << 20)).await;
        assert_eq!(response.status(), StatusCode::ACCEPTED, "{path}");
        let response = post(&app, &session, path, fields, "huge.csv", big(5 << 20)).await;
        assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE, "{path}");
    }
}

#[tokio::test]
async fn contribution_media_and_mailing_imports_skip_and_name_rows_with_a_nul_byte() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    let gifts = "Id,Date,Amount,Email\nL1,2026-01-02 10:00:00,10.00,a@example.org\n\
                 L2,2026-01-02 11:00:00,5.00,b\0@example.org\nL3,2026-01-02 12:00:00,7.00,c@example.org\n";
    let job = run(&app, &session, IMPORTS[4], "gifts.csv", gifts.into())
        .await
        .unwrap();
    assert_eq!(job["success"], true, "{job}");
    assert_eq!(job["result"]["details"]["newLines"], 2, "{job}");
    assert_eq!(
        job["result"]["details"]["skipped"]["nulByte"],
        json!({ "count": 1, "rows": [3] })
    );
    assert!(
        job["result"]["message"]
            .as_str()
            .unwrap()
            .ends_with(" Row 3 was skipped: it holds a NUL byte."),
        "{job}"
    );

    let ads =
        "Day,Campaign,Ad,Spend\n2026-10-01,Fall,Video\0A,1.00\n2026-10-01,Fall,Video B,2.00\n\
               2026-10-02,Fall,Video B,3.00\n";
    let job = run(&app, &session, IMPORTS[6], "ads.csv", ads.into())
        .await
        .unwrap();
    assert_eq!(job["success"], true, "{job}");
    assert_eq!(
        job["result"]["details"]["nulByteRows"],
        json!({ "count": 1, "rows": [2] })
    );
    assert_eq!(
        job["result"]["message"],
        "Imported 2 ad days (2 new, 0 replaced) for 1 ads in 1 campaigns. Row 2 was skipped: it holds a NUL byte."
    );

    let sends =
        "Campaign Name,Sent At,Emails Sent\nSpring,2030-03-04,1000\nSummer\0,2030-06-04,10\n\
                 Fall,2030-09-04,20\nWinter,2030-12-04,\0\n";
    let job = run(&app, &session, IMPORTS[7], "sends.csv", sends.into())
        .await
        .unwrap();
    assert_eq!(job["success"], true, "{job}");
    assert_eq!(
        job["result"]["details"]["nulByteRows"],
        json!({ "count": 2, "rows": [3, 5] })
    );
    assert_eq!(
        job["result"]["message"],
        "Imported 2 external mailings (2 new, 0 updated). Rows 3, 5 were skipped: they hold a NUL byte."
    );
}
