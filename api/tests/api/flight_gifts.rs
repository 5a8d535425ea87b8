//! Issue 15: the gifts and revenue of Email › Performance come from `mailing_gift_rollups`, kept by triggers on
//! contributions, recipient rows and mailings. Checked by hand on a small fixture, then against a full recount after
//! every kind of change a client's data goes through.

use crate::helpers::*;
use serde_json::Value;
use tenancy::Client;

/// Each mailing whose gift rollup differs from the recount of its gifts.
pub(crate) async fn differences(app: &TestApp, client: &Client, mailings: &[i64]) -> Vec<String> {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let mut out = Vec::new();
    for &m in mailings {
        // The gift columns only: recipient rows change here in ways a send never makes (a variant changed, a row
        // removed), which the counts' triggers need not follow and the gifts' must.
        let gifts = |counts: Vec<store::flights::Counts>| {
            counts
                .into_iter()
                .filter(|c| c.gifts != 0 || c.revenue != "0.00")
                .map(|c| (c.variant, c.segment_id, c.gifts, c.revenue))
                .collect::<Vec<_>>()
        };
        let rollups = gifts(store::flights::rollup_counts(&mut tx, m).await.unwrap());
        let recount = gifts(store::flights::recount(&mut tx, m).await.unwrap());
        if rollups != recount {
            out.push(format!(
                "mailing {m}: rollups {rollups:?}, recount {recount:?}"
            ));
        }
    }
    tx.commit().await.unwrap();
    out
}

/// Contacts a–d; segments Loyal and Lapsed; m1 to Loyal with variants A (a) and B (b); m2 to a list, sent to a.
/// Gifts to m1: a 25.00, b 50.00, c 10.00 (not a recipient), an e-mail-only 5.00; to m2: a 100.00.
async fn fixture(app: &TestApp, client: &Client) -> (i64, i64) {
    app.exec_in(
        client,
        "insert into contacts (email, subscription) values
             ('a@example.org', 'subscribed'), ('b@example.org', 'subscribed'),
             ('c@example.org', 'subscribed'), ('d@example.org', 'subscribed');
         insert into segments (name) values ('Loyal'), ('Lapsed');
         insert into mailings (name, subject_line, is_draft, send_time, send_attempt, delivery, segment_id)
         select 'Spring appeal', 'S', false, now(), now(), 'done', id from segments where name = 'Loyal';
         insert into mailings (name, subject_line, is_draft, send_time, send_attempt, delivery)
         values ('Summer appeal', 'S', false, now(), now(), 'done');
         insert into mailing_recipients (mailing_id, contact_id, email, status, variant, segment_id)
         select m.id, c.id, c.email, 'sent', case c.email when 'a@example.org' then 'a' else 'b' end, m.segment_id
         from mailings m, contacts c where m.name = 'Spring appeal' and c.email in ('a@example.org', 'b@example.org');
         insert into mailing_recipients (mailing_id, contact_id, email, status)
         select m.id, c.id, c.email, 'sent' from mailings m, contacts c
         where m.name = 'Summer appeal' and c.email = 'a@example.org';
         insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email, mailing_id, attribution)
         select 'actblue', x.line, now(), x.amount, c.id, x.email, m.id, 'refcode'
         from (values ('G1', 25.00, 'a@example.org', 'Spring appeal'), ('G2', 50.00, 'b@example.org', 'Spring appeal'),
                      ('G3', 10.00, 'c@example.org', 'Spring appeal'), ('G4', 5.00, 'x@example.org', 'Spring appeal'),
                      ('G5', 100.00, 'a@example.org', 'Summer appeal')) x (line, amount, email, mailing)
         join mailings m on m.name = x.mailing left join contacts c on c.email = x.email;",
    )
    .await;
    let id = |name: &str| format!("select id from mailings where name = '{name}'");
    (
        app.scalar_in(client, &id("Spring appeal")).await,
        app.scalar_in(client, &id("Summer appeal")).await,
    )
}

fn row<'a>(rows: &'a Value, mailing: i64, variant: &str) -> &'a Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["flightId"] == mailing && r["variant"] == variant)
        .unwrap_or_else(|| panic!("no {variant} row of {mailing}: {rows}"))
}

