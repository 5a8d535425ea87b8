//! Planning, Performance (and its CSV and XLSX), E-mail Analytics and the delivery rates: the e-mail revenue of the
//! period and the copies it was delivered to.

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
    // (35 + 500) × 1000 / (2 + 1000) = 533.93. Last month: no sends, no e-mail revenue.
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
    c.eq("analytics delivered", s(&periods[1]["delivered"]), "1002");
    c.eq("analytics rpm", s(&periods[1]["rpm"]), "533.93");

    // The delivery rates of the period's sends (the mailing page and Performance read the same operation): its
    // delivered is Performance's, a bounce heard after the send included.
    let rates = app
        .get_json(&format!("/api/delivery-rates?by=mailing&{range}"), session)
        .await;
    let rates = rates.as_array().unwrap();
    c.eq("rates mailings", rates.len().to_string(), "1");
    c.eq("rates delivered", s(&rates[0]["delivered"]), delivered);
    c.eq("rates sent", s(&rates[0]["sent"]), "4");
    c.eq(
        "rates hard bounce",
        s(&rates[0]["hardBounceRate"]),
        "0.5000",
    );
    c.eq(
        "rates soft bounce",
        s(&rates[0]["softBounceRate"]),
        "0.2500",
    );
    c.eq("rates complaints", s(&rates[0]["complaintRate"]), "0.5000");

    // The same period's rates per mailbox provider and per sender domain (E-mail Analytics' breakdowns) count the
    // same recipients: their groups add up to the mailing's figures.
    for by in ["provider", "sender_domain"] {
        let groups = app
            .get_json(&format!("/api/delivery-rates?by={by}&{range}"), session)
            .await;
        for figure in [
            "sent",
            "delivered",
            "hardBounced",
            "softBounced",
            "complained",
        ] {
            let sum: i64 = groups
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g[figure].as_i64().unwrap())
                .sum();
            c.eq(
                &format!("rates by {by} {figure}"),
                sum.to_string(),
                &s(&rates[0][figure]),
            );
        }
    }
}
