//! Contributions: the summary, the daily series, the breakdowns, and the gift table with its CSV and XLSX.

use super::check::*;
use super::files::*;
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
        gross,
        refunds,
        net,
        gifts,
        donors,
        new_donors,
        recurring,
        ..
    } = HAND;

    // Contributions summary.
    let summary = app
        .get_json(&format!("/api/contributions/summary?{range}"), session)
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
        .get_json(&format!("/api/contributions/series?{range}"), session)
        .await;
    c.eq("series gross", sum(&series["days"], "gross"), gross);
    c.eq("series net", sum(&series["days"], "net"), net);
    c.eq("series gifts", count(&series["days"], "gifts"), gifts);

    // Breakdowns: each split covers every line of the period.
    let b = app
        .get_json(&format!("/api/contributions/breakdowns?{range}"), session)
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
        .get_json(&format!("/api/contributions?{range}&pageSize=100"), session)
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
                    app,
                    session,
                    &format!("/api/contributions/export/csv?{range}"),
                )
                .await,
            ),
        ),
        (
            "xlsx",
            xlsx_all(
                &bytes(
                    app,
                    session,
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
}
