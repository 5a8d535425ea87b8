//! Reports against a hand-built fixture: every number below is computed by hand from the rows inserted here
//! (README "Reports"), in the client's zone (America/New_York) and calendar fiscal year. The files (CSV, XLSX,
//! the job's file and the scheduled e-mail's attachment) are read back and must equal the page.

use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tenancy::Client;

pub const FIXTURE: &[&str] = &[
    "insert into origin_codes (name) values ('web'), ('ads')",
    "insert into contacts (email, first_name, last_name, origin_code_id, created, subscription) values
        ('a@example.org', 'Ann', 'A', (select id from origin_codes where name = 'web'), '2026-01-02 12:00Z', 'subscribed'),
        ('b@example.org', 'Bob', 'B', (select id from origin_codes where name = 'web'), '2024-01-02 12:00Z', 'unsubscribed'),
        ('c@example.org', 'Cy', 'C', (select id from origin_codes where name = 'ads'), '2026-02-10 12:00Z', 'subscribed'),
        ('d@example.org', 'Di', 'D', (select id from origin_codes where name = 'ads'), '2024-01-02 12:00Z', 'subscribed'),
        ('e@example.org', 'Ed', 'E', (select id from origin_codes where name = 'ads'), '2023-01-02 12:00Z', 'subscribed'),
        ('f@example.org', 'Flo', 'F', (select id from origin_codes where name = 'web'), '2026-01-15 12:00Z', 'subscribed')",
    "insert into mailings (name, subject_line, is_draft, send_attempt, delivery) values
        ('January appeal', 'Give', false, '2026-01-05 14:00Z', 'done'),
        ('Draft', 'Later', true, null, 'idle')",
    "insert into mailing_recipients (mailing_id, contact_id, email, status)
     select (select id from mailings where name = 'January appeal'), k.id, k.email,
            case when k.email = 'c@example.org' then 'bounced' else 'sent' end
     from contacts k where k.email in ('a@example.org', 'b@example.org', 'c@example.org', 'd@example.org')",
    "insert into mailing_events (mailing_id, contact_id, kind, machine)
     select (select id from mailings where name = 'January appeal'), k.id, v.kind, v.machine
     from (values ('a@example.org', 'open', false), ('a@example.org', 'open', false),
                  ('b@example.org', 'open', true), ('a@example.org', 'click', false),
                  ('b@example.org', 'unsubscribe', false)) v (email, kind, machine)
     join contacts k on k.email = v.email",
    "insert into source_codes (code, parsed, channel, campaign, mailing_id) values
        ('em_20260105_jan_a', true, 'em', 'jan', (select id from mailings where name = 'January appeal')),
        ('fb_x', false, null, null, null)",
    // line, paid at, contact, e-mail, amount, fee, source code, mailing, recurring months, refunded at
    "insert into contributions (platform, line_item_id, paid_at, contact_id, email, amount, fee, source_code_id,
                                mailing_id, recurring_months, refunded_at, state)
     select 'actblue', v.line, v.paid::timestamptz, k.id, v.email, v.amount, v.fee,
            (select id from source_codes where code = v.code), (select id from mailings where name = v.mailing),
            v.months, v.refunded::timestamptz, v.state
     from (values
        ('1', '2026-01-10 15:00Z', 'a@example.org', 50.00, 2.00, 'em_20260105_jan_a', 'January appeal', null::int, null, 'NY'),
        ('2', '2026-02-03 15:00Z', 'a@example.org', 25.00, 1.00, 'em_20260105_jan_a', 'January appeal', 0, null, 'NY'),
        ('3', '2026-01-20 15:00Z', 'b@example.org', 100.00, 4.00, 'fb_x', null, null, '2026-01-25 12:00Z', 'CA'),
        ('4', '2026-02-15 15:00Z', 'c@example.org', 10.00, 0.50, 'fb_x', null, null, null, 'CA'),
        ('5', '2026-02-01 03:30Z', 'x@example.org', 40.00, 1.50, null, null, null, null, 'TX'),
        ('6', '2026-02-16 15:00Z', 'c@example.org', -10.00, null, 'fb_x', null, null, null, 'CA'),
        ('7', '2025-06-01 15:00Z', 'd@example.org', 30.00, 1.00, null, null, null, null, 'NY'),
        ('8', '2024-03-01 15:00Z', 'e@example.org', 20.00, 1.00, null, null, null, null, 'NY'),
        ('9', '2025-03-01 15:00Z', 'b@example.org', 60.00, 2.00, null, null, null, null, 'CA')
     ) v (line, paid, email, amount, fee, code, mailing, months, refunded, state)
     left join contacts k on k.email = v.email",
];

