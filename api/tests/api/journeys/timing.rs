use super::*;
use chrono::{DateTime, Utc};

fn at(s: &str) -> DateTime<Utc> {
    s.parse().unwrap()
}

fn due(places: &[Value], journey: i64) -> (String, String, Option<DateTime<Utc>>, Option<String>) {
    let p = places.iter().find(|p| p["journey_id"] == journey).unwrap();
    (
        p["step_id"].as_str().unwrap().to_owned(),
        p["state"].as_str().unwrap().to_owned(),
        p["due_at"].as_str().map(|s| s.parse().unwrap()),
        p["exit_reason"].as_str().map(str::to_owned),
    )
}

#[tokio::test]
async fn the_cap_counts_regular_sends_waits_cross_daylight_saving_and_exits_fire() {
    let f = fixture().await;
    let t = f.template;
    let ids = f
        .contacts(&[
            "ann@example.org",
            "dan@example.org",
            "bob@example.org",
            "cy@example.org",
        ])
        .await;
    let (ann, dan, bob, cy) = (ids[0], ids[1], ids[2], ids[3]);
    // One e-mail a day. Ann got a regular mailing today; Dan did not.
    let (status, _) = f
        .call(Method::PUT, "/api/journeys/limits", Some(json!({ "per_day": 1, "per_week": null, "quiet_start_hour": null, "quiet_end_hour": null })))
        .await;
    assert_eq!(status, StatusCode::OK);
    f.exec(&format!(
        "with m as (insert into mailings (name, subject_line, sender_id, send_time, body_html, is_draft, send_attempt)
                    select 'June', 'June appeal', id, now(), '<p>Hi</p>', false, now() from senders returning id)
         insert into mailing_recipients (mailing_id, contact_id, email, status, sent_at)
         select m.id, {ann}, 'ann@example.org', 'sent', now() from m"
    ))
    .await;
    let capped = f
        .active_journey(
            "Capped",
            json!({ "triggers": [{ "kind": "list_added", "list_id": f.list }], "start": "mail",
                    "steps": [{ "id": "mail", "kind": "send", "template_id": t, "subject": "Capped hello", "on_cap": "wait", "next": null }] }),
        )
        .await;
    f.exec(&format!(
        "insert into crm_list_members (list_id, contact_id) values ({0}, {ann}), ({0}, {dan})",
        f.list
    ))
    .await;
    assert_eq!(f.pass().await.enrolled, 2);
    assert_eq!(
        f.delivered(1).await,
        vec![("dan@example.org".to_owned(), "Capped hello".to_owned())]
    );
    let midnight: DateTime<Utc> = {
        let mut tx = f.app.tenancy.begin(&f.session.client).await.unwrap();
        let m = sqlx::query_scalar(
            "select ((now() at time zone 'America/New_York')::date + 1)::timestamp at time zone 'America/New_York'",
        )
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
        m
    };
    assert_eq!(
        due(&f.places(ann).await, capped),
        (
            "mail".to_owned(),
            "waiting".to_owned(),
            Some(midnight),
            None
        ),
        "over the cap: due when the client's next day starts"
    );

    // A rescue series that waits for Monday 9:00 in New York. The clock moves to 10 March 2027; daylight saving
    // starts on the 14th, so Monday the 15th at 9:00 is 13:00 UTC (the Monday before it was 14:00 UTC).
    let mut tx = f.app.tenancy.begin(&f.session.client).await.unwrap();
    let rescue_list: i64 = sqlx::query_scalar(
        "insert into crm_lists (name, kind) values ('Lapsed', 'upload') returning id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let rescue = f
        .active_journey(
            "Rescue",
            json!({ "triggers": [{ "kind": "list_added", "list_id": rescue_list }], "exit_on_gift": true,
                    "start": "monday",
                    "steps": [
                        { "id": "monday", "kind": "wait_until", "weekday": 0, "hour": 9, "next": "mail" },
                        { "id": "mail", "kind": "send", "template_id": t, "subject": "We miss you", "on_cap": "wait", "next": null }
                    ] }),
        )
        .await;
    let now = f.advance(0.0).await;
    let hours = (at("2027-03-10T12:00:00Z") - now).num_seconds() as f64 / 3600.0;
    f.advance(hours).await;
    f.exec(&format!(
        "insert into crm_list_members (list_id, contact_id) values ({0}, {ann}), ({0}, {bob}), ({0}, {cy})",
        rescue_list
    ))
    .await;
    let pass = f.pass().await;
    assert_eq!(pass.enrolled, 3);
    // Ann's capped e-mail went once her next day came.
    assert_eq!(
        f.delivered(2).await[0],
        ("ann@example.org".to_owned(), "Capped hello".to_owned())
    );
    let monday = at("2027-03-15T13:00:00Z");
    for contact in [ann, bob, cy] {
        assert_eq!(
            due(&f.places(contact).await, rescue),
            (
                "monday".to_owned(),
                "waiting".to_owned(),
                Some(monday),
                None
            )
        );
    }
    // Bob gives (he leaves: the series ends on a gift); Cy unsubscribes (she leaves when her step comes).
    let now = f.advance(1.0).await;
    f.exec(&format!(
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id)
         values ('actblue', 'r-1', '{}', 10.00, {bob});
         update contacts set subscription = 'unsubscribed' where id = {cy}",
        now.to_rfc3339()
    ))
    .await;
    f.pass().await;
    assert_eq!(
        due(&f.places(bob).await, rescue),
        (
            "monday".to_owned(),
            "exited".to_owned(),
            None,
            Some("gave".to_owned())
        )
    );
    let hours = (monday - now).num_seconds() as f64 / 3600.0;
    f.advance(hours - 0.05).await;
    assert_eq!(f.pass().await.places, 0, "not before 9:00 in New York");
    f.advance(0.1).await;
    assert_eq!(f.pass().await.places, 2);
    assert_eq!(
        f.delivered(3).await,
        vec![
            ("ann@example.org".to_owned(), "Capped hello".to_owned()),
            ("ann@example.org".to_owned(), "We miss you".to_owned()),
            ("dan@example.org".to_owned(), "Capped hello".to_owned())
        ]
    );
    assert_eq!(
        due(&f.places(cy).await, rescue),
        (
            "monday".to_owned(),
            "exited".to_owned(),
            None,
            Some("unsubscribed".to_owned())
        )
    );
    assert_eq!(due(&f.places(ann).await, rescue).1, "finished");
}
