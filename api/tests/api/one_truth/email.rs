//! Planning, Performance (and its CSV and XLSX) and E-mail Analytics: the e-mail revenue of the period.

use super::check::*;
use super::files::*;
use super::fixture::{Hand, HAND};
use super::Period;

pub(super) async fn check(p: &Period<'_>, c: &mut Check) {
    let Period {
        app,
        session,
        to,
        prev,
        range,
        ..
    } = p;
    let Hand {
        email_revenue,
        email_gifts,
        delivered,
        rpm,
        ..
    } = HAND;

    // Planning: the month's actual is the month's e-mail revenue; last month (no sends, a late gift) has none.
    let planning = app
        .get_json(&format!("/api/planning?from={prev}&to={to}"), session)
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
        .get_json(&format!("/api/flights?{range}"), session)
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
            csv_all(&bytes(app, session, &format!("/api/flights/export/csv?{range}")).await),
        ),
        (
            "xlsx",
            xlsx_all(&bytes(app, session, &format!("/api/flights/export/xlsx?{range}")).await),
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
            session,
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
}
