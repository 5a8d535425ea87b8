//! The dashboard and the mailings pages: this month's figures and the figures per mailing.

use super::check::*;
use super::fixture::{Hand, HAND};
use super::Period;
use serde_json::Value;

pub(super) async fn check(p: &Period<'_>, c: &mut Check) {
    let Period {
        app,
        session,
        from,
        to,
        ..
    } = p;
    let Hand {
        gross,
        net,
        gifts,
        donors,
        new_donors,
        recurring,
        email_revenue,
        email_gifts,
        delivered,
        rpm,
        coded_net,
        ..
    } = HAND;

    // Dashboard: this month's revenue tile, donors, the map, top codes and the last mailings.
    let d = app.get_json("/api/dashboard", session).await;
    let month = d["revenue"]["periods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["key"] == "month")
        .unwrap()
        .clone();
    c.eq("dashboard month from", s(&month["from"]), from);
    c.eq("dashboard month to", s(&month["to"]), to);
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
    let mailings = app.get_json("/api/crm-mailing", session).await;
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
        .get_json(&format!("/api/crm-mailing/{}", this["id"]), session)
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
}
