use super::*;

#[tokio::test]
async fn a_welcome_series_enrols_once_mails_waits_and_branches_on_a_gift() {
    let f = fixture().await;
    let t = f.template;
    let id = f
        .active_journey(
            "Welcome series",
            json!({
                "triggers": [{ "kind": "form_signup", "form_id": f.form }],
                "reentry": { "kind": "never" },
                "start": "welcome",
                "steps": [
                    { "id": "welcome", "kind": "send", "template_id": t, "subject": "Welcome, {{First.Name}}", "on_cap": "wait", "next": "pause" },
                    { "id": "pause", "kind": "wait", "hours": 48, "next": "gave" },
                    { "id": "gave", "kind": "branch", "condition": { "kind": "gave" }, "yes": "thanks", "no": "ask2" },
                    { "id": "thanks", "kind": "send", "template_id": t, "subject": "Thank you", "on_cap": "wait", "next": null },
                    { "id": "ask2", "kind": "send", "template_id": t, "subject": "Second ask", "on_cap": "skip", "next": null }
                ]
            }),
        )
        .await;
    // A second journey starts from the form's origin code (a signup "with an origin code").
    let coded = f
        .active_journey(
            "Petition code",
            json!({ "triggers": [{ "kind": "origin_code_signup", "origin_code": "petition" }],
                    "start": "done", "steps": [{ "id": "done", "kind": "end" }] }),
        )
        .await;
    f.sign_up("ann@example.org").await;
    f.sign_up("bob@example.org").await;
    f.sign_up("ann@example.org").await;
    f.exec("update contacts set first_name = initcap(split_part(email, '@', 1))")
        .await;
    let first = f.pass().await;
    assert_eq!(
        first.enrolled, 4,
        "each signup enrols once in each journey: {first:?}"
    );
    assert_eq!(f.pass().await.enrolled, 0);
    assert_eq!(
        f.delivered(2).await,
        vec![
            ("ann@example.org".to_owned(), "Welcome, Ann".to_owned()),
            ("bob@example.org".to_owned(), "Welcome, Bob".to_owned())
        ]
    );
    let ann = f
        .scalar("select id from contacts where email = 'ann@example.org'")
        .await;
    let places = f.places(ann).await;
    let welcome = places.iter().find(|p| p["journey_id"] == id).unwrap();
    assert_eq!(
        (welcome["step_id"].as_str(), welcome["state"].as_str()),
        (Some("pause"), Some("waiting"))
    );
    let coded_place = places.iter().find(|p| p["journey_id"] == coded).unwrap();
    assert_eq!(coded_place["state"], "finished");

    // The wait holds for 48 hours on the moved clock, and not a minute less.
    f.advance(47.5).await;
    assert_eq!(f.pass().await.places, 0);
    let now = f.advance(1.0).await;
    // Ann gives (a webhook or import line) after entering: she goes to the thank-you, Bob to the second ask.
    f.exec(&format!(
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id)
         values ('actblue', 'j-1', '{}', 25.00, {ann})",
        now.to_rfc3339()
    ))
    .await;
    let moved = f.pass().await;
    assert_eq!(moved.places, 2, "{moved:?}");
    assert_eq!(
        f.delivered(4).await,
        vec![
            ("ann@example.org".to_owned(), "Thank you".to_owned()),
            ("ann@example.org".to_owned(), "Welcome, Ann".to_owned()),
            ("bob@example.org".to_owned(), "Second ask".to_owned()),
            ("bob@example.org".to_owned(), "Welcome, Bob".to_owned())
        ]
    );
    let places = f.places(ann).await;
    let welcome = places.iter().find(|p| p["journey_id"] == id).unwrap();
    assert_eq!(
        (welcome["step_id"].as_str(), welcome["state"].as_str()),
        (Some("thanks"), Some("finished"))
    );

    // The figures: per step and in total, as the journey page shows them.
    let figures = f
        .app
        .get_json(&format!("/api/journeys/{id}/figures"), &f.session)
        .await;
    let step = |s: &str| {
        figures["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["step_id"] == s)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        (
            step("welcome")["reached"].as_i64(),
            step("welcome")["sent"].as_i64()
        ),
        (Some(2), Some(2))
    );
    assert_eq!(step("gave")["reached"], 2);
    assert_eq!(
        (
            step("thanks")["sent"].as_i64(),
            step("ask2")["sent"].as_i64()
        ),
        (Some(1), Some(1))
    );
    assert_eq!(
        (
            figures["entered"].as_i64(),
            figures["finished"].as_i64(),
            figures["converted"].as_i64()
        ),
        (Some(2), Some(2), Some(1)),
        "{figures}"
    );
    assert_eq!(figures["weeks"][0]["entered"], 2);
    // The journey's e-mails are not in the mailings list.
    let mailings = f.app.get_json("/api/crm-mailing", &f.session).await;
    assert_eq!(mailings.as_array().unwrap().len(), 0, "{mailings}");
}

