//! The agency's portfolio (`GET /api/portfolio`, docs/portfolio.md): one row per client the universal user may use,
//! each figure by the definition the client's own pages use, and nothing of a client the user may not use. A client
//! user has no portfolio. The rows are the figures the worker stores per client (`client_portfolio_figures`);
//! `stored` tests how they are kept and read.

mod stored;

use crate::helpers::*;
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// Client A's contacts, a paused mailing with its recipients (2 of 20 bounced) and a failed job; its gifts are in
/// the test (one by the mailing, a refunded one, a recurring one, and two donors of last year of whom one gave
/// again, so the month has a projection and pacing and the year a retention).
const FIXTURE: &str = "
    insert into contacts (email) values ('a@example.org'), ('b@example.org'), ('c@example.org'),
                                        ('d@example.org'), ('e@example.org'), ('l@example.org'),
                                        ('m@example.org');
    insert into mailings (name, subject_line, is_draft, send_attempt, delivery, delivery_message) values
        ('Paused one', 'Hi', false, now() - interval '1 hour', 'paused', '25 failures in a row');
    insert into mailing_recipients (mailing_id, contact_id, email, status, sent_at)
    select (select id from mailings), g, 'p' || g || '@example.org',
           case when g <= 2 then 'bounced' else 'sent' end, now() - interval '1 hour'
    from generate_series(1, 20) g;
    insert into jobs (label, command, status, success, error) values
        ('List Upload', 'list-upload', 'done', false, 'bad file');";

/// (donor, client day, amount, refunded, recurring, by the mailing)
type Gift = (&'static str, NaiveDate, &'static str, bool, bool, bool);

async fn give(app: &TestApp, client: &tenancy::Client, gifts: &[Gift]) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    for (i, (email, day, amount, refunded, recurring, mailing)) in gifts.iter().enumerate() {
        sqlx::query(
            "insert into contributions (platform, line_item_id, paid_at, contact_id, email, amount, refunded_at,
                                        recurring_months, mailing_id, attribution)
             select 'actblue', $1, least(client_day_start($3) + interval '12 hours', now()), k.id, $2,
                    $4::numeric, case when $5 then now() end, case when $6 then 0 end,
                    case when $7 then (select id from mailings) end, case when $7 then 'refcode' else 'none' end
             from contacts k where k.email = $2",
        )
        .bind(format!("p{i}"))
        .bind(email)
        .bind(day)
        .bind(amount)
        .bind(refunded)
        .bind(recurring)
        .bind(mailing)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
}

/// A client's stored row as the worker (or a request) wrote it: its figures and when their reads began.
pub(crate) async fn stored_row(
    app: &TestApp,
    client: &tenancy::Client,
) -> Option<(Value, DateTime<Utc>)> {
    let mut tx = app.tenancy.public().await.unwrap();
    let row: Option<(sqlx::types::Json<Value>, DateTime<Utc>)> = sqlx::query_as(
        "select figures, computed_at from client_portfolio_figures where client_id = $1",
    )
    .bind(client.id)
    .fetch_optional(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    row.map(|(f, at)| (f.0, at))
}

/// Drops the clients' stored rows and claims, so the next look finds them due.
pub(crate) async fn forget_stored(app: &TestApp, clients: &[&tenancy::Client]) {
    let ids: Vec<i64> = clients.iter().map(|c| c.id).collect();
    let mut tx = app.tenancy.public().await.unwrap();
    for table in ["client_portfolio_figures", "client_portfolio_claims"] {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "delete from {table} where client_id = any($1)"
        )))
        .bind(&ids)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
}

/// The worker's path: the scheduler's look queues a "Refresh Portfolio" job for each of the clients (rows
/// forgotten first, so they are due), a worker runs them, and each client's row is stored. Answers when each
/// row's reads began.
pub(crate) async fn refresh_through_the_worker(
    app: &TestApp,
    clients: &[&tenancy::Client],
) -> Vec<DateTime<Utc>> {
    forget_stored(app, clients).await;
    let before = Utc::now();
    let ids: Vec<i64> = clients.iter().map(|c| c.id).collect();
    let queue = jobs::JobQueue::connect(&redis_url(), &app.queue_name)
        .await
        .unwrap();
    let mut queued = worker::portfolio_due(&app.tenancy, &queue, Some(ids.as_slice()))
        .await
        .unwrap();
    queued.sort_unstable();
    let mut want = ids.clone();
    want.sort_unstable();
    assert_eq!(queued, want, "every client without a row is due");
    let worker = app.start_worker().await;
    let mut at = Vec::new();
    for client in clients {
        at.push(
            wait_until(
                "the stored portfolio row",
                std::time::Duration::from_secs(30),
                || async {
                    stored_row(app, client)
                        .await
                        .map(|r| r.1)
                        .filter(|t| *t >= before - Duration::milliseconds(1))
                },
            )
            .await,
        );
    }
    worker.stop().await;
    at
}

