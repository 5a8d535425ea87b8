//! One truth per figure (issue 27, item 4): one seeded client, one period (this month up to today, client zone), and
//! every operation that shows gross, net, gifts, donors, new donors, e-mail revenue or RPM read through the real HTTP
//! API — the dashboard, the contributions summary, breakdowns and gift table (and its CSV and XLSX), source codes and
//! their groups, origin codes, Planning, Performance (and its CSV and XLSX), E-mail Analytics and every report (and
//! its CSV and XLSX). Each must show the hand-computed figure below, or differ from it exactly by what its page says it
//! includes (docs/metrics.md). A new page showing one of these figures joins this test.
//!
//! The fixture has gifts before and after sends, an imported donor with an old gift, a month without sends that
//! still receives a late gift, a gift on a mailing sent two months earlier, a refunded gift, a refund line, a gift
//! without a contact, and an external mailing. Every gift credited to a mailing is paid after that mailing's send.
//!
//! Times are placed inside this month relative to now (fractions of the time since the month began), so the
//! dashboard's "this month" and the period read everywhere else are the same days whenever the test runs.
//!
//! The period's hand figures (client zone):
//! - lines this month: a $50 (e-mail, "This month appeal"), b $100 (same mailing, refunded), c $25 recurring (Facebook
//!   code), d $60 (late gift to "Older appeal", sent two months back), x@ $30 (no contact, no code), a −$15 (refund
//!   line credited to "This month appeal");
//! - gross = 265.00; refunds = 100 + 15 = 115.00; net = 150.00; gifts = 5; donors = a, b, c, d, x = 5; new donors =
//!   b, c, x = 3 (a first gave two years ago, d two months ago); recurring gross = 25.00;
//! - e-mail revenue (by send date: mailings whose send started this month, whenever paid) = "This month appeal":
//!   50 + 0 (refunded) − 15 = 35.00 from 2 gifts; delivered 3 (a, b, c; f bounced); RPM = 35 × 1000 / 3 = 11666.67.
//!   By gift date it would have been 95.00 (the late $60 and no deliveries behind it);
//! - last month had no send but a late $10 gift to "Older appeal": its e-mail revenue is 0.00.

use crate::helpers::*;
use crate::reports::{read_csv, read_xlsx};
use reqwest::Method;
use serde_json::Value;
use tenancy::Client;