/// Step records follow their place and their mailing as foreign keys would (migration `20261212000100`): a deleted
/// contact takes its places and their step records with it, and a deleted mailing leaves the records without one.
#[tokio::test]
async fn step_records_go_with_their_place_and_lose_a_deleted_mailing() {
    let f = fixture().await;
    f.active_journey(
        "Welcome",
        json!({
            "triggers": [{ "kind": "form_signup", "form_id": f.form }],
            "start": "welcome",
            "steps": [
                { "id": "welcome", "kind": "send", "template_id": f.template, "subject": "Welcome", "on_cap": "wait", "next": "pause" },
                { "id": "pause", "kind": "wait", "hours": 48, "next": null }
            ]
        }),
    )
    .await;
    f.sign_up("ann@example.org").await;
    f.sign_up("bob@example.org").await;
    f.pass().await;
    assert_eq!(f.delivered(2).await.len(), 2);
    let records = "select count(*) from journey_step_sends";
    let with_mailing = "select count(*) from journey_step_sends where mailing_id is not null";
    assert_eq!(f.scalar(records).await, 4, "welcome and pause, twice");
    assert_eq!(f.scalar(with_mailing).await, 2);

    f.exec("delete from contacts where email = 'ann@example.org'")
        .await;
    assert_eq!(
        f.scalar(
            "select count(*) from journey_step_sends s
             where not exists (select 1 from journey_contacts jc where jc.id = s.journey_contact_id)"
        )
        .await,
        0,
        "no record outlives its place"
    );
    assert_eq!(
        f.scalar(
            "select count(*) from journey_step_sends s join contacts c on c.id = s.contact_id
             where c.email = 'bob@example.org'"
        )
        .await,
        2
    );
    assert_eq!(f.scalar(records).await, 2);

    // The send job may still be recording what it sent; a mailing is deleted once nothing works on it.
    for _ in 0..300 {
        if f.scalar("select count(*) from jobs where status <> 'done'")
            .await
            == 0
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(
        f.scalar("select count(*) from jobs where status <> 'done'")
            .await,
        0
    );
    f.exec("delete from mailings where journey_id is not null")
        .await;
    assert_eq!(f.scalar(records).await, 2);
    assert_eq!(f.scalar(with_mailing).await, 0);
}

#[tokio::test]
async fn a_contact_gets_one_copy_of_a_steps_mailing_a_day_and_a_second_visit_that_day_is_skipped() {
    let f = fixture().await;
    // Both visits must fall on one client day: start the clock at least five hours before local midnight.
    let now = f.advance(0.0).await;
    let hour = f
        .scalar(&format!(
            "select extract(hour from timestamptz '{}' at time zone time_zone)::bigint from app_settings",
            now.to_rfc3339()
        ))
        .await;
    if hour >= 19 {
        f.advance((26 - hour) as f64).await;
    }
    let id = f
        .active_journey(
            "Hourly nudge",
            json!({
                "triggers": [{ "kind": "form_signup", "form_id": f.form }],
                "reentry": { "kind": "never" },
                "start": "nudge",
                "steps": [
                    { "id": "nudge", "kind": "send", "template_id": f.template, "subject": "Nudge", "on_cap": "skip", "next": "pause" },
                    { "id": "pause", "kind": "wait", "hours": 1, "next": "nudge" }
                ]
            }),
        )
        .await;
    f.sign_up("nia@example.org").await;
    assert_eq!(f.pass().await.enrolled, 1);
    assert_eq!(
        f.delivered(1).await,
        vec![("nia@example.org".to_owned(), "Nudge".to_owned())]
    );
    let outcomes = || async {
        let mut tx = f.app.tenancy.begin(&f.session.client).await.unwrap();
        sqlx::query_as::<_, (String, Option<i64>)>(
            "select outcome, mailing_id from journey_step_sends
             where journey_id = $1 and step_id = 'nudge' order by seq",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await
        .unwrap()
    };

    // An hour later, the same day: the step's mailing of the day already went to her, so this visit is skipped.
    f.advance(1.05).await;
    assert_eq!(f.pass().await.places, 1);
    let first = outcomes().await;
    let day_one = first[0].1.unwrap();
    assert_eq!(
        first,
        vec![
            ("sent".to_owned(), Some(day_one)),
            ("skipped".to_owned(), None)
        ]
    );
    assert_eq!(
        f.scalar(&format!(
            "select count(*) from mailing_recipients where mailing_id = {day_one}"
        ))
        .await,
        1
    );

    // The next day the step has a new mailing, and she gets it.
    f.advance(24.0).await;
    assert_eq!(f.pass().await.places, 1);
    let all = outcomes().await;
    assert_eq!(all.len(), 3, "{all:?}");
    assert_eq!(all[2].0, "sent");
    assert_ne!(all[2].1, Some(day_one));
    assert_eq!(
        f.delivered(2).await,
        vec![
            ("nia@example.org".to_owned(), "Nudge".to_owned()),
            ("nia@example.org".to_owned(), "Nudge".to_owned())
        ]
    );
}
