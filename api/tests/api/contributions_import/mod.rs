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

async fn contribution_count(app: &TestApp, client: &tenancy::Client) -> i64 {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query_scalar("select count(*) from contributions")
        .fetch_one(&mut *tx)
        .await
        .unwrap()
}

mod access;
mod actblue_export;
mod attribution;
mod webhook;
mod webhook_load;
mod winred;