#[tokio::test]
async fn issue_15_gifts_are_credited_to_the_givers_variant_and_segment() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    let (spring, summer) = fixture(&app, &client).await;

    let rows = app.get_json("/api/flights", &session).await;
    // Variant A of Spring: a's 25.00, and the non-recipients' 10.00 and 5.00 (credited to A and the mailing's
    // segment): 3 gifts, 40.00, average 13.33. Variant B: b's 50.00.
    let a = row(&rows, spring, "A");
    assert_eq!(a["segmentName"], "Loyal");
    assert_eq!(
        (a["gifts"].as_i64(), a["revenue"].as_str()),
        (Some(3), Some("40.00"))
    );
    assert_eq!(a["averageGift"], "13.33");
    let b = row(&rows, spring, "B");
    assert_eq!(
        (b["gifts"].as_i64(), b["revenue"].as_str()),
        (Some(1), Some("50.00"))
    );
    let s = row(&rows, summer, "A");
    assert_eq!(s["segmentName"], "List: (deleted)");
    assert_eq!(
        (s["gifts"].as_i64(), s["revenue"].as_str()),
        (Some(1), Some("100.00"))
    );
    // The range's total: 5 gifts, 190.00.
    let total = rows.as_array().unwrap().last().unwrap();
    assert!(total["flightId"].is_null(), "{total}");
    assert_eq!(
        (total["gifts"].as_i64(), total["revenue"].as_str()),
        (Some(5), Some("190.00"))
    );

    // c becomes a recipient of B after giving (a winner send): the 10.00 moves from A to B.
    app.exec_in(
        &client,
        &format!(
            "insert into mailing_recipients (mailing_id, contact_id, email, status, variant, segment_id)
             select {spring}, id, email, 'sent', 'b', (select segment_id from mailings where id = {spring})
             from contacts where email = 'c@example.org'"
        ),
    )
    .await;
    let rows = app.get_json("/api/flights", &session).await;
    assert_eq!(row(&rows, spring, "A")["revenue"], "30.00");
    assert_eq!(row(&rows, spring, "B")["revenue"], "60.00");
    assert_eq!(row(&rows, spring, "B")["gifts"], 2);
    assert!(differences(&app, &client, &[spring, summer])
        .await
        .is_empty());
}

