//! Donor retention against hand-built fixtures whose figures are computed by hand below (docs/metrics.md,
//! "Donor retention"), in the client's zone (America/New_York).

mod fep;
mod page;
mod warm;

use crate::helpers::*;

use chrono::NaiveDate;
use store::retention::{self, Category, PeriodKind, Retention};
use tenancy::Client;

pub(crate) fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

pub(crate) async fn retention(
    app: &TestApp,
    client: &Client,
    kind: PeriodKind,
    as_of: &str,
) -> Retention {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let r = retention::donor_retention(&mut tx, kind, day(as_of))
        .await
        .unwrap();
    tx.commit().await.unwrap();
    r
}

/// (donors, previous, current, change) of a category.
pub(crate) fn line(r: &Retention, c: Category) -> (i64, &str, &str, &str) {
    let l = r.lines.iter().find(|l| l.category == c).unwrap();
    (
        l.donors,
        l.previous.as_str(),
        l.current.as_str(),
        l.change.as_str(),
    )
}

/// Contacts a–i and one e-mail donor (g): each donor's story is told beside its gifts.
pub(crate) const FIXTURE: &str = "
    insert into contacts (email) select x || '@example.org' from unnest(array['a','b','c','d','e','f','h','i']) x;
    insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email, refund_id,
                               recurring_months)
    select 'actblue', l, p::timestamptz, a, (select id from contacts where email = k || '@example.org'),
           case when k = 'g' then 'g@example.org' end, r, null
    from (values
        -- a: $100 in 2025, $150 in 2026: upgraded.
        ('a1', '2025-03-10 15:00Z', 100.00, 'a', null), ('a2', '2026-02-10 15:00Z', 150.00, 'a', null),
        -- b: $50 and $50: same.
        ('b1', '2025-05-10 15:00Z', 50.00, 'b', null), ('b2', '2026-03-10 15:00Z', 50.00, 'b', null),
        -- c: $200 then $80: downgraded.
        ('c1', '2025-07-10 15:00Z', 200.00, 'c', null), ('c2', '2026-04-10 15:00Z', 80.00, 'c', null),
        -- d: 03:00 UTC on 1 January 2026 is 31 December 2025 in New York: gave in 2025 only, lost.
        ('d1', '2026-01-01 03:00Z', 40.00, 'd', null),
        -- e: gave in 2024, not in 2025, again in 2026: recaptured.
        ('e1', '2024-06-10 15:00Z', 30.00, 'e', null), ('e2', '2026-05-10 15:00Z', 60.00, 'e', null),
        -- f: first gift in 2026: new.
        ('f1', '2026-01-10 15:00Z', 25.00, 'f', null),
        -- g: an e-mail without a contact, first gift in June 2026: new.
        ('g1', '2026-06-10 15:00Z', 10.00, 'g', null),
        -- h: 2025's gift refunded in full (no gift), $20 in 2026: recaptured.
        ('h1', '2025-11-10 15:00Z', 70.00, 'h', 'R1'), ('h2', '2026-02-10 15:00Z', 20.00, 'h', null),
        -- i: $100 in 2025 and a refund line of it in 2026: lost, and the refund counts against 2026.
        ('i1', '2025-12-10 15:00Z', 100.00, 'i', null), ('i2', '2026-01-12 15:00Z', -100.00, 'i', null)
    ) v (l, p, a, k, r);";

