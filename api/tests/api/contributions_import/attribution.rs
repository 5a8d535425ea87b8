use super::*;

#[tokio::test]
async fn gifts_are_credited_by_refcode_then_by_the_last_human_click_in_the_window() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let mut mailing = Vec::new();
    for name in ["March appeal", "Match week"] {
        let id: i64 = sqlx::query_scalar(
            "insert into mailings (name, subject_line, send_time) values ($1, $1, '2026-03-09 15:00:00+00')
             returning id",
        )
        .bind(name)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        mailing.push(id);
    }
    // Rule 1 at send: the donation link gets the mailing's code, recorded as a source code tied to it.
    let body = "<a href=\"https://secure.actblue.com/donate/spring?amount=25\">Give</a> <a href=\"https://example.org\">Read</a>";
    let tagged = worker::mail::links::refcode_donation_links(&mut tx, mailing[0], "a", body)
        .await
        .unwrap();
    let code = format!("em_20260309_{}_a", mailing[0]);
    assert!(
        tagged.contains(&format!(
            "https://secure.actblue.com/donate/spring?amount=25&amp;refcode={code}\""
        )),
        "{tagged}"
    );
    assert!(tagged.contains("href=\"https://example.org\""));
    let tied: Option<i64> =
        sqlx::query_scalar("select mailing_id from source_codes where code = $1")
            .bind(&code)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    assert_eq!(tied, Some(mailing[0]));

    let mut contact = Vec::new();
    for email in ["ann@example.org", "bob@example.org", "cy@example.org"] {
        let id: i64 = sqlx::query_scalar("insert into contacts (email) values ($1) returning id")
            .bind(email)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        contact.push(id);
    }
    // Gifts are at 2026-03-10 12:00 UTC. Ann clicked Match week too, but her gift carries Appeal's code.
    // Bob's last human click (a day before) is Match week; a scanner's later click on Appeal does not count.
    // Cy clicked five days before: outside the 3-day window.
    for (mailing_id, contact_id, at, machine) in [
        (mailing[1], contact[0], "2026-03-10 11:00:00+00", false),
        (mailing[0], contact[1], "2026-03-08 12:00:00+00", false),
        (mailing[1], contact[1], "2026-03-09 12:00:00+00", false),
        (mailing[0], contact[1], "2026-03-10 11:59:00+00", true),
        (mailing[1], contact[1], "2026-03-10 13:00:00+00", false),
        (mailing[0], contact[2], "2026-03-05 12:00:00+00", false),
    ] {
        sqlx::query(
            "insert into mailing_events (mailing_id, contact_id, kind, machine, created)
             values ($1, $2, 'click', $4, $3::timestamptz)",
        )
        .bind(mailing_id)
        .bind(contact_id)
        .bind(at)
        .bind(machine)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();

    let csv = format!(
        "Lineitem ID,Date,Amount,Donor Email,Reference Code\n\
         1,2026-03-10T12:00:00+00:00,25.00,ann@example.org,{code}\n\
         2,2026-03-10T12:00:00+00:00,10.00,bob@example.org,homepage\n\
         3,2026-03-10T12:00:00+00:00,15.00,cy@example.org,\n\
         4,2026-03-10T12:00:00+00:00,20.00,dee@example.org,\n"
    );
    let job = import(&app, &session, "actblue", "export.csv", csv.into_bytes()).await;
    assert_eq!(
        details(&job)["attributed"],
        serde_json::json!({ "refcode": 1, "click": 1 })
    );
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let credited: Vec<(String, Option<i64>, String)> = sqlx::query_as(
        "select line_item_id, mailing_id, attribution from contributions order by line_item_id",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    assert_eq!(
        credited,
        vec![
            ("1".into(), Some(mailing[0]), "refcode".into()),
            ("2".into(), Some(mailing[1]), "click".into()),
            ("3".into(), None, "none".into()),
            ("4".into(), None, "none".into()),
        ]
    );
}
