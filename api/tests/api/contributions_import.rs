//! Contribution imports through the real endpoint and worker: totals tie out to the cent against figures computed
//! here, independently of the importer; re-imports change nothing; refunds mark lines; bad files fail whole.

use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::Value;
use std::collections::BTreeMap;

/// A small deterministic generator, so a failing run can be replayed.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A source code as stored: code, parsed, channel, campaign, variant, date.
type CodeRow = (
    String,
    bool,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<chrono::NaiveDate>,
);

/// One line item as the generator made it; amounts in cents.
#[derive(Clone)]
struct Line {
    receipt: String,
    line: String,
    /// Wall-clock time in America/New_York, as ActBlue writes it.
    date: String,
    cents: i64,
    fee_cents: i64,
    email: String,
    first: String,
    refcode: String,
    recurring: String,
    recurrence: String,
    refund: Option<(String, String)>,
    comment: String,
}

const HEADER: &str = "Receipt ID,Date,Amount,Recurring Total Months,Recurrence Number,Recipient,Fundraising Page,\
Fundraising Partner,Reference Code 2,Reference Code,Donor First Name,Donor Last Name,Donor Addr1,Donor City,\
Donor State,Donor ZIP,Donor Country,Donor Occupation,Donor Employer,Donor Email,Donor Phone,Refund ID,Refund Date,\
Fee,Reserved,Lineitem ID,AB Test Name,AB Variation,Recipient Committee,Reserved,Mobile,Reserved,Comments";

