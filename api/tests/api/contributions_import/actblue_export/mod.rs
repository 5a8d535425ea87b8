use super::*;

mod generated;
mod read_back;

use generated::generate;
use read_back::{digest, imported};

/// A source code as stored: code, parsed, channel, campaign, variant, date.
type CodeRow = (
    String,
    bool,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<chrono::NaiveDate>,
);

#[tokio::test]
async fn an_actblue_export_ties_out_to_the_cent_and_reimporting_changes_nothing() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    {
        // A donor who is already a contact keeps her origin code.
        let mut tx = app.tenancy.begin(&client).await.unwrap();
        sqlx::query(
            "with o as (insert into origin_codes (name) values ('spring-form') returning id)
             insert into contacts (email, first_name, origin_code_id) select 'donor1@example.org', 'Known', id from o",
        )
        .execute(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
    }

    let mut lines = generate();
    assert!(lines.len() > 450, "{}", lines.len());
    // The first pull: every line paid, one line listed twice and an empty row.
    let mut file = export(&lines, true);
    file.extend_from_slice(csv_line(&lines[5], true).as_bytes());
    file.extend_from_slice(b"\r\n,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\r\n");
    let job = import(
        &app,
        &session,
        "actblue",
        "paid_contributions.csv",
        file.clone(),
    )
    .await;
    let d = details(&job);
    let n = lines.len() as i64;
    assert_eq!(d["rowsRead"], n + 2);
    assert_eq!(d["newLines"], n);
    assert_eq!(d["duplicatesInFile"]["count"], 1);
    assert_eq!(d["duplicatesInFile"]["rows"][0], n + 2);
    assert_eq!(d["skipped"]["empty"]["count"], 1);
    assert_eq!(d["skipped"]["empty"]["rows"][0], n + 3);
    assert_eq!(d["alreadyKnown"], 0);
    assert_eq!(imported(&app, &client).await, expected(&lines));

    // The same export again: nothing changes, every line is already known.
    let before = digest(&app, &client).await;
    let again = import(&app, &session, "actblue", "paid_contributions.csv", file).await;
    let d = details(&again);
    assert_eq!(
        (
            d["newLines"].as_i64(),
            d["updated"].as_i64(),
            d["alreadyKnown"].as_i64()
        ),
        (Some(0), Some(0), Some(n))
    );
    assert_eq!(digest(&app, &client).await, before);

    // The refunds export: 40 known lines refunded, plus one the paid pulls never showed.
    let mut refunds = Vec::new();
    for (i, l) in lines.iter_mut().enumerate().filter(|(i, _)| i % 13 == 4) {
        l.refund = Some((format!("RF{i}"), "2026-04-02 10:00:00".to_owned()));
        refunds.push(l.clone());
    }
    let unseen = Line {
        line: "777777".into(),
        refund: Some(("RF-unseen".into(), "2026-04-03 09:00:00".into())),
        ..lines[0].clone()
    };
    refunds.push(unseen.clone());
    lines.push(unseen);
    let job = import(
        &app,
        &session,
        "actblue",
        "refunded_contributions.csv",
        export(&refunds, false),
    )
    .await;
    let d = details(&job);
    assert_eq!(d["updated"].as_i64(), Some(refunds.len() as i64 - 1));
    assert_eq!(d["newLines"], 1);
    assert_eq!(imported(&app, &client).await, expected(&lines));

    // A later paid pull leaves the refunded lines out: nothing is deleted or un-refunded.
    let before = digest(&app, &client).await;
    let paid: Vec<Line> = lines
        .iter()
        .filter(|l| l.refund.is_none())
        .cloned()
        .collect();
    let job = import(
        &app,
        &session,
        "actblue",
        "paid_contributions.csv",
        export(&paid, false),
    )
    .await;
    assert_eq!(details(&job)["newLines"], 0);
    assert_eq!(digest(&app, &client).await, before);
    let figures = imported(&app, &client).await;
    assert_eq!(figures, expected(&lines));
    assert!(figures.refunds > 0 && figures.net < figures.gross);

    let mut tx = app.tenancy.begin(&client).await.unwrap();
    // Every gift is linked to its donor's contact; new donors got the ActBlue origin code, the known one kept hers.
    let unlinked: i64 = sqlx::query_scalar(
        "select count(*) from contributions g left join contacts c on c.id = g.contact_id
         where c.email is distinct from g.email",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    assert_eq!(unlinked, 0);
    let origins: Vec<(String, i64)> = sqlx::query_as(
        "select o.name, count(*) from contacts c join origin_codes o on o.id = c.origin_code_id group by 1 order by 1",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    let donors: std::collections::BTreeSet<String> =
        lines.iter().map(|l| l.email.to_lowercase()).collect();
    assert!(donors.contains("donor1@example.org"));
    assert_eq!(
        origins,
        vec![
            ("actblue".into(), donors.len() as i64 - 1),
            ("spring-form".into(), 1)
        ]
    );
    let jose: String =
        sqlx::query_scalar("select first_name from contacts where email = 'donor3@example.org'")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    assert_eq!(jose, "José, Jr.");
    // Every distinct code is a source code, parsed when it fits the default pattern.
    let codes: Vec<CodeRow> =
        sqlx::query_as("select code, parsed, channel, campaign, variant, code_date from source_codes order by code")
            .fetch_all(&mut *tx)
            .await
            .unwrap();
    assert_eq!(codes.len(), 5);
    assert_eq!(
        codes[0],
        (
            "em_20260105_winter_push_a".into(),
            true,
            Some("em".into()),
            Some("winter_push".into()),
            Some("a".into()),
            chrono::NaiveDate::from_ymd_opt(2026, 1, 5)
        )
    );
    assert_eq!(codes[3].0, "homepage");
    assert!(!codes[3].1);
    let coded: i64 = sqlx::query_scalar(
        "select count(*) from contributions g join source_codes s on s.id = g.source_code_id where s.code = g.refcode",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    let with_code: i64 =
        sqlx::query_scalar("select count(*) from contributions where refcode is not null")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    assert_eq!(coded, with_code);
    // Multi-line receipts keep every line; recurring series and t/f booleans are kept.
    let (receipts, recurring, mobile): (i64, i64, i64) = sqlx::query_as(
        "select count(distinct receipt_id), count(*) filter (where recurring_months = 12),
                count(*) filter (where mobile)
         from contributions",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    assert_eq!(receipts, 420);
    assert_eq!(
        recurring,
        lines.iter().filter(|l| !l.recurring.is_empty()).count() as i64
    );
    assert_eq!(
        mobile,
        lines.iter().filter(|l| l.line.ends_with('7')).count() as i64
    );
}

#[tokio::test]
async fn a_bad_file_fails_with_its_row_and_column_and_imports_nothing() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let good = "Lineitem ID,Date,Amount,Donor Email\n1,2026-01-02 10:00:00,5.00,a@example.org\n2,2026-01-02 11:00:00,\"$1,000.00\",b@example.org\n";
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "no line item column",
            b"Receipt ID,Date,Amount\n1,2026-01-02 10:00:00,5\n".to_vec(),
            "This is not an ActBlue contributions export: it has no column 'Lineitem ID'",
        ),
        (
            "text in an amount",
            format!("{good}3,2026-01-02 12:00:00,five dollars,c@example.org\n").into_bytes(),
            "Row 4, column 'Amount': \"five dollars\" is not an amount",
        ),
        (
            "a negative amount outside a refund",
            format!("{good}3,2026-01-02 12:00:00,-5.00,c@example.org\n").into_bytes(),
            "Row 4, column 'Amount': negative amount \"-5.00\" on a line that is not a refund",
        ),
        (
            "an unknown date format",
            format!("{good}3,Jan 2nd 2026,5.00,c@example.org\n").into_bytes(),
            "Row 4, column 'Date': \"Jan 2nd 2026\" is not a date",
        ),
        ("an empty file", b" \r\n\r\n".to_vec(), "The file is empty"),
        (
            "binary garbage",
            vec![0x89, b'P', b'N', b'G', 0, 0, 0, 13, 0xff, 0xfe, 0, 1, 2, 3],
            "The file is not a text file (CSV or TXT)",
        ),
    ];
    for (what, bytes, message) in cases {
        let job = import(&app, &session, "actblue", "export.csv", bytes).await;
        assert_eq!(
            (job["success"].as_bool(), job["error"].as_str()),
            (Some(false), Some(message)),
            "{what}"
        );
        assert_eq!(contribution_count(&app, &client).await, 0, "{what}");
    }
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let contacts: i64 = sqlx::query_scalar("select count(*) from contacts")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(contacts, 0);
    drop(tx);

    // Windows-1252 bytes, no permission to spare: the same endpoint reads them as text.
    let mut latin = b"Lineitem ID,Date,Amount,Donor Email,Donor First Name\r\n9,2026-01-02 10:00:00,5.00,z@example.org,Jos".to_vec();
    latin.extend_from_slice(&[0xe9, b'\r', b'\n']);
    let job = import(&app, &session, "actblue", "export.csv", latin).await;
    assert_eq!(details(&job)["newLines"], 1);
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let name: String = sqlx::query_scalar("select first_name from contributions")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(name, "José");
}
