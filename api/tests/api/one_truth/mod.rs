//! One truth per figure (issue 27, item 4): one seeded client, one period (this month up to today, client zone), and
//! every operation that shows gross, net, gifts, donors, new donors, e-mail revenue or RPM read through the real HTTP
//! API — the dashboard, the contributions summary, breakdowns and gift table (and its CSV and XLSX), source codes and
//! their groups, origin codes, Planning, Performance (and its CSV and XLSX), E-mail Analytics, the delivery rates, and every
//! report (and its CSV and XLSX). Each must show the hand-computed figure below, or differ from it exactly by what its page says it
//! includes (docs/metrics.md). A new page showing one of these figures joins this test.
//!
//! The fixture has gifts before and after sends, an imported donor with an old gift, a month without sends that
//! still receives a late gift, a gift on a mailing sent two months earlier, a refunded gift, a refund line, a gift
//! without a contact, and an external mailing. Every gift credited to a mailing is paid after that mailing's send.
//!
//! Times are placed inside this month relative to now (fractions of the time since the month began), so the
//! dashboard's "this month" and the period read everywhere else are the same days whenever the test runs.
//!
//! The period's hand figures (client zone):
//! - lines this month: a $50 (e-mail, "This month appeal"), b $100 (same mailing, refunded), c $25 recurring (Facebook
//!   code), d $60 (late gift to "Older appeal", sent two months back), x@ $30 (no contact, no code), a −$15 (refund
//!   line credited to "This month appeal");
//! - gross = 265.00; refunds = 100 + 15 = 115.00; net = 150.00; gifts = 5; donors = a, b, c, d, x = 5; new donors =
//!   b, c, x = 3 (a first gave two years ago, d two months ago); recurring gross = 25.00;
//! - e-mail revenue (by send date: mailings whose send started this month, whenever paid) = "This month appeal":
//!   50 + 0 (refunded) − 15 = 35.00 from 2 gifts; delivered 2 (a, b; f refused during the send, c's bounce came back
//!   later); RPM = 35 × 1000 / 2 = 17500.00; its rates: hard bounces 2 of 4 sent (0.5000), soft 1 of 4 (a, deferred:
//!   0.2500), complaints 1 of 2 delivered (b: 0.5000).
//!   By gift date it would have been 95.00 (the late $60 and no deliveries behind it);
//! - last month had no send but a late $10 gift to "Older appeal": its e-mail revenue is 0.00.
//!
//! The portfolio and the Retention page (`portfolio.rs`) read further back: the last calendar year has imported
//! gifts of a and of e (who has not given since), and the portfolio's e-mail figures cover the last 90 days, so
//! both mailings.

mod check;
mod codes;
mod contributions;
mod dashboard;
mod email;
mod files;
mod fixture;
mod portfolio;
mod reports;

use crate::helpers::*;
use check::Check;

/// Where every part reads: the seeded client's session and the period's first and last day, and the month before.
pub(super) struct Period<'a> {
    app: &'a TestApp,
    session: &'a Session,
    from: String,
    to: String,
    prev: String,
    range: String,
}

#[tokio::test]
async fn every_page_shows_the_same_figures_for_the_same_period() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let (from, to, prev) = fixture::load(&app, &client).await;
    let range = format!("from={from}&to={to}");
    let p = Period {
        app: &app,
        session: &session,
        from,
        to,
        prev,
        range,
    };
    let mut c = Check::default();
    dashboard::check(&p, &mut c).await;
    contributions::check(&p, &mut c).await;
    codes::check(&p, &mut c).await;
    email::check(&p, &mut c).await;
    reports::check(&p, &mut c).await;
    portfolio::check(&p, &mut c).await;

    assert!(c.0.is_empty(), "figures that disagree:\n{}", c.0.join("\n"));
}