const FIXTURE: &[&str] = &[
    "create temporary table t_clock on commit drop as
     select s.time_zone,
            (date_trunc('month', now() at time zone s.time_zone)) at time zone s.time_zone as ms,
            now() as now
     from app_settings s",
    "insert into origin_codes (name) values ('import'), ('web'), ('ads')",
    "insert into contacts (email, first_name, origin_code_id, created, subscription)
     select v.email, v.name, (select id from origin_codes where name = v.origin), v.created, 'subscribed'
     from t_clock k, lateral (values
        ('a@example.org', 'Ann', 'import', k.ms - interval '2 years 1 day'),
        ('b@example.org', 'Bo', 'web', k.ms + (k.now - k.ms) * 0.05),
        ('c@example.org', 'Cy', 'web', k.ms + (k.now - k.ms) * 0.05),
        ('d@example.org', 'Di', 'ads', k.ms - interval '90 days'),
        ('f@example.org', 'Flo', 'ads', k.ms + (k.now - k.ms) * 0.05)
     ) v (email, name, origin, created)",
    "insert into mailings (name, subject_line, is_draft, send_time, send_attempt, delivery)
     select v.name, v.name, v.draft, v.at, v.at, v.delivery
     from t_clock k, lateral (values
        ('Older appeal', false, k.ms - interval '40 days', 'done'),
        ('This month appeal', false, k.ms + (k.now - k.ms) * 0.1, 'done'),
        ('Year-end draft', true, null, 'idle')
     ) v (name, draft, at, delivery)",
    "insert into mailing_recipients (mailing_id, contact_id, email, status)
     select m.id, c.id, c.email, v.status
     from (values ('Older appeal', 'a@example.org', 'sent'), ('Older appeal', 'd@example.org', 'sent'),
                  ('This month appeal', 'a@example.org', 'sent'), ('This month appeal', 'b@example.org', 'sent'),
                  ('This month appeal', 'c@example.org', 'sent'), ('This month appeal', 'f@example.org', 'bounced'))
          v (mailing, email, status)
     join mailings m on m.name = v.mailing join contacts c on c.email = v.email",
    "insert into source_codes (code, parsed, channel, campaign, mailing_id) values
        ('em_this_a', true, 'em', 'this', (select id from mailings where name = 'This month appeal')),
        ('em_old_a', true, 'em', 'old', (select id from mailings where name = 'Older appeal')),
        ('fb_x', false, null, null, null)",
    // line, paid at, contact e-mail, amount, source code, mailing, recurring months, refunded, state
    "insert into contributions (platform, line_item_id, paid_at, contact_id, email, amount, source_code_id,
                                mailing_id, attribution, recurring_months, refunded_at, state)
     select v.platform, v.line, v.paid, c.id, v.email, v.amount, (select id from source_codes where code = v.code),
            m.id, case when m.id is null then 'none' else 'refcode' end, v.months,
            case when v.refunded then v.paid + (k.now - v.paid) / 2 end, v.state
     from t_clock k cross join lateral (values
        ('actblue', 'old-a', k.ms - interval '2 years', 'a@example.org', 80.00, null, null, null::int, false, 'NY'),
        ('actblue', 'old-d', k.ms - interval '39 days', 'd@example.org', 40.00, 'em_old_a', 'Older appeal', null, false, 'CA'),
        ('actblue', 'late-d', k.ms - interval '5 days', 'd@example.org', 10.00, 'em_old_a', 'Older appeal', null, false, 'CA'),
        ('actblue', 'prev-a', k.ms - interval '10 days', 'a@example.org', 20.00, null, null, null, false, 'NY'),
        ('actblue', '1', k.ms + (k.now - k.ms) * 0.3, 'a@example.org', 50.00, 'em_this_a', 'This month appeal', null, false, 'NY'),
        ('actblue', '2', k.ms + (k.now - k.ms) * 0.4, 'b@example.org', 100.00, 'em_this_a', 'This month appeal', null, true, 'TX'),
        ('actblue', '3', k.ms + (k.now - k.ms) * 0.45, 'c@example.org', 25.00, 'fb_x', null, 1, false, 'TX'),
        ('actblue', '4', k.ms + (k.now - k.ms) * 0.5, 'd@example.org', 60.00, 'em_old_a', 'Older appeal', null, false, 'CA'),
        ('actblue', '5', k.ms + (k.now - k.ms) * 0.6, 'x@example.org', 30.00, null, null, null, false, 'NY'),
        ('winred', '6', k.ms + (k.now - k.ms) * 0.7, 'a@example.org', -15.00, 'em_this_a', 'This month appeal', null, false, 'NY')
     ) v (platform, line, paid, email, amount, code, mailing, months, refunded, state)
     left join contacts c on c.email = v.email
     left join mailings m on m.name = v.mailing",
    "insert into external_mailings (source, name, sent_on, recipients, delivered, bounces, opens, clicks,
                                    unsubscribes, revenue)
     select 'esp', 'Partner blast', (k.now at time zone k.time_zone)::date, 1010, 1000, 10, 200, 50, 5, 500.00
     from t_clock k",
];

async fn load(app: &TestApp, client: &Client) -> (String, String, String) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    for sql in FIXTURE {
        sqlx::query(sqlx::AssertSqlSafe(*sql))
            .execute(&mut *tx)
            .await
            .unwrap_or_else(|e| panic!("{e}: {sql}"));
    }
    let days: (String, String, String) = sqlx::query_as(
        "select to_char(date_trunc('month', now() at time zone s.time_zone), 'YYYY-MM-DD'),
                to_char(now() at time zone s.time_zone, 'YYYY-MM-DD'),
                to_char(date_trunc('month', now() at time zone s.time_zone) - interval '1 month', 'YYYY-MM-DD')
         from app_settings s",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    days
}

/// Collects every mismatch so one run names them all.
#[derive(Default)]
struct Check(Vec<String>);

impl Check {
    fn eq(&mut self, what: &str, got: impl Into<String>, want: &str) {
        let got = got.into();
        if got != want {
            self.0.push(format!("{what}: got {got}, want {want}"));
        }
    }
}

fn s(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "null".to_owned(),
        other => other.to_string(),
    }
}

