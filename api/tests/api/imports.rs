use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn contacts(
    app: &TestApp,
    client: &tenancy::Client,
) -> Vec<(String, String, Option<String>)> {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query_as(
        "select c.email, c.first_name, o.name from contacts c left join origin_codes o on o.id = c.origin_code_id
         order by c.email",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap()
}

async fn seed_contact(app: &TestApp, client: &tenancy::Client, email: &str, code: &str) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query(
        "with o as (insert into origin_codes (name) values ($2) on conflict (name) do update set name = excluded.name
                    returning id)
         insert into contacts (email, first_name, origin_code_id) select $1, 'Old', id from o",
    )
    .bind(email)
    .bind(code)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

fn list_id(job: &Value) -> i64 {
    job["result"]["link"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn a_csv_upload_creates_contacts_and_fills_a_new_list_with_counted_skips() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    seed_contact(&app, &client, "known@example.org", "older-code").await;

    let csv = " First , E-Mail ,Last\nAnn, Ann@Example.org ,Lee\nBob,bob@example.org,Diaz\nDup,ann@example.org,Again\n\
               Bad,not-an-email,X\n,,\nKnown,KNOWN@example.org,Person\n";
    let job = app
        .import(
            "/api/crm-list/upload?name=Spring%20RSVPs&originCode=rsvp-form&createNewContacts=1",
            &session,
            "rsvps.csv",
            csv.as_bytes().to_vec(),
        )
        .await;
    assert_eq!(job["success"], true, "{job}");
    assert_eq!(job["label"], "List Upload");
    assert_eq!(
        job["result"]["message"],
        "Read 6 rows: 2 contacts created, 1 matched, 3 added to the list; 3 skipped."
    );
    let skipped = &job["result"]["details"]["skipped"];
    assert_eq!(
        (
            skipped["invalidEmail"].as_i64(),
            skipped["duplicateInFile"].as_i64(),
            skipped["empty"].as_i64()
        ),
        (Some(1), Some(1), Some(1))
    );

    // New contacts get the upload's origin code; the known one keeps its own (no overwrite asked).
    assert_eq!(
        contacts(&app, &client).await,
        vec![
            (
                "ann@example.org".into(),
                "Ann".into(),
                Some("rsvp-form".into())
            ),
            (
                "bob@example.org".into(),
                "Bob".into(),
                Some("rsvp-form".into())
            ),
            (
                "known@example.org".into(),
                "Old".into(),
                Some("older-code".into())
            ),
        ]
    );
    let list = app
        .get_json(&format!("/api/crm-list/{}", list_id(&job)), &session)
        .await;
    assert_eq!(
        (
            list["name"].as_str(),
            list["count"].as_i64(),
            list["kind"].as_str()
        ),
        (Some("Spring RSVPs"), Some(3), Some("upload"))
    );
}

#[tokio::test]
async fn without_create_new_contacts_only_known_contacts_join_and_overwrite_is_explicit() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    seed_contact(&app, &client, "known@example.org", "older-code").await;
    let csv = b"email\nknown@example.org\nstranger@example.org\n".to_vec();

    let job = app
        .import(
            "/api/crm-list/upload?name=Known&originCode=new-code",
            &session,
            "k.csv",
            csv.clone(),
        )
        .await;
    assert_eq!(job["result"]["details"]["contactsCreated"], 0);
    assert_eq!(job["result"]["details"]["addedToList"], 1);
    assert_eq!(contacts(&app, &client).await.len(), 1);
    assert_eq!(
        contacts(&app, &client).await[0].2.as_deref(),
        Some("older-code")
    );

    let job = app
        .import(
            "/api/crm-list/upload?name=Known2&originCode=new-code&overwriteOriginCode=1",
            &session,
            "k.csv",
            csv,
        )
        .await;
    assert_eq!(job["result"]["details"]["originCodesOverwritten"], 1);
    assert_eq!(
        contacts(&app, &client).await[0].2.as_deref(),
        Some("new-code")
    );
}

#[tokio::test]
async fn semicolons_tabs_a_bom_and_windows_1252_are_all_read() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    let mut bom = b"\xEF\xBB\xBFEmail;First\n".to_vec();
    bom.extend_from_slice("zoë@example.org;Zoë\n".as_bytes());
    let cp1252 = b"Email\tFirst\njose@example.org\tJos\xE9\n".to_vec();
    for (name, bytes) in [("bom.csv", bom), ("cp1252.csv", cp1252)] {
        let job = app
            .import(
                // List names are unique per client: each file gets its own list.
                &format!("/api/crm-list/upload?name={name}&createNewContacts=1"),
                &session,
                name,
                bytes,
            )
            .await;
        assert_eq!(job["success"], true, "{name}: {job}");
        assert_eq!(job["result"]["details"]["contactsCreated"], 1, "{name}");
    }
    let names: Vec<String> = contacts(&app, &client)
        .await
        .into_iter()
        .map(|c| c.1)
        .collect();
    assert_eq!(names, vec!["José".to_owned(), "Zoë".to_owned()]);
}

