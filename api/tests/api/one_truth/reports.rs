//! Every report, on the page and in its CSV and XLSX.

use super::check::*;
use super::files::*;
use super::fixture::{Hand, HAND};
use super::Period;
use crate::reports::{read_csv, read_xlsx};

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
        email_revenue,
        email_gifts,
        delivered,
        rpm,
        coded_gifts,
        coded_gross,
        coded_net,
    } = HAND;

    // Reports, each on the page and in its CSV and XLSX.
    for kind in [
        "monthly-summary",
        "source-codes",
        "mailings",
        "flights",
        "acquisition",
    ] {
        let table = app
            .get_json(&format!("/api/reports/{kind}?{range}"), session)
            .await;
        let kinds: Vec<String> = table["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| s(&c["kind"]))
            .collect();
        let page = report_rows(&table);
        let csv = read_csv(
            &bytes(
                app,
                session,
                &format!("/api/reports/{kind}/file?format=csv&{range}"),
            )
            .await,
        );
        let xlsx = read_xlsx(
            &bytes(
                app,
                session,
                &format!("/api/reports/{kind}/file?format=xlsx&{range}"),
            )
            .await,
            &kinds,
        );
        for (source, rows) in [("page", &page), ("csv", &csv), ("xlsx", &xlsx)] {
            let what = |f: &str| format!("report {kind} {source} {f}");
            match kind {
                "monthly-summary" => {
                    for (key, want) in [
                        ("gifts", gifts),
                        ("donors", donors),
                        ("newDonors", new_donors),
                        ("gross", gross),
                        ("refunds", refunds),
                        ("net", net),
                        ("recurringGross", recurring),
                    ] {
                        c.eq(&what(key), cell(&table, rows, "Total", key), want);
                    }
                }
                "source-codes" => {
                    let col = |key: &str| {
                        let i = table["columns"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .position(|c| c["key"] == key)
                            .unwrap();
                        rows.iter().map(|r| cents(&r[i])).sum::<i64>()
                    };
                    c.eq(
                        &what("gifts"),
                        (col("gifts") / 100).to_string(),
                        coded_gifts,
                    );
                    c.eq(&what("gross"), money(col("gross")), coded_gross);
                    c.eq(&what("net"), money(col("net")), coded_net);
                }
                "acquisition" => {
                    let col = |key: &str| {
                        let i = table["columns"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .position(|c| c["key"] == key)
                            .unwrap();
                        rows.iter().map(|r| cents(&r[i])).sum::<i64>()
                    };
                    c.eq(&what("acquired"), (col("acquired") / 100).to_string(), "3");
                    c.eq(&what("donors"), (col("donors") / 100).to_string(), "2");
                    c.eq(&what("revenue all"), money(col("revenueAll")), "25.00");
                }
                "mailings" => {
                    c.eq(&what("rows"), rows.len().to_string(), "1");
                    c.eq(
                        &what("revenue"),
                        cell(&table, rows, "This month appeal", "revenue"),
                        email_revenue,
                    );
                    c.eq(
                        &what("gifts"),
                        cell(&table, rows, "This month appeal", "gifts"),
                        email_gifts,
                    );
                    c.eq(
                        &what("delivered"),
                        cell(&table, rows, "This month appeal", "delivered"),
                        delivered,
                    );
                    c.eq(
                        &what("rpm"),
                        cell(&table, rows, "This month appeal", "rpm"),
                        rpm,
                    );
                }
                _ => {
                    let flight = |key: &str| {
                        let i = table["columns"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .position(|c| c["key"] == key)
                            .unwrap();
                        let v = table["columns"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .position(|c| c["key"] == "variant")
                            .unwrap();
                        rows.iter()
                            .filter(|r| r[v] == "All" || r[v].is_empty())
                            .map(|r| cents(&r[i]))
                            .sum::<i64>()
                    };
                    c.eq(&what("revenue"), money(flight("revenue")), email_revenue);
                    c.eq(
                        &what("delivered"),
                        (flight("delivered") / 100).to_string(),
                        delivered,
                    );
                }
            }
        }
    }
}
