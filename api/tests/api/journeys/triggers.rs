//! The triggers no form or list announces: gifts (a first gift, one over an amount, a series started or ended)
//! from the contributions' writers, and the calendar (a series that failed, the anniversary of a first gift, a
//! date field) from one scan per client day on the journeys' clock.
use super::*;

/// The journeys' clock (the movable one), as SQL.
const NOW: &str =
    "(now() + make_interval(secs => coalesce((select offset_seconds from test_clock), 0)))";
const ZONE: &str = "coalesce((select time_zone from app_settings limit 1), 'America/New_York')";

/// Noon of the client's local day `ago` (an SQL interval) before today on the journeys' clock: a time whose local
/// date is the one meant, whatever the hour of the run and daylight saving.
fn noon_before(ago: &str) -> String {
    format!(
        "((({NOW} at time zone {ZONE})::date - {ago})::date + time '12:00') at time zone {ZONE}"
    )
}

/// The addresses inside (or through) the journey, sorted.
async fn entered(f: &Fixture, journey: i64) -> Vec<String> {
    let mut tx = f.app.tenancy.begin(&f.session.client).await.unwrap();
    let emails = sqlx::query_scalar(
        "select c.email from journey_contacts jc join contacts c on c.id = jc.contact_id
         where jc.journey_id = $1 order by c.email",
    )
    .bind(journey)
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    emails
}

fn names(emails: &[&str]) -> Vec<String> {
    emails.iter().map(|e| format!("{e}@example.org")).collect()
}

