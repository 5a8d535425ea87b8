use super::*;

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