pub async fn load_fixture(app: &TestApp, client: &Client) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    for sql in FIXTURE {
        sqlx::query(*sql)
            .execute(&mut *tx)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    tx.commit().await.unwrap();
}

const RANGE: &str = "from=2026-01-01&to=2026-02-28";

async fn report(app: &TestApp, session: &Session, kind: &str) -> Value {
    let response = app
        .api(
            Method::GET,
            &format!("/api/reports/{kind}?{RANGE}"),
            session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{kind}");
    response.json().await.unwrap()
}

fn rows(table: &Value) -> Vec<Vec<String>> {
    serde_json::from_value(table["rows"].clone()).unwrap()
}

fn row(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|c| (*c).to_owned()).collect()
}

#[tokio::test]
async fn each_report_equals_its_hand_computation() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    load_fixture(&app, &client).await;

    let catalog = app.get_json("/api/reports", &session).await;
    let keys: Vec<&str> = catalog
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "monthly-summary",
            "lybunt",
            "sybunt",
            "source-codes",
            "mailings",
            "flights",
            "acquisition",
            "media-roas"
        ]
    );

    // Jan: gifts 1, 3, 5 (line 5 is 22:30 on Jan 31 in New York); donors a, b, x; new a, x (b first gave 2025);
    // gift 3 refunded. Feb: gifts 2, 4; line 6 a refund of 10; donors a, c; new c.
    let monthly = report(&app, &session, "monthly-summary").await;
    assert_eq!(
        rows(&monthly),
        vec![
            row(&["2026-01", "3", "3", "2", "190.00", "100.00", "90.00", "7.50", "0.00", "63.33"]),
            row(&["2026-02", "2", "2", "1", "35.00", "10.00", "25.00", "1.50", "25.00", "17.50"]),
            row(&["Total", "5", "4", "3", "225.00", "110.00", "115.00", "9.00", "25.00", "45.00"]),
        ]
    );

    // As of Feb 28, 2026: b gave in 2025 and only a refunded gift in 2026; d gave in 2025; e last in 2024.
    let lybunt = report(&app, &session, "lybunt").await;
    let (b, d, e) = (
        contact_id(&app, &client, "b@example.org").await,
        contact_id(&app, &client, "d@example.org").await,
        contact_id(&app, &client, "e@example.org").await,
    );
    let lapsed = |id: i64,
                  email: &str,
                  first: &str,
                  last: &str,
                  day: &str,
                  year: &str,
                  life: &str,
                  sub: &str| {
        row(&[
            &id.to_string(),
            email,
            first,
            last,
            day,
            "1",
            year,
            life,
            sub,
        ])
    };
    let b_row = lapsed(
        b,
        "b@example.org",
        "Bob",
        "B",
        "2025-03-01",
        "60.00",
        "60.00",
        "unsubscribed",
    );
    let d_row = lapsed(
        d,
        "d@example.org",
        "Di",
        "D",
        "2025-06-01",
        "30.00",
        "30.00",
        "subscribed",
    );
    let e_row = lapsed(
        e,
        "e@example.org",
        "Ed",
        "E",
        "2024-03-01",
        "0.00",
        "20.00",
        "subscribed",
    );
    assert_eq!(rows(&lybunt), vec![b_row.clone(), d_row.clone()]);
    assert_eq!(lybunt["totalRows"], json!(2));
    let sybunt = report(&app, &session, "sybunt").await;
    assert_eq!(rows(&sybunt), vec![b_row, d_row, e_row]);

    let codes = report(&app, &session, "source-codes").await;
    assert_eq!(
        rows(&codes),
        vec![
            row(&[
                "em_20260105_jan_a",
                "em",
                "jan",
                "January appeal",
                "2",
                "1",
                "75.00",
                "0.00",
                "75.00",
                "37.50"
            ]),
            row(&["fb_x", "unparsed", "", "", "2", "2", "110.00", "110.00", "0.00", "55.00"]),
        ]
    );

    // 4 recipients, c bounced: delivered 3. One human opener (a; b's open was a machine's): 1/4. One clicker
    // and one unsubscribe over 3 delivered. Gifts 1 and 2: revenue 75, RPM 75 × 1000 / 3, response 2/3.
    let mailings = report(&app, &session, "mailings").await;
    assert_eq!(
        rows(&mailings),
        vec![row(&[
            "January appeal",
            "2026-01-05",
            "4",
            "3",
            "1",
            "1",
            "0.2500",
            "1",
            "0.3333",
            "1",
            "0.3333",
            "2",
            "1",
            "75.00",
            "25000.00",
            "0.6667"
        ])]
    );

    // web: a (Jan 2; gave 50 on Jan 10, 25 on Feb 3 = day 32) and f (no gifts); ads: c (10 then a 10 refund).
    let acquisition = report(&app, &session, "acquisition").await;
    assert_eq!(
        rows(&acquisition),
        vec![
            row(&["web", "2", "2", "1", "0.5000", "50.00", "75.00", "75.00", "75.00", "37.50"]),
            row(&["ads", "1", "1", "1", "1.0000", "0.00", "0.00", "0.00", "0.00", "0.00"]),
        ]
    );

    // Every report's CSV and XLSX read back equal the page.
    for kind in keys {
        let page = report(&app, &session, kind).await;
        let expected = rows(&page);
        let kinds: Vec<String> = page["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["kind"].as_str().unwrap().to_owned())
            .collect();
        let csv_rows = read_csv(&download(&app, &session, kind, "csv").await);
        assert_eq!(csv_rows, expected, "{kind} csv");
        let xlsx_rows = read_xlsx(&download(&app, &session, kind, "xlsx").await, &kinds);
        assert_eq!(xlsx_rows, expected, "{kind} xlsx");
    }
}

