//! Reports against a hand-built fixture: every number below is computed by hand from the rows inserted here
//! (docs/reports.md), in the client's zone (America/New_York) and calendar fiscal year. The files (CSV, XLSX,
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
                    // A date cell counts days from Excel's epoch.
                    (Data::DateTime(d), "date") => (chrono::NaiveDate::from_ymd_opt(1899, 12, 30)
                        .unwrap()
                        + chrono::Duration::days(d.as_f64() as i64))
                    .to_string(),
                    (Data::String(s), _) => s.clone(),
                    (Data::Empty, _) => String::new(),
                    (other, _) => other.to_string(),
                })
                .collect()
        })
        .collect()
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

/// The rows after the header.
pub fn read_csv(bytes: &[u8]) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_reader(bytes);
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

mod figures;
mod jobs;
mod refusals;
