//! The seeded client of the period and the figures computed by hand from it.

use crate::helpers::*;
use tenancy::Client;

const FIXTURE: &[&str] = &[
    "create temporary table t_clock on commit drop as
     select s.time_zone,
            (date_trunc('month', now() at time zone s.time_zone)) at time zone s.time_zone as ms,
            (date_trunc('year', now() at time zone s.time_zone)) at time zone s.time_zone as ys,
            now() as now
     from app_settings s",
    "insert into origin_codes (name) values ('import'), ('web'), ('ads')",
    "insert into contacts (email, first_name, origin_code_id, created, subscription)
     select v.email, v.name, (select id from origin_codes where name = v.origin), v.created, 'subscribed'
     from t_clock k, lateral (values
        ('a@example.org', 'Ann', 'import', k.ms - interval '2 years 1 day'),
        ('b@example.org', 'Bo', 'web', k.ms + (k.now - k.ms) * 0.05),
        ('c@example.org', 'Cy', 'web', k.ms + (k.now - k.ms) * 0.05),
        ('d@example.org', 'Di', 'ads', k.ms - interval '90 days'),
        ('f@example.org', 'Flo', 'ads', k.ms + (k.now - k.ms) * 0.05),
        ('e@example.org', 'Eve', 'import', k.ms - interval '2 years')
     ) v (email, name, origin, created)",
    "insert into mailings (name, subject_line, is_draft, send_time, send_attempt, delivery)
     select v.name, v.name, v.draft, v.at, v.at, v.delivery
     from t_clock k, lateral (values
        ('Older appeal', false, k.ms - interval '40 days', 'done'),
        ('This month appeal', false, k.ms + (k.now - k.ms) * 0.1, 'done'),
        ('Year-end draft', true, null, 'idle')
     ) v (name, draft, at, delivery)",
    "insert into mailing_recipients (mailing_id, contact_id, email, status)
     select m.id, c.id, c.email, v.status
     from (values ('Older appeal', 'a@example.org', 'sent'), ('Older appeal', 'd@example.org', 'sent'),
                  ('This month appeal', 'a@example.org', 'sent'), ('This month appeal', 'b@example.org', 'sent'),
                  ('This month appeal', 'c@example.org', 'sent'), ('This month appeal', 'f@example.org', 'bounced'))
          v (mailing, email, status)
     join mailings m on m.name = v.mailing join contacts c on c.email = v.email",
    "insert into source_codes (code, parsed, channel, campaign, mailing_id) values
        ('em_this_a', true, 'em', 'this', (select id from mailings where name = 'This month appeal')),
        ('em_old_a', true, 'em', 'old', (select id from mailings where name = 'Older appeal')),
        ('fb_x', false, null, null, null)",
    // line, paid at, contact e-mail, amount, source code, mailing, recurring months, refunded, state
    "insert into contributions (platform, line_item_id, paid_at, contact_id, email, amount, source_code_id,
                                mailing_id, attribution, recurring_months, refunded_at, state)
     select v.platform, v.line, v.paid, c.id, v.email, v.amount, (select id from source_codes where code = v.code),
            m.id, case when m.id is null then 'none' else 'refcode' end, v.months,
            case when v.refunded then v.paid + (k.now - v.paid) / 2 end, v.state
     from t_clock k cross join lateral (values
        ('actblue', 'old-a', k.ms - interval '2 years', 'a@example.org', 80.00, null, null, null::int, false, 'NY'),
        ('actblue', 'ly-a', k.ys - interval '6 months', 'a@example.org', 35.00, null, null, null, false, 'NY'),
        ('actblue', 'ly-e', k.ys - interval '5 months', 'e@example.org', 45.00, null, null, null, false, 'NY'),
        ('actblue', 'old-d', k.ms - interval '39 days', 'd@example.org', 40.00, 'em_old_a', 'Older appeal', null, false, 'CA'),
        ('actblue', 'late-d', k.ms - interval '5 days', 'd@example.org', 10.00, 'em_old_a', 'Older appeal', null, false, 'CA'),
        ('actblue', 'prev-a', k.ms - interval '10 days', 'a@example.org', 20.00, null, null, null, false, 'NY'),
        ('actblue', '1', k.ms + (k.now - k.ms) * 0.3, 'a@example.org', 50.00, 'em_this_a', 'This month appeal', null, false, 'NY'),
        ('actblue', '2', k.ms + (k.now - k.ms) * 0.4, 'b@example.org', 100.00, 'em_this_a', 'This month appeal', null, true, 'TX'),
        ('actblue', '3', k.ms + (k.now - k.ms) * 0.45, 'c@example.org', 25.00, 'fb_x', null, 1, false, 'TX'),
        ('actblue', '4', k.ms + (k.now - k.ms) * 0.5, 'd@example.org', 60.00, 'em_old_a', 'Older appeal', null, false, 'CA'),
        ('actblue', '5', k.ms + (k.now - k.ms) * 0.6, 'x@example.org', 30.00, null, null, null, false, 'NY'),
        ('winred', '6', k.ms + (k.now - k.ms) * 0.7, 'a@example.org', -15.00, 'em_this_a', 'This month appeal', null, false, 'NY')
     ) v (platform, line, paid, email, amount, code, mailing, months, refunded, state)
     left join contacts c on c.email = v.email
     left join mailings m on m.name = v.mailing",
    "insert into external_mailings (source, name, sent_on, recipients, delivered, bounces, opens, clicks,
                                    unsubscribes, revenue)
     select 'esp', 'Partner blast', (k.now at time zone k.time_zone)::date, 1010, 1000, 10, 200, 50, 5, 500.00
     from t_clock k",
];

