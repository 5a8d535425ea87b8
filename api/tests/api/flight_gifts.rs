//! Issue 15: the gifts and revenue of Email › Performance come from `mailing_gift_rollups`, kept by triggers on
//! contributions, recipient rows and mailings. Checked by hand on a small fixture, then against a full recount after
//! every kind of change a client's data goes through.

use crate::helpers::*;
use serde_json::Value;
use tenancy::Client;

/// Each mailing whose gift rollup differs from the recount of its gifts.
async fn differences(app: &TestApp, client: &Client, mailings: &[i64]) -> Vec<String> {
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