pub(crate) async fn portfolio(app: &TestApp, token: &str) -> (StatusCode, String) {
    let response = app
        .request(Method::GET, "/api/portfolio")
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    (response.status(), response.text().await.unwrap())
}

fn cents(amount: &str) -> i64 {
    (amount.parse::<f64>().unwrap() * 100.0).round() as i64
}

fn money(c: i64) -> String {
    format!("{}.{:02}", c / 100, c % 100)
}

#[tokio::test]
async fn the_portfolio_shows_each_granted_client_by_its_pages_definitions_and_nothing_else() {
    let app = spawn_app().await;
    let (a, b, hidden) = (
        app.create_client().await,
        app.create_client().await,
        app.create_client().await,
    );
    app.exec_in(&a, FIXTURE).await;
    let today: NaiveDate = {
        let mut tx = app.tenancy.begin(&a).await.unwrap();
        let t = sqlx::query_scalar("select client_today()")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        t
    };
    let month = today.with_day(1).unwrap();
    let two_months_ago = (month - Duration::days(40)).with_day(1).unwrap();
    let last_year = today - Duration::days(365);
    let gifts: Vec<Gift> = vec![
        ("a@example.org", today, "10.00", false, true, false),
        ("b@example.org", month, "20.00", false, false, false),
        (
            "c@example.org",
            two_months_ago,
            "30.00",
            false,
            false,
            false,
        ),
        ("d@example.org", today, "100.00", true, false, false),
        ("e@example.org", today, "9.00", false, false, true),
        ("l@example.org", last_year, "50.00", false, false, false),
        ("m@example.org", last_year, "15.00", false, false, false),
        ("l@example.org", today, "7.00", false, false, false),
    ];
    give(&app, &a, &gifts).await;
    app.exec_in(
        &a,
        &format!(
            "insert into projection_goals (year, month, amount) values ({y}, {m}, 500), ({y}, 1, 100)
             on conflict (year, month) do update set amount = excluded.amount",
            y = today.year(),
            m = today.month()
        ),
    )
    .await;

    // The worker stores A's and B's rows; the portfolio answers from them, as old as the older of the two.
    let computed = refresh_through_the_worker(&app, &[&a, &b]).await;

    // An agency user granted A and B, not the third client.
    let email = app.create_user(false, &[&a, &b]).await;
    let basic = app.basic_token(&email).await;
    let (status, body) = portfolio(&app, &basic).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        !body.contains(&hidden.name) && !body.contains(&hidden.short_name),
        "a client without a grant shows: {body}"
    );
    let p: Value = serde_json::from_str(&body).unwrap();
    let rows = p["clients"].as_array().unwrap();
    let mut expected = vec![(a.name.clone(), a.id), (b.name.clone(), b.id)];
    expected.sort();
    let listed: Vec<(String, i64)> = rows
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_owned(),
                r["id"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(listed, expected, "by name, only the granted clients");
    let row = |c: &tenancy::Client| {
        rows.iter().find(|r| r["id"] == json!(c.id)).unwrap()["figures"].clone()
    };
    let fa = row(&a);
    let fb = row(&b);
    assert_eq!(
        p["generatedAt"]
            .as_str()
            .unwrap()
            .parse::<DateTime<Utc>>()
            .unwrap(),
        computed.iter().copied().min().unwrap(),
        "the figures are as old as the oldest stored row: {body}"
    );
    // The stored row is what the page shows (the stored form keeps ratios unrounded).
    let (stored_a, _) = stored_row(&app, &a).await.unwrap();
    for (page, kept) in [
        ("monthNet", "month_net"),
        ("yearNet", "year_net"),
        ("newDonors", "new_donors"),
        ("sustainers", "sustainers"),
        ("listSize", "list_size"),
        ("listChange30", "list_change_30"),
        ("rpm", "rpm"),
        ("retention", "retention"),
        ("jobsFailing", "jobs_failing"),
        ("mailingsPaused", "mailings_paused"),
        ("netByMonth", "net_by_month"),
    ] {
        assert_eq!(fa[page], stored_a[kept], "{page} against the stored {kept}");
    }

    // Net leaves out the refunded gift; the year is the calendar year's months; new donors are those whose first
    // gift is this month (the refunded gift's donor too, as on the dashboard).
    let in_range = |from: NaiveDate| {
        money(
            gifts
                .iter()
                .filter(|g| g.1 >= from && g.1 <= today && !g.3)
                .map(|g| cents(g.2))
                .sum(),
        )
    };
    let year = NaiveDate::from_ymd_opt(today.year(), 1, 1).unwrap();
    assert_eq!(fa["monthNet"], json!(in_range(month)));
    assert_eq!(fa["yearNet"], json!(in_range(year)));
    assert_eq!(fa["newDonors"], json!(4));
    assert_eq!(fa["sustainers"], json!(1));
    assert_eq!(fa["monthGoal"], json!("500.00"));
    assert_eq!(
        fa["yearGoal"],
        json!(if today.month() == 1 {
            "500.00"
        } else {
            "600.00"
        })
    );
    let series = fa["netByMonth"].as_array().unwrap();
    assert_eq!(series.len(), 12);
    assert_eq!(series[11], json!(in_range(month)));
    assert_eq!(series[9], json!("30.00"), "{series:?}");
    // The paused mailing: 20 sent, 2 bounced (hard), 18 delivered, e's 9.00 → RPM 500.00, response 1/18.
    assert_eq!(fa["mailingsPaused"], json!(1));
    assert_eq!(fa["jobsFailing"], json!(1));
    assert_eq!(fa["rpm"], json!("500.00"));
    assert_eq!(fa["responseRate"], json!(0.0556));
    assert_eq!(fa["bounceRate"], json!(0.1));
    assert_eq!(fa["complaintRate"], json!(0.0));
    assert_eq!(fa["costPerDonor"], Value::Null, "no ad spend");
    // Retention: of last year's donors l and m, l gave again this year.
    assert_eq!(fa["retention"], json!(0.5));
    // B has nothing yet: zeros, and no rates where nothing was sent.
    assert_eq!(fb["monthNet"], json!("0.00"));
    assert_eq!(
        (&fb["rpm"], &fb["bounceRate"]),
        (&Value::Null, &Value::Null)
    );
    // Benchmarks: the median over clients with the figure (only A sent mail).
    assert_eq!(p["benchmarks"]["rpm"], json!("500.00"));
    assert_eq!(p["benchmarks"]["responseRate"], json!(0.0556));
    assert_eq!(p["benchmarks"]["retention"], json!(0.5));

    // One definition: the same figures as A's dashboard (list size, pacing).
    let admin = app.session(&a).await;
    let d = app.get_json("/api/dashboard", &admin).await;
    assert_eq!(fa["listSize"], d["listSize"]["subscribed"]);
    assert_eq!(fa["listChange30"], d["listSize"]["change30"]);
    let pacing = |actual: &Value, projected: &Value| {
        let (a, p) = (
            actual.as_str().unwrap().parse::<f64>().unwrap(),
            projected.as_str().unwrap().parse::<f64>().unwrap(),
        );
        (p > 0.0).then(|| ((a / p) * 10_000.0).round() / 10_000.0)
    };
    let month_pacing = pacing(&d["pacing"]["monthActual"], &d["pacing"]["monthProjected"]);
    assert_eq!(fa["monthPacing"].as_f64(), month_pacing, "{fa} {d}");
    assert_eq!(
        fa["yearPacing"].as_f64(),
        pacing(&d["pacing"]["actual"], &d["pacing"]["projected"])
    );

    // The same user in a client session gets the same portfolio; a user without grants gets none.
    let in_a = app.session_for(&email, &a).await;
    let (status, again) = portfolio(&app, &in_a.token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        serde_json::from_str::<Value>(&again).unwrap()["clients"],
        p["clients"]
    );
    let nobody = app.basic_token(&app.create_user(false, &[]).await).await;
    let (_, none) = portfolio(&app, &nobody).await;
    assert_eq!(
        serde_json::from_str::<Value>(&none).unwrap()["clients"],
        json!([])
    );
    // An administrator may use every client: the third one shows for them.
    let admin_basic = app.basic_token(&app.create_user(true, &[]).await).await;
    let (_, all) = portfolio(&app, &admin_basic).await;
    assert!(all.contains(&hidden.name));

    // A client user has no portfolio and learns no other client's name; without a token, 401.
    let member = format!("{}@example.org", unique("member"));
    let hash = api::auth::hash_password(PASSWORD).unwrap();
    app.exec_in(
        &a,
        &format!(
            "insert into client_users (email, password_hash, two_factor_method, email_verified, enabled)
             values ('{member}', '{hash}', 'none', now(), true)"
        ),
    )
    .await;
    let response = app
        .request(Method::POST, "/auth-api/auth/login")
        .json(&json!({ "username": member, "password": PASSWORD, "client": a.short_name }))
        .send()
        .await
        .unwrap();
    let login: Value = response.json().await.unwrap();
    let (status, refused) = portfolio(&app, login["accessToken"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    assert!(!refused.contains(&b.name), "{refused}");
    let anonymous = app
        .request(Method::GET, "/api/portfolio")
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
}
