//! The dashboard against a fixture placed around today (the figures are relative to the client's today): each
//! figure is worked out here by its README rule from the rows inserted.

use crate::helpers::*;
use chrono::{Datelike, NaiveDate};
use reqwest::Method;
use serde_json::{json, Value};

/// donor, day (noon in the client's zone), amount, refunded, recurring, state, source code
type Gift = (
    &'static str,
    NaiveDate,
    &'static str,
    bool,
    bool,
    &'static str,
    Option<&'static str>,
);

#[tokio::test]
async fn the_dashboard_answers_every_tile_in_one_request_by_its_definitions() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let mut tx = app.tenancy.begin(&client).await.unwrap();
    let today: NaiveDate = sqlx::query_scalar("select client_today()")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    // Calendar fiscal year (the default): quarters start in January, April, July and October.
    let month = today.with_day(1).unwrap();
    let quarter =
        NaiveDate::from_ymd_opt(today.year(), (today.month() - 1) / 3 * 3 + 1, 1).unwrap();
    let year = NaiveDate::from_ymd_opt(today.year(), 1, 1).unwrap();
    let old = year - chrono::Duration::days(400);
    // donor, day (noon in the client's zone), amount, refunded, recurring, state, source code
    let gifts: Vec<Gift> = vec![
        ("t@example.org", old, "5.00", false, false, "NY", None),
        (
            "t@example.org",
            today,
            "10.00",
            false,
            true,
            "NY",
            Some("em_a"),
        ),
        (
            "r@example.org",
            today,
            "100.00",
            true,
            false,
            "CA",
            Some("em_b"),
        ),
        (
            "m@example.org",
            month,
            "20.00",
            false,
            false,
            "CA",
            Some("em_a"),
        ),
        ("q@example.org", quarter, "40.00", false, false, "TX", None),
        ("y@example.org", year, "80.00", false, false, "NY", None),
    ];
    sqlx::query("insert into source_codes (code) values ('em_a'), ('em_b')")
        .execute(&mut *tx)
        .await
        .unwrap();
    for (i, (email, day, amount, refunded, recurring, state, code)) in gifts.iter().enumerate() {
        sqlx::query(
            "with k as (insert into contacts (email) values ($2) on conflict (email) do update set email = excluded.email
                        returning id)
             insert into contributions (platform, line_item_id, paid_at, contact_id, email, amount, refunded_at,
                                        recurring_months, state, source_code_id)
             select 'actblue', $1, client_day_start($3) + interval '12 hours', k.id, $2, $4::numeric,
                    case when $5 then now() end, case when $6 then 0 end, $7,
                    (select id from source_codes where code = $8)
             from k",
        )
        .bind(i.to_string())
        .bind(*email)
        .bind(*day)
        .bind(*amount)
        .bind(*refunded)
        .bind(*recurring)
        .bind(*state)
        .bind(*code)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    // Subscribed: 5 of the 6 contacts above plus one old unsubscribed one; all 5 joined now; one left.
    sqlx::raw_sql(
        "insert into contacts (email, subscription, created) values ('gone@example.org', 'unsubscribed', now());
         insert into mailings (name, subject_line, is_draft, send_time) values
             ('Soon', 'Hi', false, now() + interval '2 days'),
             ('Later', 'Hi', false, now() + interval '9 days'),
             ('Draft', 'Hi', true, now() + interval '1 day');
         insert into mailings (name, subject_line, is_draft, send_attempt, delivery, delivery_message) values
             ('Paused one', 'Hi', false, now() - interval '1 hour', 'paused', '25 failures in a row');
         insert into mailing_recipients (mailing_id, contact_id, email, status)
         select (select id from mailings where name = 'Paused one'), g, 'p' || g || '@example.org',
                case when g <= 2 then 'bounced' else 'sent' end
         from generate_series(1, 20) g;
         insert into mailing_events (mailing_id, contact_id, kind)
         select (select id from mailings where name = 'Paused one'), id, 'unsubscribe'
         from contacts where email = 'gone@example.org';
         insert into jobs (label, command, status, success, error) values
             ('List Upload', 'list-upload', 'done', false, 'bad file');",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();

    let d: Value = app.get_json("/api/dashboard", &session).await;
    assert_eq!(d["today"], json!(today.to_string()));

    // Each period: the gifts whose day is from its start to today; net leaves out the refunded gift; new
    // donors are those whose first gift is in the period (t gave 400 days before the year began).
    let first: std::collections::HashMap<&str, NaiveDate> =
        gifts.iter().fold(Default::default(), |mut m, g| {
            let e = m.entry(g.0).or_insert(g.1);
            if g.1 < *e {
                *e = g.1;
            }
            m
        });
    for (key, from) in [
        ("today", today),
        ("month", month),
        ("quarter", quarter),
        ("year", year),
    ] {
        let period = d["revenue"]["periods"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["key"] == json!(key))
            .unwrap()
            .clone();
        let inside: Vec<_> = gifts
            .iter()
            .filter(|g| g.1 >= from && g.1 <= today)
            .collect();
        let cents = |filter: &dyn Fn(&&&Gift) -> bool| {
            inside
                .iter()
                .filter(filter)
                .map(|g| (g.2.parse::<f64>().unwrap() * 100.0).round() as i64)
                .sum::<i64>()
        };
        let money = |c: i64| format!("{}.{:02}", c / 100, c % 100);
        assert_eq!(period["from"], json!(from.to_string()), "{key}");
        assert_eq!(period["gross"], json!(money(cents(&|_| true))), "{key}");
        assert_eq!(period["net"], json!(money(cents(&|g| !g.3))), "{key}");
        assert_eq!(
            period["recurringGross"],
            json!(money(cents(&|g| g.4))),
            "{key}"
        );
        assert_eq!(period["gifts"], json!(inside.len()), "{key}");
        let new = first
            .values()
            .filter(|f| **f >= from && **f <= today)
            .count();
        assert_eq!(period["newDonors"], json!(new), "{key}");
    }
    let month_donors: std::collections::HashSet<&str> = gifts
        .iter()
        .filter(|g| g.1 >= month && g.1 <= today)
        .map(|g| g.0)
        .collect();
    assert_eq!(d["revenue"]["monthDonors"], json!(month_donors.len()));
    // t's recurring gift today, not refunded.
    assert_eq!(d["revenue"]["activeSustainers"], json!(1));

    // t, r, m, q, y subscribed (created now); gone unsubscribed now with an unsubscribe event.
    assert_eq!(
        d["listSize"],
        json!({ "subscribed": 5, "joined": 5, "left": 1, "change30": 4 })
    );
    let upcoming: Vec<&str> = d["upcoming"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap())
        .collect();
    assert_eq!(upcoming, ["Soon"]);
    assert_eq!(d["lastMailings"][0]["name"], json!("Paused one"));
    assert_eq!(d["lastMailings"][0]["delivered"], json!(18));
    assert_eq!(d["lastMailings"][0]["rpm"], json!("0.00"));
    // This month by code: em_a has m's 20 and (today) t's 10; em_b only r's refunded 100 (net 0).
    let codes: Vec<(String, String)> = d["topSourceCodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["code"].as_str().unwrap().to_owned(),
                c["net"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        codes,
        [
            ("em_a".to_owned(), "30.00".to_owned()),
            ("em_b".to_owned(), "0.00".to_owned())
        ]
    );
    let states: Vec<Value> = d["states"].as_array().unwrap().clone();
    let expect_state = |code: &str| {
        let inside: Vec<_> = gifts
            .iter()
            .filter(|g| g.1 >= month && g.1 <= today && g.5 == code)
            .collect();
        let net: i64 = inside
            .iter()
            .filter(|g| !g.3)
            .map(|g| (g.2.parse::<f64>().unwrap() * 100.0).round() as i64)
            .sum();
        let donors: std::collections::HashSet<&str> = inside.iter().map(|g| g.0).collect();
        (format!("{}.{:02}", net / 100, net % 100), donors.len())
    };
    let mut listed: Vec<&str> = gifts
        .iter()
        .filter(|g| g.1 >= month && g.1 <= today)
        .map(|g| g.5)
        .collect();
    listed.sort_unstable();
    listed.dedup();
    assert_eq!(
        states
            .iter()
            .map(|s| s["state"].as_str().unwrap())
            .collect::<Vec<_>>(),
        listed
    );
    for s in &states {
        let (net, donors) = expect_state(s["state"].as_str().unwrap());
        assert_eq!(s["net"], json!(net));
        assert_eq!(s["donors"], json!(donors));
    }
    // 2 of 20 bounced is 10 %: a spike; the mailing is paused; a job failed.
    let kinds: Vec<&str> = d["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["bounce-spike", "paused-mailing", "failed-job"]);
    assert_eq!(
        d["alerts"][0]["message"],
        json!("Paused one: 2 of 20 recipients bounced")
    );
    // Issue 27 item 5: a mailing's alerts open its page (the spec's `crm-mailing-detail` route), a failed job
    // the Jobs page.
    let paused_id: i64 = app
        .scalar_in(&client, "select id from mailings where name = 'Paused one'")
        .await;
    let links: Vec<&str> = d["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["link"].as_str().unwrap())
        .collect();
    let detail = format!("/crm-mailing-detail/{paused_id}");
    assert_eq!(links, [detail.as_str(), detail.as_str(), "/jobs"]);
    // Pacing's projection is tested with the projections; here its actuals, which count completed days only
    // (today is still arriving): this year's net before today (y 80 + q 40 + m 20 = 140.00; t's 10 and r's
    // refunded 100 are today's) and this month's (m 20, plus q 40 in a quarter's first month).
    let net_since = |from: NaiveDate| {
        let cents: i64 = gifts
            .iter()
            .filter(|g| g.1 >= from && g.1 < today && !g.3)
            .map(|g| (g.2.parse::<f64>().unwrap() * 100.0).round() as i64)
            .sum();
        format!("{}.{:02}", cents / 100, cents % 100)
    };
    assert_eq!(
        (
            d["pacing"]["actual"].as_str(),
            d["pacing"]["monthActual"].as_str()
        ),
        (
            Some(net_since(year).as_str()),
            Some(net_since(month).as_str())
        )
    );

    // The map's GeoJSON is also selection data: the 50 states, DC and Puerto Rico.
    let geo = app
        .api(Method::GET, "/api/selection/us-states-geojson", &session)
        .send()
        .await
        .unwrap();
    let geo: Value = geo.json().await.unwrap();
    assert_eq!(geo["features"].as_array().unwrap().len(), 52);
}
