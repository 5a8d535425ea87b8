//! Segments against hand-built fixtures: each rule kind's members are written out below (docs/segments.md).

use crate::helpers::*;

use reqwest::{Method, StatusCode};

use serde_json::{json, Value};

use tenancy::Client;

/// who, days ago, amount, recurring months, refunded, source code, state, zip
type Gift = (
    &'static str,
    i32,
    &'static str,
    Option<i32>,
    bool,
    Option<i64>,
    Option<&'static str>,
    Option<&'static str>,
);

struct People {
    ids: Vec<(&'static str, i64)>,
}

impl People {
    fn ids(&self, names: &[&str]) -> Vec<i64> {
        let mut out: Vec<i64> = names
            .iter()
            .map(|n| self.ids.iter().find(|(k, _)| k == n).unwrap().1)
            .collect();
        out.sort_unstable();
        out
    }
    fn id(&self, name: &str) -> i64 {
        self.ids(&[name])[0]
    }
}

/// Six contacts, times relative to now:
/// - a (web): $100 400 days ago, $50 10 days ago on source code em_x (channel em, campaign spring); NY 10001.
/// - b (web): $25 500 days ago; CA 94110. In list L (upload).
/// - c (ads): $10 900 days ago.
/// - d (ads): never gave; a human open 5 days ago; received 3 mailings in the last 30 days.
/// - e (ads): a recurring $15 20 days ago (first gift); a refunded $1,000 5 days ago.
/// - f (none): never gave; only a machine open 3 days ago; unsubscribed; created 2 days ago.
async fn fixture(app: &TestApp, client: &Client) -> (People, i64, i64) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let web: i64 =
        sqlx::query_scalar("insert into origin_codes (name) values ('web') returning id")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    let ads: i64 =
        sqlx::query_scalar("insert into origin_codes (name) values ('ads') returning id")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    let mut ids = Vec::new();
    for (name, origin, created_days, sub) in [
        ("a", Some(web), 1000, "subscribed"),
        ("b", Some(web), 1000, "subscribed"),
        ("c", Some(ads), 1000, "subscribed"),
        ("d", Some(ads), 1000, "subscribed"),
        ("e", Some(ads), 1000, "subscribed"),
        ("f", None, 2, "unsubscribed"),
    ] {
        let id: i64 = sqlx::query_scalar(
            "insert into contacts (email, origin_code_id, created, subscription)
             values ($1, $2, now() - make_interval(days => $3), $4) returning id",
        )
        .bind(format!("{name}@example.org"))
        .bind(origin)
        .bind(created_days)
        .bind(sub)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        ids.push((name, id));
    }
    let people = People { ids };
    let source: i64 = sqlx::query_scalar(
        "insert into source_codes (code, parsed, channel, campaign) values ('em_x', true, 'em', 'spring') returning id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    let gifts: [Gift; 7] = [
        (
            "a",
            400,
            "100.00",
            None,
            false,
            None,
            Some("NY"),
            Some("10001"),
        ),
        ("a", 10, "50.00", None, false, Some(source), None, None),
        (
            "b",
            500,
            "25.00",
            None,
            false,
            None,
            Some("ca"),
            Some("94110"),
        ),
        ("c", 900, "10.00", None, false, None, None, None),
        ("e", 20, "15.00", Some(0), false, None, None, None),
        ("e", 5, "1000.00", None, true, None, None, None),
        ("e", 21, "0.00", None, false, None, None, None),
    ];
    for (i, (who, days, amount, recurring, refunded, source, state, zip)) in
        gifts.iter().enumerate()
    {
        sqlx::query(
            "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, recurring_months,
                                        refunded_at, source_code_id, state, zip)
             values ('actblue', $1, now() - make_interval(days => $2), $3::numeric, $4, $5,
                     case when $6 then now() end, $7, $8, $9)",
        )
        .bind(format!("L{i}"))
        .bind(days)
        .bind(amount)
        .bind(people.id(who))
        .bind(recurring)
        .bind(refunded)
        .bind(source)
        .bind(state)
        .bind(zip)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    let mailing: i64 = sqlx::query_scalar(
        "insert into mailings (name, subject_line) values ('M', 'S') returning id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    for (who, machine) in [("d", false), ("f", true)] {
        sqlx::query(
            "insert into mailing_events (mailing_id, contact_id, kind, machine, created)
             values ($1, $2, 'open', $3, now() - interval '4 days')",
        )
        .bind(mailing)
        .bind(people.id(who))
        .bind(machine)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    for n in 0..3 {
        let m: i64 = sqlx::query_scalar(
            "insert into mailings (name, subject_line) values ('R', 'S') returning id",
        )
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        sqlx::query(
            "insert into mailing_recipients (mailing_id, contact_id, email, status, sent_at)
             values ($1, $2, 'd@example.org', 'sent', now() - make_interval(days => $3))",
        )
        .bind(m)
        .bind(people.id("d"))
        .bind(n + 1)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    let list: i64 = sqlx::query_scalar(
        "insert into crm_lists (name, kind) values ('L', 'upload') returning id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    sqlx::query("insert into crm_list_members (list_id, contact_id) values ($1, $2)")
        .bind(list)
        .bind(people.id("b"))
        .execute(&mut *tx)
        .await
        .unwrap();
    store::segments::rfm::recompute(&mut tx).await.unwrap();
    tx.commit().await.unwrap();
    (people, list, source)
}

fn cond(field: &str, op: &str, value: Value) -> Value {
    json!({ "op": "and", "conditions": [{ "field": field, "op": op, "value": value }] })
}

mod compute;
mod references;
mod rollups;
mod rules;
