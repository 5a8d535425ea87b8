//! The portfolio (issue 32) against the client's own pages: its retention is the Retention page's, its sustainers
//! and list size the dashboard's, its e-mail RPM (mailings sent in the last 90 days) Performance's for those days
//! and E-mail Analytics' less the external mailing the page says it adds. Read twice: during the request (no
//! stored row yet) and as the worker stores it.
//!
//! Hand figures: last calendar year's donors are a (an imported gift) and e (imported, not back since), and d too
//! in January and February (d's gifts 39 and 5 days before the month began fall in last year then). This year a
//! and d gave (b's only gift was refunded), e did not: retention 1 of 2 = 0.5000, or 2 of 3 = 0.6667 in January and
//! February. Sustainers: c's recurring gift, 1. RPM over both mailings: (110.00 + 35.00) × 1000 ÷ (2 + 2) =
//! 36250.00.

use super::check::*;
use super::Period;
use crate::portfolio::{portfolio, refresh_through_the_worker};
use chrono::{Datelike, Duration, NaiveDate};
use serde_json::Value;

pub(super) async fn check(p: &Period<'_>, c: &mut Check) {
    let Period {
        app, session, to, ..
    } = p;
    let client = &session.client;
    let today = NaiveDate::parse_from_str(to, "%Y-%m-%d").unwrap();
    let from90 = today - Duration::days(89);
    let (retention, donors_previous) = if today.month() <= 2 {
        ("0.6667", "3")
    } else {
        ("0.5000", "2")
    };
    let rpm = "36250.00";

    // The Retention page: the calendar year to date against last year.
    let r = app.get_json("/api/retention?period=year", session).await;
    c.eq(
        "retention page donor retention",
        s(&r["donorRetention"]),
        retention,
    );
    c.eq(
        "retention page last year's donors",
        s(&r["donorsPrevious"]),
        donors_previous,
    );

    // The dashboard's sustainers and list.
    let d = app.get_json("/api/dashboard", session).await;
    c.eq(
        "dashboard sustainers",
        s(&d["revenue"]["activeSustainers"]),
        "1",
    );
    let subscribed = app
        .scalar_in(
            client,
            "select count(*) from contacts where subscription = 'subscribed'",
        )
        .await
        .to_string();
    c.eq(
        "dashboard list size",
        s(&d["listSize"]["subscribed"]),
        &subscribed,
    );

    // Performance over the portfolio's 90 days: the total row.
    let flights = app
        .get_json(&format!("/api/flights?from={from90}&to={to}"), session)
        .await;
    let total = flights
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["flightId"].is_null())
        .unwrap()
        .clone();
    c.eq("performance 90 days rpm", s(&total["rpm"]), rpm);

    // E-mail Analytics over the same days adds the external mailing (500.00 from 1,000 delivered).
    let analytics = app
        .get_json(
            &format!("/api/email-analytics?from={from90}&to={to}&grain=month"),
            session,
        )
        .await;
    let revenue = cents(&s(&analytics["total"]["revenue"])) - 50_000;
    let delivered = analytics["total"]["delivered"].as_i64().unwrap() - 1_000;
    let own_rpm = if delivered > 0 {
        money((revenue * 1000 + delivered / 2) / delivered)
    } else {
        "null".to_owned()
    };
    c.eq(
        "e-mail analytics 90 days rpm without the external mailing",
        own_rpm,
        rpm,
    );

    // The portfolio of an agency user granted this client: read in the request, then as the worker stores it.
    let token = app
        .basic_token(&app.create_user(false, &[client]).await)
        .await;
    crate::portfolio::forget_stored(app, &[client]).await;
    let in_request = figures(&portfolio(app, &token).await.1);
    refresh_through_the_worker(app, &[client]).await;
    let stored = figures(&portfolio(app, &token).await.1);
    for (how, f) in [("read in the request", in_request), ("stored", stored)] {
        let what = |figure: &str| format!("portfolio ({how}) {figure}");
        let share = f["retention"]
            .as_f64()
            .map_or_else(|| "null".to_owned(), |v| format!("{v:.4}"));
        c.eq(&what("retention"), share.clone(), retention);
        c.eq(
            &what("retention against the page"),
            share,
            &s(&r["donorRetention"]),
        );
        c.eq(&what("sustainers"), s(&f["sustainers"]), "1");
        c.eq(
            &what("sustainers against the dashboard"),
            s(&f["sustainers"]),
            &s(&d["revenue"]["activeSustainers"]),
        );
        c.eq(&what("list size"), s(&f["listSize"]), &subscribed);
        c.eq(
            &what("list change against the dashboard"),
            s(&f["listChange30"]),
            &s(&d["listSize"]["change30"]),
        );
        c.eq(&what("rpm"), s(&f["rpm"]), rpm);
        c.eq(
            &what("rpm against performance"),
            s(&f["rpm"]),
            &s(&total["rpm"]),
        );
    }
}

/// The one client's figures in a portfolio answer.
fn figures(body: &str) -> Value {
    let p: Value = serde_json::from_str(body).unwrap();
    p["clients"][0]["figures"].clone()
}
