//! One truth per figure for journeys (issues 27 and 31): a send step's delivered, gifts, revenue and RPM are its
//! mailing's, as the mailing's own page and Performance show them, on data that looks like a client's: a donor
//! imported with a gift two years old, a gift paid with the step's code an hour before the step mailed (a bad
//! link, not the step's), two gifts after it, and a copy that bounced for good after the send.
use super::*;

#[tokio::test]
async fn a_send_steps_figures_are_its_mailings_on_every_page() {
    let f = fixture().await;
    let id = f
        .active_journey(
            "Spring ask",
            json!({ "triggers": [{ "kind": "list_added", "list_id": f.list }], "start": "ask",
                    "steps": [{ "id": "ask", "kind": "send", "template_id": f.template,
                                "subject": "Spring ask", "on_cap": "skip", "next": null }] }),
        )
        .await;
    let ids = f
        .contacts(&[
            "ann@example.org",
            "bob@example.org",
            "cat@example.org",
            "dan@example.org",
        ])
        .await;
    let (ann, bob, cat) = (ids[0], ids[1], ids[2]);
    // Ann was imported with her gift of two years ago, before any of this.
    f.exec(&format!(
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id)
         values ('actblue', 'old-ann', now() - interval '2 years', 40.00, {ann})"
    ))
    .await;
    f.exec(&format!(
        "insert into crm_list_members (list_id, contact_id) select {}, unnest(array{ids:?}::bigint[])",
        f.list
    ))
    .await;
    assert_eq!(f.pass().await.enrolled, 4);
    assert_eq!(f.delivered(4).await.len(), 4);
    let mailing = f
        .scalar(&format!(
            "select mailing_id from journey_step_mailings where journey_id = {id}"
        ))
        .await;
    wait_until(
        "the step's copies recorded as sent",
        std::time::Duration::from_secs(20),
        || async {
            (f.scalar(&format!(
                "select count(*) from mailing_recipients where mailing_id = {mailing} and status = 'sent'"
            ))
            .await
                == 4)
                .then_some(())
        },
    )
    .await;

    // What came back and what was given, through the writers' own paths: Dan's copy bounced for good (a delivery
    // report), and three gifts with the step's code were attributed as an import attributes them.
    let mut tx = f.app.tenancy.begin(&f.session.client).await.unwrap();
    use store::deliverability::{record, Kind, NewEvent, Source};
    record(
        &mut tx,
        &[NewEvent {
            source: Source::Dsn,
            source_event_id: Some("figures-agree-dan".to_owned()),
            kind: Kind::HardBounce,
            status_code: None,
            diagnostic: None,
            email: "dan@example.org".to_owned(),
            mailing_id: Some(mailing),
            contact_id: None,
            occurred_at: chrono::Utc::now(),
            evidence_id: None,
        }],
    )
    .await
    .unwrap();
    sqlx::query(
        "with code as (insert into source_codes (code, parsed, mailing_id) values ('em_spring', false, $1)
                       returning id)
         insert into contributions (platform, line_item_id, paid_at, amount, contact_id, source_code_id)
         select 'actblue', v.line, v.paid, v.amount, v.contact, code.id
         from code, (values ('early-bob', now() - interval '1 hour', 25.00, $2::bigint),
                            ('ann-after', now() + interval '1 minute', 50.00, $3::bigint),
                            ('cat-after', now() + interval '2 minutes', 30.00, $4::bigint))
                    v (line, paid, amount, contact)",
    )
    .bind(mailing)
    .bind(bob)
    .bind(ann)
    .bind(cat)
    .execute(&mut *tx)
    .await
    .unwrap();
    let (by_refcode, _) = store::revenue::attribute(&mut tx, 7).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(by_refcode, 2, "Bob's gift came before the step mailed him");

    // By hand: 4 sent, 3 delivered (Dan bounced), 2 gifts for $80.00, RPM 80 × 1,000 ÷ 3 = $26,666.67.
    let figures = f
        .app
        .get_json(&format!("/api/journeys/{id}/figures"), &f.session)
        .await;
    let step = &figures["steps"][0];
    // (sent or recipients, delivered, gifts, revenue, RPM) of a step or a variant.
    let money = |row: &Value, sent: &str| {
        [sent, "delivered", "gifts", "revenue_cents", "rpm_cents"].map(|k| row[k].as_i64())
    };
    let by_hand = [Some(4), Some(3), Some(2), Some(8000), Some(2_666_667)];
    assert_eq!(step["step_id"], "ask", "{figures}");
    assert_eq!(money(step, "sent"), by_hand, "{figures}");
    assert_eq!(figures["revenue_cents"], 8000, "{figures}");
    // The one variant is the whole step, by the same definitions.
    let a = &step["variants"][0];
    assert_eq!(a["variant"], "A", "{figures}");
    assert_eq!(money(a, "recipients"), by_hand, "{figures}");
    // The journeys list shows the same revenue.
    let list = f.app.get_json("/api/journeys", &f.session).await;
    let row = list
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["id"] == id)
        .unwrap();
    assert_eq!(row["revenue_cents"], 8000, "{list}");

    // The mailing's own page shows the same figures.
    let page = f
        .app
        .get_json(&format!("/api/crm-mailing/{mailing}"), &f.session)
        .await;
    assert_eq!(
        (
            page["delivered"].as_i64(),
            page["gifts"].as_i64(),
            page["revenue"].as_str(),
            page["rpm"].as_str()
        ),
        (Some(3), Some(2), Some("80.00"), Some("26666.67")),
        "{page}"
    );
}