async fn contact_id(app: &TestApp, client: &Client, email: &str) -> i64 {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let id = sqlx::query_scalar("select id from contacts where email = $1")
        .bind(email)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    id
}

async fn download(app: &TestApp, session: &Session, kind: &str, format: &str) -> Vec<u8> {
    let response = app
        .api(
            Method::GET,
            &format!("/api/reports/{kind}/file?format={format}&{RANGE}"),
            session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        disposition,
        format!("attachment; filename=\"{kind}-2026-01-01-2026-02-28.{format}\"")
    );
    response.bytes().await.unwrap().to_vec()
}

/// The rows after the header.
pub fn read_csv(bytes: &[u8]) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_reader(bytes);
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

/// The first sheet's rows after the header, numbers written back as the page writes them (by column kind).
pub fn read_xlsx(bytes: &[u8], kinds: &[String]) -> Vec<Vec<String>> {
    use calamine::{Data, Reader, Xlsx};
    let mut book: Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let sheet = book.worksheet_range_at(0).unwrap().unwrap();
    sheet
        .rows()
        .skip(1)
        .map(|cells| {
            cells
                .iter()
                .zip(kinds)
                .map(|(cell, kind)| match (cell, kind.as_str()) {
                    (Data::Float(n), "money") => format!("{n:.2}"),
                    (Data::Float(n), "rate") => format!("{n:.4}"),
                    (Data::Float(n), "ratio") => format!("{n:.2}"),
                    (Data::Float(n), _) => format!("{n}"),
                    (Data::Int(n), _) => n.to_string(),
                    (Data::String(s), _) => s.clone(),
                    (Data::Empty, _) => String::new(),
                    (other, _) => other.to_string(),
                })
                .collect()
        })
        .collect()
}

