//! The revenue read side against a small hand-built fixture: every figure below is computed by hand from the
//! rows inserted here (docs/metrics.md), in the client's zone (America/New_York).

use crate::helpers::*;

use reqwest::{Method, StatusCode};

use serde_json::{json, Value};

use tenancy::Client;

/// line, paid at, contact, email, amount, fee, refcode
type Line = (
    &'static str,
    &'static str,
    Option<i64>,
    Option<&'static str>,
    &'static str,
    &'static str,
    Option<&'static str>,
);

struct Fixture {
    a: i64,
    b: i64,
    f: i64,
    d: i64,
    e: i64,
    s1: i64,
    s2: i64,
    s3: i64,
    mailing: i64,
}

async fn fixture(app: &TestApp, client: &Client) -> Fixture {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let id = |sql: &'static str| sqlx::query_scalar::<_, i64>(sql);
    let web = id("insert into origin_codes (name) values ('web') returning id")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let ads = id("insert into origin_codes (name) values ('ads') returning id")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let contact = |email: &str, origin: i64, created: &str, subscription: &str| {
        sqlx::query_scalar::<_, i64>(
            "insert into contacts (email, origin_code_id, created, subscription)
             values ($1, $2, $3::timestamptz, $4) returning id",
        )
        .bind(email.to_owned())
        .bind(origin)
        .bind(created.to_owned())
        .bind(subscription.to_owned())
    };
    let a = contact("a@example.org", web, "2026-02-25 12:00Z", "subscribed")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let b = contact("b@example.org", web, "2026-03-10 12:00Z", "unsubscribed")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let c = contact("c@example.org", ads, "2026-01-01 12:00Z", "subscribed")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    contact("g@example.org", web, "2026-03-12 12:00Z", "subscribed")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let d = contact("d@example.org", ads, "2025-01-01 12:00Z", "subscribed")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let e = contact("e@example.org", ads, "2025-01-01 12:00Z", "subscribed")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let f = contact("f@example.org", ads, "2025-01-01 12:00Z", "subscribed")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let mailing = id(
        "insert into mailings (name, subject_line) values ('Spring appeal', 'Give') returning id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    sqlx::query(
        "insert into mailing_recipients (mailing_id, contact_id, email, status)
         select $1, g, 'r' || g || '@example.org', case when g = 5 then 'bounced' else 'sent' end
         from generate_series(1, 5) g",
    )
    .bind(mailing)
    .execute(&mut *tx)
    .await
    .unwrap();
    let code = |code: &str, parsed: bool, channel: Option<&str>, campaign: Option<&str>| {
        sqlx::query_scalar::<_, i64>(
            "insert into source_codes (code, parsed, channel, campaign, mailing_id)
             values ($1, $2, $3, $4, $5) returning id",
        )
        .bind(code.to_owned())
        .bind(parsed)
        .bind(channel.map(str::to_owned))
        .bind(campaign.map(str::to_owned))
    };
    let s1 = code("em_20260301_spring_a", true, Some("em"), Some("spring"))
        .bind(Some(mailing))
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let s2 = code("fbad", false, None, None)
        .bind(None::<i64>)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let s3 = code("em_20260401_summer_b", true, Some("em"), Some("summer"))
        .bind(None::<i64>)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    // Times are New York wall-clock times unless they carry Z.
    let lines: Vec<Line> = vec![
        (
            "L8",
            "2026-03-01 00:10",
            Some(a),
            Some("a@example.org"),
            "5.00",
            "0.20",
            None,
        ),
        (
            "L1",
            "2026-03-02 10:00",
            Some(a),
            Some("a@example.org"),
            "10.00",
            "0.40",
            Some("s1"),
        ),
        (
            "L2",
            "2026-03-15 12:00",
            Some(a),
            Some("a@example.org"),
            "25.00",
            "1.00",
            Some("s1"),
        ),
        (
            "L3",
            "2026-03-15 23:30",
            Some(b),
            Some("b@example.org"),
            "100.00",
            "4.00",
            Some("s2"),
        ),
        (
            "L4",
            "2026-03-31 23:59",
            Some(c),
            Some("c@example.org"),
            "50.00",
            "2.00",
            None,
        ),
        (
            "L5",
            "2026-03-20 09:00",
            None,
            Some("x@example.org"),
            "7.50",
            "",
            None,
        ),
        (
            "L6",
            "2026-03-20 10:00",
            Some(b),
            Some("b@example.org"),
            "-20.00",
            "0",
            None,
        ),
        // Outside March in New York (though L9 is March 1 in UTC).
        (
            "L9",
            "2026-02-28 23:50",
            Some(c),
            Some("c@example.org"),
            "3.00",
            "0.10",
            None,
        ),
        (
            "L10",
            "2026-02-10 12:00",
            Some(c),
            Some("c@example.org"),
            "5.00",
            "0.20",
            None,
        ),
        (
            "L11",
            "2026-04-01 00:30",
            Some(a),
            Some("a@example.org"),
            "1000.00",
            "30.00",
            None,
        ),
    ];
    for (line, at, contact, email, amount, fee, refcode) in lines {
        let (code_id, code) = match refcode {
            Some("s1") => (Some(s1), Some("em_20260301_spring_a")),
            Some(_) => (Some(s2), Some("fbad")),
            None => (None, None),
        };
        sqlx::query(
            "insert into contributions (platform, line_item_id, paid_at, amount, fee, contact_id, email, refcode,
                                        source_code_id, recurring_months, refund_id, fundraising_page, first_name,
                                        mailing_id, attribution)
             values (case when $1 = 'L6' then 'winred' else 'actblue' end, $1,
                     $2::timestamp at time zone 'America/New_York', $3::numeric, nullif($4, '')::numeric, $5, $6,
                     $7, $8, case when $1 = 'L2' then 0 end, case when $1 = 'L3' then 'R1' end,
                     case when $1 = 'L4' then 'main' end, case when $1 = 'L5' then '=cmd|x' end,
                     case when $8 = $9 then $10 end, case when $8 = $9 then 'refcode' else 'none' end)",
        )
        .bind(line)
        .bind(at)
        .bind(amount)
        .bind(fee)
        .bind(contact)
        .bind(email)
        .bind(code)
        .bind(code_id)
        .bind(s1)
        .bind(mailing)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    // Category fixtures relative to today: D sustains, E lapsed, F gave twice lately.
    sqlx::query(
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email, recurring_months)
         values ('actblue', 'D1', now() - interval '10 days', 15, $1, 'd@example.org', 0),
                ('actblue', 'E1', now() - interval '14 months', 20, $2, 'e@example.org', null),
                ('actblue', 'F1', now() - interval '40 days', 20, $3, 'f@example.org', null),
                ('actblue', 'F2', now() - interval '5 days', 30, $3, 'f@example.org', null)",
    )
    .bind(d)
    .bind(e)
    .bind(f)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    Fixture {
        a,
        b,
        f,
        d,
        e,
        s1,
        s2,
        s3,
        mailing,
    }
}

const MARCH: &str = "from=2026-03-01&to=2026-03-31";

mod attribution;
mod links;
mod page_filters;
mod rollups;
mod summary;
mod tables;