#[tokio::test]
async fn issue_15_the_gift_rollup_equals_a_full_recount_after_every_kind_of_change() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let (spring, summer) = fixture(&app, &client).await;
    let both = [spring, summer];
    assert_eq!(
        differences(&app, &client, &both).await,
        Vec::<String>::new()
    );

    let steps = [
        // A giver's recipient row written after the gift, changed, then removed.
        format!("insert into mailing_recipients (mailing_id, contact_id, email, variant, segment_id)
                 select {spring}, id, email, 'b', 0 from contacts where email = 'c@example.org'"),
        format!("update mailing_recipients set variant = 'c', status = 'bounced' where mailing_id = {spring}"),
        format!("delete from mailing_recipients where mailing_id = {spring} and email = 'a@example.org'"),
        // Status changes alone, as a send writes them.
        format!("update mailing_recipients set status = 'sent' where mailing_id = {spring}"),
        // A gift refunded, a refund line, a gift moved to another mailing, one detached, one deleted.
        "update contributions set refunded_at = now() where line_item_id = 'G2'".to_owned(),
        format!("insert into contributions (platform, line_item_id, paid_at, amount, contact_id, mailing_id, refund_id)
                 select 'actblue', 'R1', now(), -25.00, contact_id, {spring}, 'R1' from contributions where line_item_id = 'G1'"),
        format!("update contributions set mailing_id = {summer} where line_item_id = 'G3'"),
        "update contributions set mailing_id = null where line_item_id = 'G4'".to_owned(),
        "delete from contributions where line_item_id = 'G5'".to_owned(),
        // Many gifts in one statement, to recipients and not, with repeats.
        format!("insert into contributions (platform, line_item_id, paid_at, amount, contact_id, mailing_id)
                 select 'actblue', 'B' || g, now(), g, c.id, case when g % 2 = 0 then {spring} else {summer} end
                 from generate_series(1, 40) g join contacts c on c.id % 4 = g % 4"),
        // The mailing's segment changes; a giver is deleted.
        format!("update mailings set segment_id = (select id from segments where name = 'Lapsed') where id = {spring}"),
        "delete from contacts where email = 'b@example.org'".to_owned(),
        format!("update mailings set segment_id = null where id = {spring}"),
    ];
    for step in &steps {
        app.exec_in(&client, step).await;
        assert_eq!(
            differences(&app, &client, &both).await,
            Vec::<String>::new(),
            "after: {step}"
        );
    }
    // A whole mailing goes: its rows with it, and nothing else moves.
    app.exec_in(
        &client,
        &format!("delete from mailings where id = {summer}"),
    )
    .await;
    let left = app
        .scalar_in(
            &client,
            &format!("select count(*) from mailing_gift_rollups where mailing_id <> {spring}"),
        )
        .await;
    assert_eq!(left, 0);
    assert_eq!(
        differences(&app, &client, &[spring]).await,
        Vec::<String>::new()
    );
}

/// Issue 27, item 1: gifts stored under the old rule (a refcode credited whatever the date) are judged again by the
/// migration: before the send (or before the mailing reached the giver) they leave the mailing, falling to a click
/// in the window if there is one; a gift with the code after the send is the mailing's. The rollups follow, and a
/// second run changes nothing.
#[tokio::test]
async fn issue_27_stored_gifts_are_judged_again_in_time_and_the_rollup_follows() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let session = app.session(&client).await;
    app.exec_in(
        &client,
        "insert into contacts (email) values ('a@example.org'), ('b@example.org'), ('c@example.org');
         insert into mailings (name, subject_line, is_draft, send_time, send_attempt, delivery) values
             ('Spring appeal', 'S', false, '2026-03-09 15:00Z', '2026-03-09 15:00Z', 'done'),
             ('Winter update', 'W', false, '2026-02-27 15:00Z', '2026-02-27 15:00Z', 'done'),
             ('Year-end draft', 'D', true, '2026-05-01 15:00Z', null, 'idle');
         insert into mailing_recipients (mailing_id, contact_id, email, status, sent_at)
         select m.id, c.id, c.email, 'sent', '2026-03-09 16:00Z' from mailings m, contacts c
         where m.name = 'Spring appeal' and c.email = 'a@example.org';
         insert into mailing_events (mailing_id, contact_id, kind, created)
         select m.id, c.id, 'click', '2026-02-28 12:00Z' from mailings m, contacts c
         where m.name = 'Winter update' and c.email = 'b@example.org';
         insert into source_codes (code, parsed, mailing_id)
         select x.code, false, m.id
         from (values ('em_spring_a', 'Spring appeal'), ('em_yearend_a', 'Year-end draft')) x (code, mailing)
         join mailings m on m.name = x.mailing;
         insert into contributions (platform, line_item_id, paid_at, amount, contact_id, email, refcode,
                                    source_code_id, mailing_id, attribution)
         select 'actblue', x.line, x.paid::timestamptz, x.amount, c.id, c.email, s.code, s.id,
                case when x.credited then s.mailing_id end, case when x.credited then 'refcode' else 'none' end
         from (values ('G1', '2026-03-09 15:30Z', 10.00, 'a@example.org', 'em_spring_a', true),
                      ('G2', '2026-03-10 12:00Z', 20.00, 'a@example.org', 'em_spring_a', true),
                      ('G3', '2026-03-01 12:00Z', 30.00, 'b@example.org', 'em_spring_a', true),
                      ('G4', '2026-03-10 12:00Z', 40.00, 'c@example.org', 'em_yearend_a', true),
                      ('G5', '2026-03-11 12:00Z', 50.00, 'c@example.org', 'em_spring_a', false))
              as x (line, paid, amount, email, code, credited)
         join contacts c on c.email = x.email join source_codes s on s.code = x.code;",
    )
    .await;
    let id = |name: &str| format!("select id from mailings where name = '{name}'");
    let spring = app.scalar_in(&client, &id("Spring appeal")).await;
    let winter = app.scalar_in(&client, &id("Winter update")).await;
    let draft = app.scalar_in(&client, &id("Year-end draft")).await;
    let all = [spring, winter, draft];
    let rule =
        include_str!("../../../migrations/tenant/20261201000000_refcode_attribution_in_time.sql");
    for run in 1..=2 {
        app.exec_in(&client, rule).await;
        let mut tx = app.tenancy.begin(&client).await.unwrap();
        let credited: Vec<(String, Option<i64>, String)> = sqlx::query_as(
            "select line_item_id, mailing_id, attribution from contributions order by line_item_id",
        )
        .fetch_all(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
        assert_eq!(
            credited,
            vec![
                ("G1".into(), None, "none".into()),
                ("G2".into(), Some(spring), "refcode".into()),
                ("G3".into(), Some(winter), "click".into()),
                ("G4".into(), None, "none".into()),
                ("G5".into(), Some(spring), "refcode".into()),
            ],
            "run {run}"
        );
        assert_eq!(
            differences(&app, &client, &all).await,
            Vec::<String>::new(),
            "run {run}"
        );
    }
    let figures = |m: Value| {
        (
            m["gifts"].as_i64(),
            m["revenue"].as_str().map(str::to_owned),
        )
    };
    let mailing = |id: i64| {
        let (app, session) = (&app, &session);
        async move {
            figures(
                app.get_json(&format!("/api/crm-mailing/{id}"), session)
                    .await,
            )
        }
    };
    assert_eq!(mailing(spring).await, (Some(2), Some("70.00".into())));
    assert_eq!(mailing(winter).await, (Some(1), Some("30.00".into())));
    assert_eq!(mailing(draft).await, (Some(0), Some("0.00".into())));
    // Email › Performance reads the rollups: Spring's 70.00 and Winter's 30.00 only.
    let rows = app
        .get_json("/api/flights?from=2026-02-01&to=2026-03-31", &session)
        .await;
    let total = rows.as_array().unwrap().last().unwrap();
    assert_eq!(
        (total["gifts"].as_i64(), total["revenue"].as_str()),
        (Some(3), Some("100.00")),
        "{rows}"
    );
    let rolled = app
        .scalar_in(
            &client,
            &format!("select coalesce(sum(gifts), 0)::bigint from mailing_gift_rollups where mailing_id = {draft}"),
        )
        .await;
    assert_eq!(rolled, 0);
}