#[tokio::test]
async fn donor_and_dollar_retention_and_the_gain_loss_report_by_hand() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    app.exec_in(&client, FIXTURE).await;

    // 2026 to June against 2025: previous donors a 100, b 50, c 200, d 40, i 100 (h's refunded gift is none) =
    // 5 donors, $490; current a 150, b 50, c 80, e 60, f 25, g 10, h 20 = 7 donors, and i's −100.
    let r = retention(&app, &client, PeriodKind::Year, "2026-06-15").await;
    assert_eq!(
        (r.periods.from, r.periods.to, r.periods.previous_from),
        (day("2026-01-01"), day("2026-06-01"), day("2025-01-01"))
    );
    assert_eq!((r.donors_previous, r.donors_current, r.retained), (5, 7, 3));
    assert!((r.donor_retention - 0.6).abs() < 1e-9);
    assert_eq!(
        (
            r.dollars_previous.as_str(),
            r.dollars_current.as_str(),
            r.dollars_retained.as_str()
        ),
        ("490.00", "295.00", "280.00")
    );
    assert!((r.dollar_retention - 280.0 / 490.0).abs() < 1e-9);
    assert_eq!(line(&r, Category::New), (2, "0.00", "35.00", "35.00"));
    assert_eq!(
        line(&r, Category::Recaptured),
        (2, "0.00", "80.00", "80.00")
    );
    assert_eq!(
        line(&r, Category::Upgraded),
        (1, "100.00", "150.00", "50.00")
    );
    assert_eq!(line(&r, Category::Same), (1, "50.00", "50.00", "0.00"));
    assert_eq!(
        line(&r, Category::Downgraded),
        (1, "200.00", "80.00", "-120.00")
    );
    assert_eq!(
        line(&r, Category::Lost),
        (2, "140.00", "-100.00", "-240.00")
    );
    // 490 + 165 − 360 = 295.
    assert_eq!((r.gains.as_str(), r.losses.as_str()), ("165.00", "360.00"));

    // A fiscal year from July: FY2026 (July 2025 – June 2026) against FY2025. Previous: a 100, b 50. Current:
    // a 150 (upgraded), b 50 (same), c 280, d 40, f 25, g 10, h 20 (all first gifts in the year: new), e 60
    // (recaptured); i nets 0.
    app.exec_in(&client, "update app_settings set fiscal_year_start = 7")
        .await;
    let r = retention(&app, &client, PeriodKind::FiscalYear, "2026-06-15").await;
    assert_eq!(
        (r.periods.from, r.periods.previous_from),
        (day("2025-07-01"), day("2024-07-01"))
    );
    assert_eq!((r.donors_previous, r.donors_current, r.retained), (2, 8, 2));
    assert!((r.donor_retention - 1.0).abs() < 1e-9);
    assert_eq!(line(&r, Category::New), (5, "0.00", "375.00", "375.00"));
    assert_eq!(
        line(&r, Category::Recaptured),
        (1, "0.00", "60.00", "60.00")
    );
    // Fiscal quarters: April–June 2026 against January–March (fiscal Q4 against Q3).
    let r = retention(&app, &client, PeriodKind::Quarter, "2026-06-15").await;
    assert_eq!(
        (r.periods.from, r.periods.previous_from),
        (day("2026-04-01"), day("2026-01-01"))
    );
    // January–March: a 150, b 50, f 25, h 20 (i −100 is no donor); April–June: c 80, e 60, g 10.
    assert_eq!((r.donors_previous, r.donors_current, r.retained), (4, 3, 0));
    assert_eq!(line(&r, Category::Lost), (4, "245.00", "0.00", "-245.00"));
    assert_eq!(line(&r, Category::Recaptured).0, 2);
    assert_eq!(line(&r, Category::New).0, 1);

    // The rollup follows refunds, moves and deletes, and equals a recount of the facts (also after a zone
    // change, which moves d's gift into 2026).
    app.exec_in(
        &client,
        "update contributions set refund_id = 'R2' where line_item_id = 'a2';
                          delete from contributions where line_item_id = 'b2';",
    )
    .await;
    let r = retention(&app, &client, PeriodKind::Year, "2026-06-15").await;
    assert_eq!(line(&r, Category::Lost).0, 4);
    app.exec_in(&client, "update app_settings set time_zone = 'UTC'")
        .await;
    let r = retention(&app, &client, PeriodKind::Year, "2026-06-15").await;
    assert_eq!(line(&r, Category::New), (3, "0.00", "75.00", "75.00"));
    let differences = app
        .scalar_in(
            &client,
            "with recount as (
                 select date_trunc('month', c.paid_at at time zone s.time_zone)::date as month,
                        coalesce(c.contact_id::text, 'e:' || c.email) as donor,
                        sum(case when c.amount > 0 and (c.refund_id is not null or c.refunded_at is not null)
                                 then 0 else c.amount end) as net,
                        count(*) filter (where c.amount > 0)::int as gifts
                 from contributions c cross join app_settings s group by 1, 2),
             rollup as (select month, donor, net, gifts from donor_months)
             select count(*) from ((table recount except table rollup) union all (table rollup except table recount)) x",
        )
        .await;
    assert_eq!(differences, 0);
}
