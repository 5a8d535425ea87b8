use super::*;

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