#[tokio::test]
async fn an_xlsx_upload_is_read_from_its_first_sheet() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (col, h) in ["EMAIL", "First Name", "Last Name"].iter().enumerate() {
        sheet.write_string(0, col as u16, *h).unwrap();
    }
    for row in 1..=50u32 {
        sheet
            .write_string(row, 0, format!("person{row}@example.org"))
            .unwrap();
        sheet.write_string(row, 1, "=cmd()").unwrap();
        sheet.write_number(row, 2, f64::from(row)).unwrap();
    }
    let bytes = book.save_to_buffer().unwrap();
    let job = app
        .import(
            "/api/crm-list/upload?name=Sheet&createNewContacts=1",
            &session,
            "people.XLSX",
            bytes,
        )
        .await;
    assert_eq!(job["success"], true, "{job}");
    assert_eq!(job["result"]["details"]["contactsCreated"], 50);

    // A formula-looking name is stored as text and exported neutralised.
    let csv = app
        .api(
            Method::GET,
            &format!("/api/crm-list/{}/download", list_id(&job)),
            &session,
        )
        .send()
        .await
        .unwrap();
    let text = csv.text().await.unwrap();
    assert!(text.contains("person1@example.org,'=cmd(),1,\n"), "{text}");
}

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

#[tokio::test]
async fn an_ngp_import_upserts_on_vanid_and_honours_the_actives_window() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let recent = (chrono::Utc::now() - chrono::Duration::days(3))
        .format("%m/%d/%Y")
        .to_string();
    let tsv = format!(
        "VANID\tFirst\tLast\tDate Created\tOriginCodeName\tPreferredEmail\n\
         101\tAnn\tLee\t{recent}\tngp-web, ngp-event\tann@example.org\n\
         102\tBob\tDiaz\t01/15/2019\tngp-event\tbob@example.org\n\
         abc\tBad\tVan\t{recent}\tngp-web\tbad@example.org\n"
    );
    let job = app
        .import(
            "/api/contacts/ngp-import?days=90",
            &session,
            "saved.txt",
            tsv.clone().into_bytes(),
        )
        .await;
    assert_eq!(job["label"], "NGP Import");
    assert_eq!(job["success"], true, "{job}");
    assert_eq!(job["result"]["link"], "/segments/origin-codes");
    let skipped = &job["result"]["details"]["skipped"];
    assert_eq!(
        (
            skipped["outsideDateWindow"].as_i64(),
            skipped["invalidVanid"].as_i64()
        ),
        (Some(1), Some(1))
    );
    assert_eq!(
        contacts(&app, &client).await,
        vec![(
            "ann@example.org".into(),
            "Ann".into(),
            Some("ngp-web".into())
        )]
    );

    // The same file again, with a changed name and no window: VANID 101 is updated, not duplicated.
    let again = tsv.replace("101\tAnn", "101\tAnnie");
    let job = app
        .import(
            "/api/contacts/ngp-import",
            &session,
            "saved.csv.txt",
            again.into_bytes(),
        )
        .await;
    assert_eq!(job["result"]["details"]["contactsCreated"], 1);
    assert_eq!(job["result"]["details"]["matched"], 1);
    let all = contacts(&app, &client).await;
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].1, "Annie");

    let codes = app.get_json("/api/external-origin-code", &session).await;
    let counts: Vec<(String, i64)> = codes
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_owned(),
                c["contactCount"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(counts, vec![("ngp-event".into(), 1), ("ngp-web".into(), 1)]);

    let missing = app
        .import(
            "/api/contacts/ngp-import",
            &session,
            "x.csv",
            b"VANID,First\n1,A\n".to_vec(),
        )
        .await;
    assert_eq!(
        missing["error"],
        "Missing required columns: Last, Date Created, OriginCodeName, PreferredEmail"
    );
}

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