fn money(cents: i64, fancy: bool) -> String {
    let dollars = cents / 100;
    let rest = cents % 100;
    if fancy && dollars >= 1000 {
        format!("\"${},{:03}.{rest:02}\"", dollars / 1000, dollars % 1000)
    } else if fancy {
        format!("${dollars}.{rest:02}")
    } else {
        format!("{dollars}.{rest:02}")
    }
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

fn csv_line(l: &Line, fancy: bool) -> String {
    let (refund_id, refund_date) = l.refund.clone().unwrap_or_default();
    [
        l.receipt.clone(),
        l.date.clone(),
        money(l.cents, fancy),
        l.recurring.clone(),
        l.recurrence.clone(),
        "Friends of Test".into(),
        "main-page".into(),
        String::new(),
        "footer".into(),
        l.refcode.clone(),
        quote(&l.first),
        "Doe".into(),
        quote("12 Main St, Apt 4"),
        "Springfield".into(),
        "IL".into(),
        "62701".into(),
        "United States".into(),
        "Teacher".into(),
        "None".into(),
        l.email.clone(),
        "555-0100".into(),
        refund_id,
        refund_date,
        money(l.fee_cents, false),
        String::new(),
        l.line.clone(),
        String::new(),
        String::new(),
        "Friends of Test".into(),
        "x".into(),
        if l.line.ends_with('7') { "t" } else { "f" }.into(),
        String::new(),
        quote(&l.comment),
    ]
    .join(",")
}

fn export(lines: &[Line], fancy: bool) -> Vec<u8> {
    // ActBlue's files: a UTF-8 BOM and CRLF line ends.
    let mut out = String::from("\u{feff}");
    out.push_str(HEADER);
    out.push_str("\r\n");
    for l in lines {
        out.push_str(&csv_line(l, fancy));
        out.push_str("\r\n");
    }
    out.into_bytes()
}

const CODES: [&str; 6] = [
    "em_20260105_winter_push_a",
    "em_20260212_valentine_b",
    "fb_20251120_gotv_a",
    "homepage",
    "sms_20260301_match_c",
    "",
];

/// About 600 line items on 420 receipts from 150 donors between November 2025 and March 2026; every tenth
/// receipt splits between candidates (two or three line items), a fifth are recurring, some fall on month ends
/// late in the evening (the next month in UTC), and comments carry commas, quotes, newlines and formulas.
fn generate() -> Vec<Line> {
    let mut rng = Lcg(20261123);
    let mut lines = Vec::new();
    let mut line_no = 900_000;
    for receipt in 0..420 {
        let donor = rng.below(150);
        let month = [
            (2025, 11, 30),
            (2025, 12, 31),
            (2026, 1, 31),
            (2026, 2, 28),
            (2026, 3, 31),
        ][rng.below(5) as usize];
        let month_end = rng.below(4) == 0;
        let day = if month_end {
            month.2
        } else {
            1 + rng.below(month.2)
        };
        let hour = if month_end { 23 } else { rng.below(24) };
        let date = format!(
            "{}-{:02}-{:02} {:02}:{:02}:{:02}",
            month.0,
            month.1,
            day,
            hour,
            rng.below(60),
            rng.below(60)
        );
        let items = if receipt % 10 == 0 {
            2 + rng.below(2)
        } else {
            1
        };
        let recurring = rng.below(5) == 0;
        let refcode = CODES[rng.below(CODES.len() as u64) as usize].to_owned();
        for _ in 0..items {
            line_no += 1 + rng.below(3);
            let cents = match rng.below(20) {
                0 => 100_000 + rng.below(200_000) as i64,
                1 => 1 + rng.below(99) as i64,
                _ => 500 + rng.below(25_000) as i64,
            };
            let comment = match rng.below(8) {
                0 => "Keep going, you've got this!".to_owned(),
                1 => "Line one\nline \"two\", and three".to_owned(),
                2 => "=cmd|' /C calc'!A0".to_owned(),
                _ => String::new(),
            };
            lines.push(Line {
                receipt: format!("AB{}", 5_000_000 + receipt),
                line: line_no.to_string(),
                date: date.clone(),
                cents,
                fee_cents: (cents * 395 + 5000) / 10000,
                email: if donor.is_multiple_of(7) {
                    format!("Donor{donor}@Example.org")
                } else {
                    format!("donor{donor}@example.org")
                },
                first: if donor == 3 {
                    "José, Jr.".to_owned()
                } else {
                    format!("Donor{donor}")
                },
                refcode: refcode.clone(),
                recurring: if recurring {
                    "12".into()
                } else {
                    String::new()
                },
                recurrence: if recurring {
                    (1 + rng.below(12)).to_string()
                } else {
                    String::new()
                },
                refund: None,
                comment,
            });
        }
    }
    lines
}

#[derive(Debug, PartialEq, Default)]
struct Figures {
    lines: i64,
    gross: i64,
    refunds: i64,
    net: i64,
    fees: i64,
    by_code: BTreeMap<String, i64>,
    by_month: BTreeMap<String, (i64, i64)>,
}

/// The figures computed from the generated lines alone.
fn expected(lines: &[Line]) -> Figures {
    let mut f = Figures::default();
    for l in lines {
        f.lines += 1;
        f.gross += l.cents;
        f.fees += l.fee_cents;
        let refunded = if l.refund.is_some() { l.cents } else { 0 };
        f.refunds += refunded;
        *f.by_code.entry(l.refcode.clone()).or_default() += l.cents;
        let month = f.by_month.entry(l.date[..7].to_owned()).or_default();
        month.0 += l.cents;
        month.1 += l.cents - refunded;
    }
    f.net = f.gross - f.refunds;
    f
}

/// The same figures by SQL over the imported rows (months in the client's zone).
async fn imported(app: &TestApp, client: &tenancy::Client) -> Figures {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let (lines, gross, refunds, fees): (i64, i64, i64, i64) = sqlx::query_as(
        "select count(*), (sum(amount) * 100)::bigint,
                coalesce((sum(amount) filter (where refunded_at is not null) * 100)::bigint, 0),
                (sum(fee) * 100)::bigint
         from contributions",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    let by_code: Vec<(String, i64)> = sqlx::query_as(
        "select coalesce(refcode, ''), (sum(amount) * 100)::bigint from contributions group by 1",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    let by_month: Vec<(String, i64, i64)> = sqlx::query_as(
        "select to_char(paid_at at time zone 'America/New_York', 'YYYY-MM'), (sum(amount) * 100)::bigint,
                (coalesce(sum(amount) filter (where refunded_at is null), 0) * 100)::bigint
         from contributions group by 1",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    Figures {
        lines,
        gross,
        refunds,
        net: gross - refunds,
        fees,
        by_code: by_code.into_iter().collect(),
        by_month: by_month.into_iter().map(|(m, g, n)| (m, (g, n))).collect(),
    }
}

/// Every column of every row, to show that a re-import changed nothing.
async fn digest(app: &TestApp, client: &tenancy::Client) -> String {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query_scalar(
        "select md5(coalesce(string_agg(c::text, '|' order by c.id), ''))
                || (select count(*) from contacts)::text || (select count(*) from source_codes)::text
         from contributions c",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap()
}

async fn import(
    app: &TestApp,
    session: &Session,
    platform: &str,
    name: &str,
    bytes: Vec<u8>,
) -> Value {
    let part = reqwest::multipart::Part::bytes(bytes).file_name(name.to_owned());
    let form = reqwest::multipart::Form::new()
        .part("file", part)
        .text("platform", platform.to_owned());
    let response = app
        .api(Method::POST, "/api/contributions/import", session)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let job: Value = response.json().await.unwrap();
    assert_eq!(job["label"], "Contributions Import");
    app.wait_for_job(session, job["id"].as_i64().unwrap()).await
}

fn details(job: &Value) -> &Value {
    assert_eq!(job["success"], true, "{job}");
    &job["result"]["details"]
}

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

async fn contribution_count(app: &TestApp, client: &tenancy::Client) -> i64 {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query_scalar("select count(*) from contributions")
        .fetch_one(&mut *tx)
        .await
        .unwrap()
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

#[tokio::test]
async fn importing_contributions_needs_the_contributions_page_and_a_known_platform() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let form = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(b"a".to_vec()).file_name("x.csv"),
        )
        .text("platform", "paypal");
    let response = app
        .api(Method::POST, "/api/contributions/import", &session)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(response).await,
        (
            StatusCode::BAD_REQUEST,
            "platform must be actblue, winred or mapped".to_owned()
        )
    );
    let form = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(b"a".to_vec()).file_name("x.csv"),
        )
        .text("platform", "actblue");
    let response = app
        .request(Method::POST, "/api/contributions/import")
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

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

fn basic(user: &str, password: &str) -> String {
    use base64::Engine;
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
    )
}

