use super::*;

#[tokio::test]
async fn imports_skip_cells_containing_a_nul_byte_with_a_reason() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;

    // One in the first 64 KB (once sniffed as binary content, which failed the whole file) and one past them.
    let mut csv = b"Email,First\nearly@example.org,Ea\x00rly\n".to_vec();
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
        "Read 3003 rows: 3001 contacts created, 0 matched, 3001 added to the list; 2 skipped. \
         Rows 2, 3003 were skipped: they hold a NUL byte."
    );
    assert_eq!(job["result"]["details"]["skipped"]["nulByte"], 2);
    assert_eq!(job["result"]["details"]["nulByteRows"], json!([2, 3003]));
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