pub(super) async fn load(app: &TestApp, client: &Client) -> (String, String, String) {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    for sql in FIXTURE {
        sqlx::query(sqlx::AssertSqlSafe(*sql))
            .execute(&mut *tx)
            .await
            .unwrap_or_else(|e| panic!("{e}: {sql}"));
    }
    heard_after_the_send(&mut tx).await;
    let days: (String, String, String) = sqlx::query_as(
        "select to_char(date_trunc('month', now() at time zone s.time_zone), 'YYYY-MM-DD'),
                to_char(now() at time zone s.time_zone, 'YYYY-MM-DD'),
                to_char(date_trunc('month', now() at time zone s.time_zone) - interval '1 month', 'YYYY-MM-DD')
         from app_settings s",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    days
}

/// What came back after "This month appeal" went out, through the path the bounce listener and the webhooks use:
/// c@'s copy bounced for good (a delivery report), a@'s was deferred once (a soft bounce), b@ complained.
async fn heard_after_the_send(tx: &mut sqlx::PgConnection) {
    use store::deliverability::{record, Kind, NewEvent, Source};
    let mailing: i64 =
        sqlx::query_scalar("select id from mailings where name = 'This month appeal'")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    let events: Vec<NewEvent> = [
        ("c@example.org", Kind::HardBounce, Source::Dsn),
        ("a@example.org", Kind::SoftBounce, Source::Dsn),
        ("b@example.org", Kind::Complained, Source::Arf),
    ]
    .into_iter()
    .map(|(email, kind, source)| NewEvent {
        source,
        source_event_id: Some(format!("one-truth-{email}")),
        kind,
        status_code: None,
        diagnostic: None,
        email: email.to_owned(),
        mailing_id: Some(mailing),
        contact_id: None,
        occurred_at: chrono::Utc::now(),
        evidence_id: None,
    })
    .collect();
    record(tx, &events).await.unwrap();
}

/// The period's hand figures (the module comment shows how they were computed).
pub(super) struct Hand {
    pub gross: &'static str,
    pub refunds: &'static str,
    pub net: &'static str,
    pub gifts: &'static str,
    pub donors: &'static str,
    pub new_donors: &'static str,
    pub recurring: &'static str,
    pub email_revenue: &'static str,
    pub email_gifts: &'static str,
    pub delivered: &'static str,
    pub rpm: &'static str,
    /// Lines without a source code (x@'s $30) are not on the source-code pages, which list codes.
    pub coded_gifts: &'static str,
    pub coded_gross: &'static str,
    pub coded_net: &'static str,
}

pub(super) const HAND: Hand = Hand {
    gross: "265.00",
    refunds: "115.00",
    net: "150.00",
    gifts: "5",
    donors: "5",
    new_donors: "3",
    recurring: "25.00",
    email_revenue: "35.00",
    email_gifts: "2",
    delivered: "2",
    rpm: "17500.00",
    coded_gifts: "4",
    coded_gross: "235.00",
    coded_net: "120.00",
};
