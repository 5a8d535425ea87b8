//! Source codes, their groups, and origin codes.

use super::check::*;
use super::fixture::{Hand, HAND};
use super::Period;

pub(super) async fn check(p: &Period<'_>, c: &mut Check) {
    let Period {
        app,
        session,
        range,
        ..
    } = p;
    let Hand {
        coded_gifts,
        coded_gross,
        coded_net,
        ..
    } = HAND;

    // Source codes and their groups: the coded lines.
    let codes = app
        .get_json(&format!("/api/contribution-source-codes?{range}"), session)
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
                session,
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
        .get_json(&format!("/api/external-origin-code/value?{range}"), session)
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
}
