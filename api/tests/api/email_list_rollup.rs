//! E-mail Analytics' list figures (subscribed, new subscribers, active) come from the rollup `email_list_days`;
//! after every kind of change a client's data goes through, it must equal the full recount over contacts,
//! mailing_events and mailing_recipients (`store::email_analytics::list_differences`), day by day, in a zone
//! with summer time (America/New_York, the default, then Europe/Berlin).

use crate::helpers::*;
use chrono::NaiveDate;
use tenancy::Client;

async fn differences(app: &TestApp, client: &Client) -> i64 {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let n = store::email_analytics::list_differences(
        &mut tx,
        NaiveDate::from_ymd_opt(2029, 10, 1).unwrap(),
        NaiveDate::from_ymd_opt(2031, 3, 31).unwrap(),
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    n
}

/// Subscribed and active at the end of `day`, as the page shows them for a one-day range.
async fn page_figures(app: &TestApp, client: &Client, day: &str) -> (i64, i64) {
    let session = app.session(client).await;
    let body = app
        .get_json(
            &format!("/api/email-analytics?from={day}&to={day}&grain=month"),
            &session,
        )
        .await;
    let t = &body["total"];
    (
        t["subscribed"].as_i64().unwrap(),
        t["active"].as_i64().unwrap(),
    )
}

#[tokio::test]
async fn the_list_rollup_equals_a_full_recount_after_every_kind_of_change() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let steps = [
        // An import: 120 contacts over 80 days, some joining unsubscribed or bounced.
        "insert into contacts (email, created, subscription)
         select 'c' || g || '@example.org', timestamptz '2030-01-01 12:00Z' + (g % 80) * interval '1 day'
                + (g % 24) * interval '1 hour',
                case when g % 13 = 0 then 'unsubscribed' when g % 17 = 0 then 'bounced' else 'subscribed' end
         from generate_series(1, 120) g",
        // Six sends, recipients queued then marked sent (a few bounced, some without sent_at).
        "insert into mailings (name, subject_line, is_draft, send_time, send_attempt, delivery)
         select 'M' || g, 'S', false, timestamptz '2030-02-01 14:00Z' + g * interval '23 days',
                timestamptz '2030-02-01 14:00Z' + g * interval '23 days', 'done'
         from generate_series(1, 6) g",
        "insert into mailing_recipients (mailing_id, contact_id, email)
         select m.id, c.id, c.email from mailings m, contacts c where c.id % 3 <> m.id % 3",
        "update mailing_recipients r set status = case when r.contact_id % 17 = 0 then 'bounced' else 'sent' end,
                sent_at = case when r.mailing_id % 2 = 0 then m.send_attempt + r.contact_id * interval '1 minute' end
         from mailings m where m.id = r.mailing_id",
        // Events on many days: people's opens and clicks, machine opens, unsubscribes.
        "insert into mailing_events (mailing_id, contact_id, kind, machine, created)
         select r.mailing_id, r.contact_id, k, k = 'open' and r.contact_id % 5 = 0,
                m.send_attempt + (r.contact_id % 45) * interval '1 day' + interval '5 hours'
         from mailing_recipients r join mailings m on m.id = r.mailing_id, unnest(array['open', 'click']) k
         where (k = 'open' and r.contact_id % 2 = 0) or (k = 'click' and r.contact_id % 7 = 1)",
        "insert into mailing_events (mailing_id, contact_id, kind, created)
         select r.mailing_id, r.contact_id, 'unsubscribe', m.send_attempt + interval '2 days'
         from mailing_recipients r join mailings m on m.id = r.mailing_id
         where r.contact_id % 13 = 0 and r.mailing_id = 2",
        // The unsubscribe handler and the send's bounce handling change the contacts one at a time.
        "update contacts set subscription = 'unsubscribed' where id in (26, 52)",
        "update contacts set subscription = 'bounced' where id = 34",
        // Bounces and complaints move many contacts in one statement, refreshed once (contacts_leave); one that
        // has left already stays as it is, and a change after it in the same transaction is refreshed again by
        // the row trigger.
        "select contacts_leave(array[40, 41, 42, 43, 26], array['bounced', 'unsubscribed', 'bounced',
                                                                'unsubscribed', 'bounced']);
         update contacts set subscription = 'subscribed' where id = 43",
        // A resubscribe; a bounced recipient resent; a late bounce; a send moved.
        "update contacts set subscription = 'subscribed' where id = 13",
        "update mailing_recipients set status = 'sent', sent_at = '2030-03-01 18:00Z'
         where contact_id = 17 and mailing_id = 1",
        "update mailing_recipients set status = 'bounced' where contact_id = 34 and mailing_id = 3",
        "update mailings set send_attempt = send_attempt - interval '9 days' where id = 3",
        // Single events later on (a machine open does not make anyone active), a contact created back in time.
        "insert into mailing_events (mailing_id, contact_id, kind, machine, created)
         values (5, 4, 'open', true, '2030-09-01 03:30Z'), (5, 8, 'click', false, '2030-11-03 05:30Z')",
        "update contacts set created = created - interval '30 days' where id = 10",
        // Contacts deleted (their events stay), a mailing deleted, recipient rows gone.
        "delete from contacts where id in (2, 8, 26)",
        "delete from mailings where id = 1",
        "delete from mailing_recipients where mailing_id = 2 and contact_id = 34",
        // A new zone moves every day.
        "update app_settings set time_zone = 'Europe/Berlin'",
        "insert into mailing_events (mailing_id, contact_id, kind, created)
         select 4, id, 'open', '2030-10-27 00:30Z' from contacts where id < 30",
    ];
    for step in steps {
        app.exec_in(&client, step).await;
        assert_eq!(differences(&app, &client).await, 0, "after: {step}");
    }

    // The page shows the rollup: on 2030-06-30 it equals the recount, and it moves when a contact leaves.
    let before = page_figures(&app, &client, "2030-06-30").await;
    assert!(before.0 > 0 && before.1 > 0, "{before:?}");
    app.exec_in(
        &client,
        "insert into mailing_events (mailing_id, contact_id, kind, created)
         values (4, 4, 'unsubscribe', '2030-06-01 12:00Z')",
    )
    .await;
    app.exec_in(
        &client,
        "update contacts set subscription = 'unsubscribed' where id = 4",
    )
    .await;
    let after = page_figures(&app, &client, "2030-06-30").await;
    assert_eq!(after.0, before.0 - 1);
    assert_eq!(differences(&app, &client).await, 0);
}