#[tokio::test]
async fn a_large_report_is_built_by_a_job_whose_file_equals_the_page() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    load_fixture(&app, &client).await;
    let worker = app.start_worker().await;
    let response = app
        .api(Method::POST, "/api/reports/sybunt/build", &session)
        .json(&json!({ "from": "2026-01-01", "to": "2026-02-28", "format": "xlsx" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let job: Value = response.json().await.unwrap();
    assert_eq!(job["label"], json!("Build Report"));
    let done = app
        .wait_for_job(&session, job["id"].as_i64().unwrap())
        .await;
    assert_eq!(done["success"], json!(true), "{done}");
    let link = done["result"]["link"].as_str().unwrap().to_owned();
    let file_id = link.strip_prefix("/reports?file=").unwrap();
    let response = app
        .api(
            Method::GET,
            &format!("/api/report-files/{file_id}"),
            &session,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.bytes().await.unwrap();
    let page = report(&app, &session, "sybunt").await;
    let kinds: Vec<String> = page["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(read_xlsx(&bytes, &kinds), rows(&page));
    worker.stop().await;

    // Another client cannot fetch the file.
    let other = app.create_client().await;
    let stranger = app.session(&other).await;
    let response = app
        .api(
            Method::GET,
            &format!("/api/report-files/{file_id}"),
            &stranger,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn hostile_report_requests_are_refused_plainly() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    for (path, status) in [
        ("/api/reports/nope", StatusCode::NOT_FOUND),
        (
            "/api/reports/lybunt%27%3B%20drop%20table%20contacts",
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/reports/monthly-summary?from=2026-03-01&to=2026-01-01",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/reports/monthly-summary?from=2000-01-01&to=2026-01-01",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/reports/monthly-summary?from=yesterday",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/reports/mailings/file?format=pdf",
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let response = app.api(Method::GET, path, &session).send().await.unwrap();
        assert_eq!(response.status(), status, "{path}");
    }
    let response = app
        .api(Method::POST, "/api/report-schedules", &session)
        .json(
            &json!({ "kind": "lybunt", "format": "csv", "frequency": "weekly",
                        "recipients": ["stranger@example.org"] }),
        )
        .send()
        .await
        .unwrap();
    let (status, message) = json_message(response).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(message, "stranger@example.org is not a user of this client");
}

#[tokio::test]
async fn a_scheduled_report_arrives_by_mail_with_its_file_attached() {
    let (port, inbox) = start_sink().await;
    let app = spawn_app_with(|s| s.smtp_url = format!("smtp://127.0.0.1:{port}")).await;
    let client = app.create_client().await;
    let email = app.create_user(false, &[&client]).await;
    let session = app.session(&client).await;
    load_fixture(&app, &client).await;
    let response = app
        .api(Method::POST, "/api/report-schedules", &session)
        .json(
            &json!({ "kind": "monthly-summary", "format": "xlsx", "frequency": "monthly",
                        "recipients": [email.to_uppercase()] }),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let schedule: Value = response.json().await.unwrap();
    assert_eq!(schedule["recipients"], json!([email]));
    let listed = app.get_json("/api/report-schedules", &session).await;
    assert_eq!(listed.as_array().unwrap().len(), 1);

    // Pretend the clock reached the run on March 1, 2026: it covers February.
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    sqlx::query("update report_schedules set next_run = now() - interval '1 minute'")
        .execute(&mut *tx)
        .await
        .unwrap();
    let due = store::reports::schedules::claim_due(&mut tx).await.unwrap();
    assert_eq!(due.len(), 1);
    // A second claim finds nothing: the first moved the schedule to its next run.
    assert!(store::reports::schedules::claim_due(&mut tx)
        .await
        .unwrap()
        .is_empty());
    let queue = worker::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let first = queue
        .enqueue(
            tx,
            None,
            &worker::JobKind::SendReport {
                schedule_id: due[0].schedule_id,
                from: "2026-02-01".parse().unwrap(),
                to: "2026-02-28".parse().unwrap(),
            },
        )
        .await
        .unwrap();
    let worker = app.start_worker().await;
    let done = app.wait_for_job(&session, first.id).await;
    assert_eq!(done["success"], json!(true), "{done}");
    worker.stop().await;

    let messages = inbox.lock().unwrap().clone();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].recipients, vec![email.clone()]);
    let raw = String::from_utf8_lossy(&messages[0].data).to_string();
    assert!(
        raw.contains("Subject: Monthly summary: 2026-02-01 to 2026-02-28"),
        "{raw}"
    );
    let attachment = attachment(&raw, "monthly-summary-2026-02-01-2026-02-28.xlsx");
    let kinds: Vec<String> = [
        "text", "integer", "integer", "integer", "money", "money", "money", "money", "money",
        "money",
    ]
    .iter()
    .map(|k| (*k).to_owned())
    .collect();
    assert_eq!(
        read_xlsx(&attachment, &kinds),
        vec![
            row(&["2026-02", "2", "2", "1", "35.00", "10.00", "25.00", "1.50", "25.00", "17.50"]),
            row(&["Total", "2", "2", "1", "35.00", "10.00", "25.00", "1.50", "25.00", "17.50"]),
        ]
    );

    // The job again (a redelivery) mails nobody twice.
    let tx = app.tenancy.begin(&client).await.unwrap();
    let again = queue
        .enqueue(
            tx,
            None,
            &worker::JobKind::SendReport {
                schedule_id: due[0].schedule_id,
                from: "2026-02-01".parse().unwrap(),
                to: "2026-02-28".parse().unwrap(),
            },
        )
        .await
        .unwrap();
    let worker = app.start_worker().await;
    app.wait_for_job(&session, again.id).await;
    worker.stop().await;
    assert_eq!(inbox.lock().unwrap().len(), 1);
}

/// The base64 body of the attachment named `name` in a raw MIME message.
fn attachment(raw: &str, name: &str) -> Vec<u8> {
    use base64::Engine;
    let at = raw
        .find(&format!("=\"{name}\""))
        .unwrap_or_else(|| panic!("no attachment {name} in {raw}"));
    let rest = &raw[at..];
    let body_start = rest.find("\r\n\r\n").unwrap() + 4;
    let body: String = rest[body_start..]
        .lines()
        .take_while(|l| !l.starts_with("--"))
        .collect::<Vec<_>>()
        .join("");
    base64::engine::general_purpose::STANDARD
        .decode(body.trim())
        .unwrap()
}