#[tokio::test]
async fn the_actblue_webhook_needs_its_credentials_and_writes_each_line_item_once() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let body = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/actblue-webhook.json"
    ))
    .unwrap();
    let url = format!("/api/webhooks/actblue/{}", client.short_name);
    let post = |auth: Option<String>| {
        let mut request = app
            .request(Method::POST, &url)
            .header("content-type", "application/json")
            .body(body.clone());
        if let Some(auth) = auth {
            request = request.header("authorization", auth);
        }
        request.send()
    };
    // No credentials set yet: nothing gets in.
    assert_eq!(
        post(Some(basic("actblue", "long-enough-secret")))
            .await
            .unwrap()
            .status(),
        StatusCode::UNAUTHORIZED
    );

    let settings = app.get_json("/api", &session).await;
    let response = app
        .api(Method::PATCH, &format!("/api/{}", settings["id"]), &session)
        .json(&serde_json::json!({
            "actblueWebhookUsername": "actblue",
            "actblueWebhookPassword": "long-enough-secret"
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let saved: Value = response.json().await.unwrap();
    assert_eq!(
        (
            saved["actblueWebhookUsername"].as_str(),
            saved["actblueWebhookPasswordSet"].as_bool()
        ),
        (Some("actblue"), Some(true))
    );
    assert_eq!(saved["timeZone"], "America/New_York");

    for wrong in [
        None,
        Some(basic("actblue", "wrong-password-here")),
        Some(basic("someone", "long-enough-secret")),
        Some("Bearer long-enough-secret".to_owned()),
    ] {
        let response = post(wrong.clone()).await.unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{wrong:?}");
    }
    assert_eq!(contribution_count(&app, &client).await, 0);
    let other = app
        .request(Method::POST, "/api/webhooks/actblue/nosuchclient")
        .header("authorization", basic("actblue", "long-enough-secret"))
        .header("content-type", "application/json")
        .body(body.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), StatusCode::UNAUTHORIZED);

    let right = Some(basic("actblue", "long-enough-secret"));
    let first = post(right.clone()).await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(first.json::<Value>().await.unwrap()["newLineItems"], 2);
    // ActBlue retries: a replay writes nothing new.
    let replay = post(right).await.unwrap();
    assert_eq!(replay.json::<Value>().await.unwrap()["newLineItems"], 0);

    let mut tx = app.tenancy.begin(&client).await.unwrap();
    type Gift = (
        String,
        String,
        String,
        String,
        Option<i32>,
        String,
        Option<bool>,
        String,
        String,
    );
    let gifts: Vec<Gift> = sqlx::query_as(
        "select g.line_item_id, g.receipt_id, g.amount::text, g.email, g.recurring_months, g.refcode, g.mobile,
                to_char(g.paid_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS'), o.name
         from contributions g join contacts c on c.id = g.contact_id join origin_codes o on o.id = c.origin_code_id
         order by g.line_item_id",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    let expected = |line: &str, amount: &str| {
        (
            line.to_owned(),
            "AB81234567".to_owned(),
            amount.to_owned(),
            "rosa.parks@example.org".to_owned(),
            Some(0),
            "em_20260331_qend_match_a".to_owned(),
            Some(true),
            "2026-04-01 03:41:09".to_owned(),
            "actblue".to_owned(),
        )
    };
    assert_eq!(
        gifts,
        vec![expected("55501", "25.00"), expected("55502", "10.00")]
    );
    let parsed: bool = sqlx::query_scalar(
        "select parsed from source_codes where code = 'em_20260331_qend_match_a'",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    assert!(parsed);
}

#[tokio::test]
async fn winred_refund_rows_mark_their_gift_and_a_mapped_file_goes_through_the_same_merge() {
    let app = spawn_app().await;
    let _worker = app.start_worker().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let winred = "Transaction ID,Date,Type,Amount,Fee,Email,First Name,Last Name,Source Code,Page Name,Original Transaction ID\n\
                  W1,03/01/2026 10:00 AM,Donation,$50.00,1.80,ann@example.org,Ann,Lee,fb_20260301_spring_a,spring,\n\
                  W2,03/02/2026 11:30 AM,Donation,20.00,0.90,bob@example.org,Bob,Diaz,,spring,\n\
                  R1,03/05/2026 09:00 AM,Refund,-50.00,0,ann@example.org,Ann,Lee,,spring,W1\n\
                  P1,03/06/2026 09:00 AM,Payout,-68.20,0,,,,,,\n\
                  F1,03/07/2026 09:00 AM,Dispute,0.00,15.00,bob@example.org,Bob,Diaz,,spring,W2\n";
    let job = import(
        &app,
        &session,
        "winred",
        "winred.csv",
        winred.as_bytes().to_vec(),
    )
    .await;
    let d = details(&job);
    assert_eq!(
        (d["rowsRead"].as_i64(), d["newLines"].as_i64()),
        (Some(5), Some(2))
    );
    assert_eq!(d["skipped"]["notAGift"]["rows"], serde_json::json!([5]));
    assert_eq!(d["skipped"]["zeroAmount"]["rows"], serde_json::json!([6]));
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let rows: Vec<(String, String, String, Option<String>, String)> = sqlx::query_as(
        "select platform, line_item_id, amount::text, refund_id,
                to_char(paid_at at time zone 'America/New_York', 'YYYY-MM-DD HH24:MI')
         from contributions order by line_item_id",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    assert_eq!(
        rows,
        vec![
            (
                "winred".into(),
                "W1".into(),
                "50.00".into(),
                Some("R1".into()),
                "2026-03-05 09:00".into()
            ),
            (
                "winred".into(),
                "W2".into(),
                "20.00".into(),
                None,
                "2026-03-02 11:30".into()
            ),
        ]
    );
    let origin: String = sqlx::query_scalar(
        "select o.name from contacts c join origin_codes o on o.id = c.origin_code_id where c.email = 'bob@example.org'",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    assert_eq!(origin, "winred");
    drop(tx);

    // Another platform's file, read through a mapping.
    let csv = "Gift Ref;When;Total;E-mail\nX-1;2026-03-09 12:00:00;12.34;cy@example.org\nX-2;2026-03-09 13:00:00;1,000.00;cy@example.org\n";
    let mapping = r#"{"Gift Ref":"line_item_id","When":"date","Total":"amount","E-mail":"email"}"#;
    let form = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(csv.as_bytes().to_vec()).file_name("other.csv"),
        )
        .text("platform", "mapped")
        .text("mapping", mapping);
    let response = app
        .api(Method::POST, "/api/contributions/import", &session)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let job: Value = response.json().await.unwrap();
    let job = app
        .wait_for_job(&session, job["id"].as_i64().unwrap())
        .await;
    assert_eq!(details(&job)["newLines"], 2);
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let total: String =
        sqlx::query_scalar("select sum(amount)::text from contributions where platform = 'other'")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    assert_eq!(total, "1012.34");

    // A mapping without the required fields is refused before anything is stored.
    let form = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(csv.as_bytes().to_vec()).file_name("other.csv"),
        )
        .text("platform", "mapped")
        .text("mapping", r#"{"Gift Ref":"line_item_id","When":"date"}"#);
    let response = app
        .api(Method::POST, "/api/contributions/import", &session)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_message(response).await,
        (StatusCode::BAD_REQUEST, "Map a column to Amount".to_owned())
    );
}