#[tokio::test]
async fn gifts_series_and_the_calendar_start_journeys_once_each() {
    let f = fixture().await;
    let people = [
        "ann", "bob", "cat", "dan", "fay", "gus", "hal", "ivy", "jon", "kim", "lee", "mia",
    ];
    let emails = names(&people);
    let ids = f
        .contacts(&emails.iter().map(String::as_str).collect::<Vec<_>>())
        .await;
    let id = |name: &str| ids[people.iter().position(|p| *p == name).unwrap()];

    // The history, written before any journey is active (nothing is announced for it): Bob gave 400 days ago;
    // Fay's only gift was a year ago today, Gus's a year and a day ago; Hal's open-ended monthly series was last
    // charged 35 days ago, Ivy's 20 days ago; Jon's six-month series ended with its sixth gift 35 days ago; Kim
    // signed up two years ago today.
    f.exec(&format!(
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, recurring_months,
                                    recurrence_number)
         values ('actblue', 'h-bob', {}, 20, {}, null, null),
                ('actblue', 'h-fay', {}, 30, {}, null, null),
                ('actblue', 'h-gus', {}, 30, {}, null, null),
                ('actblue', 'h-hal', {}, 15, {}, 0, 3),
                ('actblue', 'h-ivy', {}, 15, {}, 0, 5),
                ('actblue', 'h-jon', {}, 15, {}, 6, 6);
         update contacts set created = {} where id = {};",
        noon_before("interval '400 days'"),
        id("bob"),
        noon_before("interval '1 year'"),
        id("fay"),
        noon_before("interval '1 year 1 day'"),
        id("gus"),
        noon_before("interval '35 days'"),
        id("hal"),
        noon_before("interval '20 days'"),
        id("ivy"),
        noon_before("interval '35 days'"),
        id("jon"),
        noon_before("interval '2 years'"),
        id("kim"),
    ))
    .await;

    // Weekly series (their charges a week apart): Lee's was last charged 10 days ago, Mia's yesterday. Hal's
    // monthly series had its charge before the last a month earlier.
    f.exec(&format!(
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, recurring_months,
                                    recurrence_number)
         values ('actblue', 'h-hal-2', {}, 15, {}, 0, 2),
                ('actblue', 'h-lee-1', {}, 5, {}, 0, 1), ('actblue', 'h-lee-2', {}, 5, {}, 0, 2),
                ('actblue', 'h-mia-1', {}, 5, {}, 0, 1), ('actblue', 'h-mia-2', {}, 5, {}, 0, 2)",
        noon_before("interval '65 days'"),
        id("hal"),
        noon_before("interval '17 days'"),
        id("lee"),
        noon_before("interval '10 days'"),
        id("lee"),
        noon_before("interval '8 days'"),
        id("mia"),
        noon_before("interval '1 day'"),
        id("mia"),
    ))
    .await;

    let journey = |kind: Value| json!({ "triggers": [kind], "start": "done", "steps": [{ "id": "done", "kind": "end" }] });
    let first = f
        .active_journey("First gift", journey(json!({ "kind": "first_gift" })))
        .await;
    let over = f
        .active_journey(
            "Over $100",
            journey(json!({ "kind": "gift_over", "amount_cents": 10000 })),
        )
        .await;
    let started = f
        .active_journey(
            "Series started",
            journey(json!({ "kind": "recurring_started" })),
        )
        .await;
    let ended = f
        .active_journey(
            "Series ended",
            journey(json!({ "kind": "recurring_ended" })),
        )
        .await;
    let failed = f
        .active_journey("Rescue", journey(json!({ "kind": "recurring_failed" })))
        .await;
    let anniversary = f
        .active_journey(
            "First gift anniversary",
            journey(json!({ "kind": "first_gift_anniversary" })),
        )
        .await;
    let signup = f
        .active_journey(
            "Signup anniversary",
            journey(json!({ "kind": "date_field", "field": "signup_date" })),
        )
        .await;
    let last_gift = f
        .active_journey(
            "A year since the last gift",
            journey(json!({ "kind": "date_field", "field": "last_gift_date" })),
        )
        .await;

    // Today's gifts: Ann's first, Bob's $150 (not his first), Cat's first of a 12-month series, Dan's last of a
    // six-month one (his first gift too).
    f.exec(&format!(
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, recurring_months,
                                    recurrence_number)
         values ('actblue', 't-ann', {NOW}, 10, {}, null, null),
                ('actblue', 't-bob', {NOW}, 150, {}, null, null),
                ('actblue', 't-cat', {NOW}, 25, {}, 12, 1),
                ('actblue', 't-dan', {NOW}, 20, {}, 6, 6)",
        id("ann"),
        id("bob"),
        id("cat"),
        id("dan"),
    ))
    .await;
    let pass = f.pass().await;
    assert_eq!(pass.enrolled, 11, "{pass:?}");
    assert_eq!(entered(&f, first).await, names(&["ann", "cat", "dan"]));
    assert_eq!(entered(&f, over).await, names(&["bob"]));
    assert_eq!(entered(&f, started).await, names(&["cat"]));
    assert_eq!(entered(&f, ended).await, names(&["dan"]));
    assert_eq!(
        entered(&f, failed).await,
        names(&["hal", "lee"]),
        "Hal's monthly series has gone 35 days without a charge, Lee's weekly one 10 days; Jon's ended, Ivy's is \
         20 days old, Mia's was charged yesterday"
    );
    assert_eq!(entered(&f, anniversary).await, names(&["fay"]));
    assert_eq!(entered(&f, signup).await, names(&["kim"]));
    assert_eq!(entered(&f, last_gift).await, names(&["fay"]));

    // The calendar is read once a client day: a second pass the same day enrols nobody.
    assert_eq!(f.pass().await.enrolled, 0);

    // Fifteen days later (a worker that was stopped catches up the days it missed): Ivy's series has failed too
    // (35 days), and Mia's (10 days, six days ago); nobody else has an anniversary, and nobody enters twice.
    f.advance(15.0 * 24.0).await;
    let later = f.pass().await;
    assert_eq!(later.enrolled, 2, "{later:?}");
    assert_eq!(
        entered(&f, failed).await,
        names(&["hal", "ivy", "lee", "mia"])
    );
    assert_eq!(entered(&f, anniversary).await, names(&["fay"]));

    // A date field that is not the contact's is refused with the fields named.
    let (status, body) = f
        .call(
            Method::POST,
            "/api/journeys",
            Some(json!({ "name": "Birthday", "definition":
                journey(json!({ "kind": "date_field", "field": "birthday" })) })),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body.to_string().contains("signup_date, last_gift_date"),
        "{body}"
    );
}