fn cents(v: &str) -> i64 {
    let v = v.trim().replace(',', "");
    let (neg, v) = v
        .strip_prefix('-')
        .map_or((false, v.as_str()), |r| (true, r));
    let (units, frac) = v.split_once('.').unwrap_or((v, "0"));
    let frac = format!("{frac:0<2}");
    let c = units.parse::<i64>().unwrap() * 100 + frac[..2].parse::<i64>().unwrap();
    if neg {
        -c
    } else {
        c
    }
}

fn money(c: i64) -> String {
    format!(
        "{}{}.{:02}",
        if c < 0 { "-" } else { "" },
        c.abs() / 100,
        c.abs() % 100
    )
}

/// Sum of a money field over rows.
fn sum(rows: &Value, field: &str) -> String {
    money(
        rows.as_array()
            .unwrap()
            .iter()
            .map(|r| cents(&s(&r[field])))
            .sum(),
    )
}

fn count(rows: &Value, field: &str) -> String {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| r[field].as_i64().unwrap())
        .sum::<i64>()
        .to_string()
}

async fn bytes(app: &TestApp, session: &Session, path: &str) -> Vec<u8> {
    let response = app.api(Method::GET, path, session).send().await.unwrap();
    assert_eq!(response.status(), 200, "{path}");
    response.bytes().await.unwrap().to_vec()
}

/// A report's cell by column key, in the row whose first cell is `first`.
fn cell(table: &Value, rows: &[Vec<String>], first: &str, key: &str) -> String {
    let col = table["columns"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["key"] == key)
        .unwrap_or_else(|| panic!("no column {key}"));
    rows.iter()
        .find(|r| r[0] == first)
        .map(|r| r[col].clone())
        .unwrap_or_else(|| format!("no row {first}"))
}

fn report_rows(table: &Value) -> Vec<Vec<String>> {
    table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_array().unwrap().iter().map(s).collect())
        .collect()
}

/// The rows of a CSV or sheet from its header row (the row holding `header`) on, as maps of header → cell.
fn by_header(
    rows: Vec<Vec<String>>,
    header: &str,
) -> Vec<std::collections::HashMap<String, String>> {
    let at = rows
        .iter()
        .position(|r| r.iter().any(|c| c == header))
        .unwrap_or_else(|| panic!("no header {header} in {rows:?}"));
    let head = rows[at].clone();
    rows[at + 1..]
        .iter()
        .map(|r| head.iter().cloned().zip(r.iter().cloned()).collect())
        .collect()
}

fn csv_all(bytes: &[u8]) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

fn xlsx_all(bytes: &[u8]) -> Vec<Vec<String>> {
    use calamine::{Data, Reader, Xlsx};
    let mut book: Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let sheet = book.worksheet_range_at(0).unwrap().unwrap();
    sheet
        .rows()
        .map(|cells| {
            cells
                .iter()
                .map(|c| match c {
                    Data::Float(n) => format!("{n:.2}"),
                    Data::Int(n) => n.to_string(),
                    Data::String(s) => s.clone(),
                    Data::Empty => String::new(),
                    other => other.to_string(),
                })
                .collect()
        })
        .collect()
}

