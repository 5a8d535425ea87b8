//! Segment rules read per-contact rollups (`contact_giving`, and `email_contact_state`'s last human open and
//! click) kept by triggers. After every kind of change a client's gifts and events go through, the rollups must
//! equal a recount from the facts written out here, and the set-based rebuild must give the same rows.

use super::*;

/// Rows of contact_giving that differ from the definition recounted from contributions (either way).
const GIVING_DIFFERENCES: &str = "
    with expected as (
        select k.contact_id,
               (select count(*)::integer from contributions g where g.contact_id = k.contact_id
                  and g.amount > 0 and g.refunded_at is null) as gifts,
               (select coalesce(sum(g.amount), 0) from contributions g where g.contact_id = k.contact_id
                  and g.amount > 0 and g.refunded_at is null) as total,
               (select min(g.paid_at) from contributions g where g.contact_id = k.contact_id
                  and g.amount > 0 and g.refunded_at is null) as first_gift_at,
               (select max(g.paid_at) from contributions g where g.contact_id = k.contact_id
                  and g.amount > 0 and g.refunded_at is null) as last_gift_at,
               (select max(g.amount) from contributions g where g.contact_id = k.contact_id
                  and g.amount > 0 and g.refunded_at is null) as hpc,
               (select g.amount from contributions g where g.contact_id = k.contact_id
                  and g.amount > 0 and g.refunded_at is null order by g.paid_at desc, g.id desc limit 1) as mrc,
               (select max(g.paid_at) from contributions g where g.contact_id = k.contact_id
                  and g.amount > 0 and g.refunded_at is null and g.recurring_months is not null)
                 as last_recurring_at,
               (select g.state from contributions g where g.contact_id = k.contact_id and g.state <> ''
                  order by g.paid_at desc, g.id desc limit 1) as state,
               (select g.zip from contributions g where g.contact_id = k.contact_id and g.zip <> ''
                  order by g.paid_at desc, g.id desc limit 1) as zip
        from (select distinct contact_id from contributions where contact_id is not null) k
    ),
    kept as (
        select contact_id, gifts, total, first_gift_at, last_gift_at, hpc, mrc, last_recurring_at, state, zip
        from contact_giving where gifts > 0 or state is not null or zip is not null
    )
    select count(*) from ((select * from expected where gifts > 0 or state is not null or zip is not null
                           except select * from kept)
                          union all (select * from kept except select * from expected)) d";

const ENGAGEMENT_DIFFERENCES: &str = "
    with expected as (
        select e.contact_id, max(e.created) filter (where e.kind = 'open') as last_open_at,
               max(e.created) filter (where e.kind = 'click') as last_click_at
        from mailing_events e where not e.machine and e.kind in ('open', 'click') group by e.contact_id
    ),
    kept as (
        select contact_id, last_open_at, last_click_at from email_contact_state
        where last_open_at is not null or last_click_at is not null
    )
    select count(*) from ((select * from expected except select * from kept)
                          union all (select * from kept except select * from expected)) d";