#[tokio::test]
async fn another_clients_contacts_and_uploads_are_out_of_reach() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let a = app.create_client().await;
    let b = app.create_client().await;
    let session_a = app.session(&a).await;
    let session_b = app.session(&b).await;
    app.import(
        "/api/crm-list/upload?name=A&createNewContacts=1",
        &session_a,
        "a.csv",
        b"email\nonly-a@example.org\n".to_vec(),
    )
    .await;
    let page = app.get_json("/api/contacts", &session_b).await;
    assert_eq!(page["total"], 0);
    let a_contact = app.get_json("/api/contacts", &session_a).await["items"][0]["id"]
        .as_i64()
        .unwrap();
    let response = app
        .api(
            Method::GET,
            &format!("/api/contacts/{a_contact}"),
            &session_b,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn deleting_a_list_or_a_contact_removes_their_memberships() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let csv = b"email\na@example.org\nb@example.org\n".to_vec();
    let first = list_id(
        &app.import(
            "/api/crm-list/upload?name=One&createNewContacts=1",
            &session,
            "a.csv",
            csv.clone(),
        )
        .await,
    );
    let second = list_id(
        &app.import("/api/crm-list/upload?name=Two", &session, "a.csv", csv)
            .await,
    );
    let members = |list: i64| {
        let app = &app;
        let client = &client;
        async move {
            let mut tx = app.tenancy.begin(client).await.unwrap();
            sqlx::query_scalar::<_, i64>("select count(*) from crm_list_members where list_id = $1")
                .bind(list)
                .fetch_one(&mut *tx)
                .await
                .unwrap()
        }
    };
    assert_eq!((members(first).await, members(second).await), (2, 2));

    let deleted = app
        .api(Method::DELETE, &format!("/api/crm-list/{first}"), &session)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_eq!(members(first).await, 0);

    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("delete from contacts where email = 'a@example.org'")
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(members(second).await, 1);
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

#[tokio::test]
async fn an_ngp_date_created_that_is_not_a_date_is_skipped_as_an_invalid_date() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let recent = (chrono::Utc::now() - chrono::Duration::days(3))
        .format("%m/%d/%Y")
        .to_string();
    let tsv = format!(
        "VANID\tFirst\tLast\tDate Created\tOriginCodeName\tPreferredEmail\n\
         101\tAnn\tLee\t{recent}\tngp-web\tann@example.org\n\
         102\tBob\tDiaz\tyesterday\tngp-web\tbob@example.org\n"
    );
    let job = app
        .import(
            "/api/contacts/ngp-import?days=90",
            &session,
            "saved.txt",
            tsv.into_bytes(),
        )
        .await;
    assert_eq!(job["success"], true, "{job}");
    assert_eq!(
        job["result"]["message"],
        "Read 2 rows: 1 contacts created, 0 updated; 1 skipped."
    );
    assert_eq!(job["result"]["details"]["skipped"]["invalidDate"], 1);
    assert_eq!(
        contacts(&app, &client).await,
        vec![(
            "ann@example.org".into(),
            "Ann".into(),
            Some("ngp-web".into())
        )]
    );
}

#[tokio::test]
async fn imports_skip_cells_containing_a_nul_byte_with_a_reason() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    // Past the first 64 KB, where the file is sniffed for binary content.
    let mut csv = b"Email,First\n".to_vec();
    for i in 0..3000 {
        csv.extend_from_slice(format!("person{i}@example.org,Person number {i}\n").as_bytes());
    }
    csv.extend_from_slice(b"nul@example.org,Bad\x00Name\nlast@example.org,Last\n");
    let job = app
        .import(
            "/api/crm-list/upload?name=Nul&createNewContacts=1",
            &session,
            "nul.csv",
            csv,
        )
        .await;
    assert_eq!(job["success"], true, "{job}");
    assert_eq!(
        job["result"]["message"],
        "Read 3002 rows: 3001 contacts created, 0 matched, 3001 added to the list; 1 skipped."
    );
    assert_eq!(job["result"]["details"]["skipped"]["nulByte"], 1);
    let names = contacts(&app, &client).await;
    assert!(names.iter().all(|c| c.0 != "nul@example.org"));
    assert!(names.iter().any(|c| c.0 == "last@example.org"));
}

#[tokio::test]
async fn an_import_skips_the_addresses_the_one_email_rule_refuses() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let csv = "Email\n<b>@x.org\na;b@x.org\n(c)a@x.org\na..b@x.org\na@-x.org\n Good@Example.org \n";
    let job = app
        .import(
            "/api/crm-list/upload?name=Rule&createNewContacts=1",
            &session,
            "rule.csv",
            csv.as_bytes().to_vec(),
        )
        .await;
    assert_eq!(job["success"], true, "{job}");
    assert_eq!(job["result"]["details"]["skipped"]["invalidEmail"], 5);
    assert_eq!(
        contacts(&app, &client)
            .await
            .into_iter()
            .map(|c| c.0)
            .collect::<Vec<_>>(),
        vec!["good@example.org".to_owned()]
    );
}