#[tokio::test]
async fn every_page_shows_the_same_figures_for_the_same_period() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let (from, to, prev) = load(&app, &client).await;
    let range = format!("from={from}&to={to}");
    let mut c = Check::default();

    // The hand figures (module comment).
    let (gross, refunds, net, gifts, donors, new_donors, recurring) =
        ("265.00", "115.00", "150.00", "5", "5", "3", "25.00");
    let (email_revenue, email_gifts, delivered, rpm) = ("35.00", "2", "3", "11666.67");
    // Lines without a source code (x@'s $30) are not on the source-code pages, which list codes.
    let (coded_gifts, coded_gross, coded_net) = ("4", "235.00", "120.00");

    // Dashboard: this month's revenue tile, donors, the map, top codes and the last mailings.
    let d = app.get_json("/api/dashboard", &session).await;
    let month = d["revenue"]["periods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["key"] == "month")
        .unwrap()
        .clone();
    c.eq("dashboard month from", s(&month["from"]), &from);
    c.eq("dashboard month to", s(&month["to"]), &to);
    c.eq("dashboard month gross", s(&month["gross"]), gross);
    c.eq("dashboard month net", s(&month["net"]), net);
    c.eq("dashboard month gifts", s(&month["gifts"]), gifts);
    c.eq(
        "dashboard month new donors",
        s(&month["newDonors"]),
        new_donors,
    );
    c.eq(
        "dashboard month recurring",
        s(&month["recurringGross"]),
        recurring,
    );
    c.eq(
        "dashboard donors this month",
        s(&d["revenue"]["monthDonors"]),
        donors,
    );
    c.eq("dashboard states net", sum(&d["states"], "net"), net);
    c.eq(
        "dashboard top codes net",
        sum(&d["topSourceCodes"], "net"),
        coded_net,
    );
    // The last mailings are per mailing; those sent this month make up this month's e-mail revenue.
    let this_month: Vec<Value> = d["lastMailings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| s(&m["sent"]).as_str() >= from.as_str())
        .cloned()
        .collect();
    let this_month = Value::Array(this_month);
    c.eq(
        "dashboard mailings this month revenue",
        sum(&this_month, "revenue"),
        email_revenue,
    );
    c.eq(
        "dashboard mailings this month delivered",
        count(&this_month, "delivered"),
        delivered,
    );
    c.eq("dashboard mailing rpm", s(&this_month[0]["rpm"]), rpm);

    // Mailings (list and one mailing's page): per mailing, as the dashboard. The draft has none.
    let mailings = app.get_json("/api/crm-mailing", &session).await;
    let mailing = |name: &str| {
        mailings
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == name)
            .unwrap()
            .clone()
    };
    let this = mailing("This month appeal");
    let one = app
        .get_json(&format!("/api/crm-mailing/{}", this["id"]), &session)
        .await;
    for (source, m) in [("mailings list", &this), ("mailing page", &one)] {
        c.eq(
            &format!("{source} revenue"),
            s(&m["revenue"]),
            email_revenue,
        );
        c.eq(&format!("{source} gifts"), s(&m["gifts"]), email_gifts);
        c.eq(
            &format!("{source} delivered"),
            s(&m["delivered"]),
            delivered,
        );
        c.eq(&format!("{source} rpm"), s(&m["rpm"]), rpm);
    }
    // "Older appeal": 40 + 10 + 60 = 110.00 from 2 deliveries.
    c.eq(
        "older appeal revenue",
        s(&mailing("Older appeal")["revenue"]),
        "110.00",
    );
    c.eq(
        "older appeal rpm",
        s(&mailing("Older appeal")["rpm"]),
        "55000.00",
    );
    c.eq(
        "draft revenue",
        s(&mailing("Year-end draft")["revenue"]),
        "0.00",
    );

    // Contributions summary.
    let summary = app
        .get_json(&format!("/api/contributions/summary?{range}"), &session)
        .await;
    for (field, want) in [
        ("gross", gross),
        ("refunds", refunds),
        ("net", net),
        ("gifts", gifts),
        ("donors", donors),
        ("newDonors", new_donors),
        ("recurringGross", recurring),
    ] {
        c.eq(&format!("summary {field}"), s(&summary[field]), want);
    }

    // The daily series: its days add up to the period.
    let series = app
        .get_json(&format!("/api/contributions/series?{range}"), &session)
        .await;
    c.eq("series gross", sum(&series["days"], "gross"), gross);
    c.eq("series net", sum(&series["days"], "net"), net);
    c.eq("series gifts", count(&series["days"], "gifts"), gifts);

    // Breakdowns: each split covers every line of the period.
    let b = app
        .get_json(&format!("/api/contributions/breakdowns?{range}"), &session)
        .await;
    for split in ["channels", "sourceCodes", "pages", "bands"] {
        c.eq(
            &format!("breakdown {split} gifts"),
            count(&b[split], "gifts"),
            gifts,
        );
        c.eq(
            &format!("breakdown {split} gross"),
            sum(&b[split], "gross"),
            gross,
        );
        c.eq(
            &format!("breakdown {split} net"),
            sum(&b[split], "net"),
            net,
        );
    }

    // The gift table and its files: every line of the period.
    let table = app
        .get_json(
            &format!("/api/contributions?{range}&pageSize=100"),
            &session,
        )
        .await;
    c.eq("gift table lines", s(&table["total"]), "6");
    let positive: i64 = table["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| cents(&s(&g["amount"])))
        .filter(|a| *a > 0)
        .sum();
    c.eq("gift table gross", money(positive), gross);
    for (format, rows) in [
        (
            "csv",
            csv_all(
                &bytes(
                    &app,
                    &session,
                    &format!("/api/contributions/export/csv?{range}"),
                )
                .await,
            ),
        ),
        (
            "xlsx",
            xlsx_all(
                &bytes(
                    &app,
                    &session,
                    &format!("/api/contributions/export/xlsx?{range}"),
                )
                .await,
            ),
        ),
    ] {
        let lines = by_header(rows, "Amount");
        c.eq(
            &format!("gift {format} lines"),
            lines.len().to_string(),
            "6",
        );
        let pos: i64 = lines
            .iter()
            .map(|l| cents(&l["Amount"]))
            .filter(|a| *a > 0)
            .sum();
        c.eq(&format!("gift {format} gross"), money(pos), gross);
    }

    // Source codes and their groups: the coded lines.
    let codes = app
        .get_json(&format!("/api/contribution-source-codes?{range}"), &session)
        .await;
    c.eq(
        "source codes gifts",
        count(&codes["items"], "gifts"),
        coded_gifts,
    );
    c.eq(
        "source codes gross",
        sum(&codes["items"], "gross"),
        coded_gross,
    );
    c.eq("source codes net", sum(&codes["items"], "net"), coded_net);
    for by in ["channel", "campaign"] {
        let groups = app
            .get_json(
                &format!("/api/contribution-source-codes/groups?by={by}&{range}"),
                &session,
            )
            .await;
        c.eq(
            &format!("groups {by} gifts"),
            count(&groups, "gifts"),
            coded_gifts,
        );
        c.eq(
            &format!("groups {by} gross"),
            sum(&groups, "gross"),
            coded_gross,
        );
        c.eq(&format!("groups {by} net"), sum(&groups, "net"), coded_net);
    }

    // Origin codes: contacts acquired in the period (b, c of web; f of ads) and their giving ever: b's $100
    // refunded, c's $25.
    let origin = app
        .get_json(
            &format!("/api/external-origin-code/value?{range}"),
            &session,
        )
        .await;
    c.eq("origin acquired", count(&origin["items"], "acquired"), "3");
    c.eq(
        "origin became donors",
        count(&origin["items"], "donors"),
        "2",
    );
    c.eq(
        "origin revenue all",
        sum(&origin["items"], "revenueAll"),
        "25.00",
    );

    // Planning: the month's actual is the month's e-mail revenue; last month (no sends, a late gift) has none.
    let planning = app
        .get_json(&format!("/api/planning?from={prev}&to={to}"), &session)
        .await;
    let months = planning["months"].as_array().unwrap();
    c.eq("planning months", months.len().to_string(), "2");
    c.eq(
        "planning last month actual",
        s(&months[0]["actual"]),
        "0.00",
    );
    c.eq("planning actual", s(&months[1]["actual"]), email_revenue);

    // Performance: the range's total row, on the page and in its files.
    let flights = app
        .get_json(&format!("/api/flights?{range}"), &session)
        .await;
    let total = flights
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["flightId"].is_null())
        .unwrap()
        .clone();
    c.eq("flights revenue", s(&total["revenue"]), email_revenue);
    c.eq("flights gifts", s(&total["gifts"]), email_gifts);
    c.eq("flights delivered", s(&total["delivered"]), delivered);
    c.eq("flights rpm", s(&total["rpm"]), rpm);
    for (format, rows) in [
        (
            "csv",
            csv_all(&bytes(&app, &session, &format!("/api/flights/export/csv?{range}")).await),
        ),
        (
            "xlsx",
            xlsx_all(&bytes(&app, &session, &format!("/api/flights/export/xlsx?{range}")).await),
        ),
    ] {
        let rows = by_header(rows, "Revenue");
        let total = rows
            .iter()
            .find(|r| r.get("Row").map(String::as_str) == Some("Total"))
            .unwrap_or_else(|| panic!("no total row in the flights {format}"));
        c.eq(
            &format!("flights {format} revenue"),
            money(cents(&total["Revenue"])),
            email_revenue,
        );
        c.eq(
            &format!("flights {format} rpm"),
            money(cents(&total["RPM"])),
            rpm,
        );
    }

    // E-mail Analytics: the same e-mail revenue plus the external mailing's, which the page says it includes:
    // (35 + 500) × 1000 / (3 + 1000) = 533.40. Last month: no sends, no e-mail revenue.
    let analytics = app
        .get_json(
            &format!("/api/email-analytics?from={prev}&to={to}&grain=month"),
            &session,
        )
        .await;
    let periods = analytics["periods"].as_array().unwrap();
    c.eq(
        "analytics last month revenue",
        s(&periods[0]["revenue"]),
        "0.00",
    );
    c.eq("analytics last month rpm", s(&periods[0]["rpm"]), "null");
    c.eq("analytics revenue", s(&periods[1]["revenue"]), "535.00");
    c.eq("analytics delivered", s(&periods[1]["delivered"]), "1003");
    c.eq("analytics rpm", s(&periods[1]["rpm"]), "533.40");

    // Reports, each on the page and in its CSV and XLSX.
    for kind in [
        "monthly-summary",
        "source-codes",
        "mailings",
        "flights",
        "acquisition",
    ] {
        let table = app
            .get_json(&format!("/api/reports/{kind}?{range}"), &session)
            .await;
        let kinds: Vec<String> = table["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| s(&c["kind"]))
            .collect();
        let page = report_rows(&table);
        let csv = read_csv(
            &bytes(
                &app,
                &session,
                &format!("/api/reports/{kind}/file?format=csv&{range}"),
            )
            .await,
        );
        let xlsx = read_xlsx(
            &bytes(
                &app,
                &session,
                &format!("/api/reports/{kind}/file?format=xlsx&{range}"),
            )
            .await,
            &kinds,
        );
        for (source, rows) in [("page", &page), ("csv", &csv), ("xlsx", &xlsx)] {
            let what = |f: &str| format!("report {kind} {source} {f}");
            match kind {
                "monthly-summary" => {
                    for (key, want) in [
                        ("gifts", gifts),
                        ("donors", donors),
                        ("newDonors", new_donors),
                        ("gross", gross),
                        ("refunds", refunds),
                        ("net", net),
                        ("recurringGross", recurring),
                    ] {
                        c.eq(&what(key), cell(&table, rows, "Total", key), want);
                    }
                }
                "source-codes" => {
                    let col = |key: &str| {
                        let i = table["columns"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .position(|c| c["key"] == key)
                            .unwrap();
                        rows.iter().map(|r| cents(&r[i])).sum::<i64>()
                    };
                    c.eq(
                        &what("gifts"),
                        (col("gifts") / 100).to_string(),
                        coded_gifts,
                    );
                    c.eq(&what("gross"), money(col("gross")), coded_gross);
                    c.eq(&what("net"), money(col("net")), coded_net);
                }
                "acquisition" => {
                    let col = |key: &str| {
                        let i = table["columns"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .position(|c| c["key"] == key)
                            .unwrap();
                        rows.iter().map(|r| cents(&r[i])).sum::<i64>()
                    };
                    c.eq(&what("acquired"), (col("acquired") / 100).to_string(), "3");
                    c.eq(&what("donors"), (col("donors") / 100).to_string(), "2");
                    c.eq(&what("revenue all"), money(col("revenueAll")), "25.00");
                }
                "mailings" => {
                    c.eq(&what("rows"), rows.len().to_string(), "1");
                    c.eq(
                        &what("revenue"),
                        cell(&table, rows, "This month appeal", "revenue"),
                        email_revenue,
                    );
                    c.eq(
                        &what("gifts"),
                        cell(&table, rows, "This month appeal", "gifts"),
                        email_gifts,
                    );
                    c.eq(
                        &what("delivered"),
                        cell(&table, rows, "This month appeal", "delivered"),
                        delivered,
                    );
                    c.eq(
                        &what("rpm"),
                        cell(&table, rows, "This month appeal", "rpm"),
                        rpm,
                    );
                }
                _ => {
                    let flight = |key: &str| {
                        let i = table["columns"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .position(|c| c["key"] == key)
                            .unwrap();
                        let v = table["columns"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .position(|c| c["key"] == "variant")
                            .unwrap();
                        rows.iter()
                            .filter(|r| r[v] == "All" || r[v].is_empty())
                            .map(|r| cents(&r[i]))
                            .sum::<i64>()
                    };
                    c.eq(&what("revenue"), money(flight("revenue")), email_revenue);
                    c.eq(
                        &what("delivered"),
                        (flight("delivered") / 100).to_string(),
                        delivered,
                    );
                }
            }
        }
    }

    assert!(c.0.is_empty(), "figures that disagree:\n{}", c.0.join("\n"));
}