#[tokio::test]
async fn the_giving_and_engagement_rollups_equal_a_recount_after_every_kind_of_change() {
    let app = spawn_app().await;
    let client = app.create_client().await;
    let steps = [
        "insert into contacts (email) select 'c' || g || '@example.org' from generate_series(1, 40) g",
        // An import: 200 gifts over 40 contacts, some refunded, some recurring, some negative, ties in time.
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, recurring_months,
                                    refunded_at, state, zip)
         select 'actblue', 'L' || g, timestamptz '2030-01-01' + (g % 37) * interval '1 day',
                case when g % 23 = 0 then -5 else 1 + (g * 7) % 90 end,
                (select min(id) from contacts) + g % 40,
                case when g % 5 = 0 then 1 end, case when g % 11 = 0 then timestamptz '2030-03-01' end,
                case when g % 3 = 0 then 'NY' when g % 3 = 1 then '' end,
                case when g % 4 = 0 then lpad(g::text, 5, '0') end
         from generate_series(1, 200) g",
        // A second import into the same donors, at the same times as their gifts (ties go to the later line),
        // with states and ZIPs of its own: merged from the batch's rows, it must equal the recount.
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, recurring_months, state, zip)
         select 'actblue', 'T' || g, timestamptz '2030-01-01' + (g % 37) * interval '1 day', 1 + (g * 3) % 50,
                (select min(id) from contacts) + g % 40, case when g % 7 = 0 then 1 end,
                case when g % 2 = 0 then 'TX' end, case when g % 3 = 0 then '99999' end
         from generate_series(1, 120) g",
        // An older gift and a refunded one change no latest value.
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, refunded_at, state)
         values ('actblue', 'O1', timestamptz '2020-01-01', 5000, (select min(id) from contacts), null, 'WA'),
                ('actblue', 'O2', timestamptz '2031-01-01', 7000, (select min(id) from contacts), now(), '')",
        // One webhook gift.
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id, state)
         values ('actblue', 'W1', timestamptz '2030-06-01', 250, (select min(id) from contacts), 'CA')",
        // A refund mark, an amount corrected, a gift moved to another contact.
        "update contributions set refunded_at = now() where line_item_id in ('L7', 'W1')",
        "update contributions set amount = 999 where line_item_id = 'L8'",
        "update contributions set contact_id = (select max(id) from contacts) where line_item_id = 'L9'",
        // A change no rule reads: nothing to recount, and nothing must break.
        "update contributions set fee = 1",
        // Gifts deleted, and a contact deleted (its gifts keep no contact).
        "delete from contributions where line_item_id in ('L10', 'L50')",
        "delete from contacts where id = (select min(id) + 3 from contacts)",
        // Events: human and machine opens and clicks, in two statements, the second older than the first.
        "insert into mailings (name, subject_line) values ('M', 'S')",
        "insert into mailing_events (mailing_id, contact_id, kind, machine, created)
         select (select min(id) from mailings), (select min(id) from contacts) + g % 30,
                (array['open', 'click', 'unsubscribe'])[1 + g % 3], g % 7 = 0,
                timestamptz '2030-02-01' + g * interval '1 hour'
         from generate_series(1, 120) g",
        "insert into mailing_events (mailing_id, contact_id, kind, machine, created)
         select (select min(id) from mailings), (select min(id) from contacts) + g % 10, 'open', false,
                timestamptz '2029-01-01'
         from generate_series(1, 10) g",
        "delete from mailing_events where id in (select max(id) from mailing_events where kind = 'open' and not machine)",
    ];
    for (i, step) in steps.iter().enumerate() {
        app.exec_in(&client, step).await;
        assert_eq!(
            app.scalar_in(&client, GIVING_DIFFERENCES).await,
            0,
            "giving after step {i}: {step}"
        );
        assert_eq!(
            app.scalar_in(&client, ENGAGEMENT_DIFFERENCES).await,
            0,
            "engagement after step {i}: {step}"
        );
    }
    let donors = app
        .scalar_in(
            &client,
            "select count(*) from contact_giving where gifts > 0",
        )
        .await;
    assert!(donors >= 35, "{donors} donors");
    // The set-based rebuild (large imports take it) gives the same rows.
    app.exec_in(&client, "select contact_giving_rebuild()")
        .await;
    assert_eq!(app.scalar_in(&client, GIVING_DIFFERENCES).await, 0);
    // So does an import over more contacts than the one-by-one recount takes.
    app.exec_in(&client,
        "insert into contacts (email) select 'big' || g || '@example.org' from generate_series(1, 20001) g",
    )
    .await;
    app.exec_in(
        &client,
        "insert into contributions (platform, line_item_id, paid_at, amount, contact_id)
         select 'actblue', 'B' || c.id, timestamptz '2030-07-01', 3, c.id from contacts c
         where c.email like 'big%'",
    )
    .await;
    assert_eq!(app.scalar_in(&client, GIVING_DIFFERENCES).await, 0);
    assert_eq!(
        app.scalar_in(
            &client,
            "select count(*) from contact_giving where gifts > 0"
        )
        .await,
        donors + 20001
    );
}
