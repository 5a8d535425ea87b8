//! The FEP's gain/loss arithmetic on its published example: the average respondent of the 2008 Fundraising
//! Effectiveness Survey (2006 → 2007; Levis and Williams, "A Better Measure of Success", AFP) gained $594,000
//! and lost $503,000, a net growth in giving of $91,000. Gains are new, recaptured and upgraded donors' money;
//! losses are downgraded and lapsed donors' money. The split between the categories below is ours; the sums
//! are the report's.

use super::*;

#[tokio::test]
async fn the_published_fep_example_adds_up() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    app.exec_in(
        &client,
        "insert into contacts (email) select 'p' || g || '@example.org' from generate_series(1, 6) g;
         insert into contributions (platform, line_item_id, paid_at, amount, contact_id)
         select 'actblue', l, p::timestamptz, a, (select id from contacts where email = k || '@example.org')
         from (values
             ('n', '2007-05-01 15:00Z', 300000.00, 'p1'),
             ('r0', '2005-05-01 15:00Z', 1000.00, 'p2'), ('r', '2007-05-01 15:00Z', 194000.00, 'p2'),
             ('u0', '2006-05-01 15:00Z', 100000.00, 'p3'), ('u', '2007-05-01 15:00Z', 200000.00, 'p3'),
             ('d0', '2006-05-01 15:00Z', 400000.00, 'p4'), ('d', '2007-05-01 15:00Z', 200000.00, 'p4'),
             ('l', '2006-05-01 15:00Z', 303000.00, 'p5'),
             ('s0', '2006-05-01 15:00Z', 5000.00, 'p6'), ('s', '2007-05-01 15:00Z', 5000.00, 'p6')
         ) v (l, p, a, k);",
    )
    .await;
    let r = retention(&app, &client, PeriodKind::Year, "2007-12-31").await;
    assert_eq!(
        (r.gains.as_str(), r.losses.as_str()),
        ("594000.00", "503000.00")
    );
    // 2006: 100,000 + 400,000 + 303,000 + 5,000; 2007: 300,000 + 194,000 + 200,000 + 200,000 + 5,000.
    assert_eq!(
        (r.dollars_previous.as_str(), r.dollars_current.as_str()),
        ("808000.00", "899000.00")
    );
    assert_eq!(line(&r, Category::New).3, "300000.00");
    assert_eq!(line(&r, Category::Recaptured).3, "194000.00");
    assert_eq!(line(&r, Category::Upgraded).3, "100000.00");
    assert_eq!(line(&r, Category::Same).3, "0.00");
    assert_eq!(line(&r, Category::Downgraded).3, "-200000.00");
    assert_eq!(line(&r, Category::Lost).3, "-303000.00");
    // Donor retention: 3 of 4 2006 donors gave again.
    assert_eq!((r.donors_previous, r.retained), (4, 3));
    assert!((r.donor_retention - 0.75).abs() < 1e-9);
}
