//! The demo client's journeys: a welcome series (signup → welcome → wait 2 days → first ask → gave? → thank-you :
//! second ask) and a recurring-failure rescue, both active, with eight weeks of history written as the engine
//! writes it (places, step records, each send step's mailing with its recipients, opens, clicks and gifts), so
//! the pages show figures on first start.

use serde_json::json;
use sqlx::PgConnection;

pub async fn journeys_count(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(*) from journeys")
        .fetch_one(conn)
        .await
}

async fn template(conn: &mut PgConnection, name: &str, body: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "insert into mailing_templates (name, body_html) values ($1, $2) returning id",
    )
    .bind(name)
    .bind(body)
    .fetch_one(conn)
    .await
}

async fn journey(
    conn: &mut PgConnection,
    name: &str,
    definition: &serde_json::Value,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "with j as (insert into journeys (name, status, ever_active, created) values ($1, 'active', true,
                    now() - interval '57 days') returning id),
              v as (insert into journey_versions (journey_id, version, definition, created_at)
                    select id, 1, $2, now() - interval '57 days' from j)
         select id from j",
    )
    .bind(name)
    .bind(definition)
    .fetch_one(conn)
    .await
}

/// Both journeys and their history.
pub async fn insert_journeys(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    let body = |text: &str| {
        format!("<p>Hi {{{{First.Name}}}},</p><p>{text}</p><p><a href=\"https://example.org/donate\">Give now</a></p>")
    };
    let welcome = template(
        conn,
        "Journey: welcome",
        &body("Thank you for signing. Here is what we do next."),
    )
    .await?;
    let ask = template(
        conn,
        "Journey: first ask",
        &body("Will you chip in to keep this going?"),
    )
    .await?;
    let thanks = template(
        conn,
        "Journey: thank you",
        &body("Your gift makes this possible. Thank you."),
    )
    .await?;
    let rescue = template(
        conn,
        "Journey: rescue",
        &body("Your monthly gift did not go through. Can you update it?"),
    )
    .await?;
    let form: Option<i64> = sqlx::query_scalar("select id from forms order by id limit 1")
        .fetch_optional(&mut *conn)
        .await?;
    let triggers = match form {
        Some(form_id) => json!([{ "kind": "form_signup", "form_id": form_id }]),
        None => json!([{ "kind": "origin_code_signup", "origin_code": "petition-clean-water" }]),
    };
    let series = journey(
        conn,
        "Welcome series",
        &json!({
            "triggers": triggers, "reentry": { "kind": "never" }, "exit_on_gift": false, "start": "welcome",
            "steps": [
                { "id": "welcome", "kind": "send", "template_id": welcome, "subject": "Welcome, {{First.Name}}", "on_cap": "wait", "next": "pause", "x": 0, "y": 0 },
                { "id": "pause", "kind": "wait", "hours": 48, "next": "ask", "x": 0, "y": 120 },
                { "id": "ask", "kind": "send", "template_id": ask, "subject": "Will you chip in?", "on_cap": "skip", "next": "gave", "x": 0, "y": 240 },
                { "id": "gave", "kind": "branch", "condition": { "kind": "gave" }, "yes": "thanks", "no": "ask2", "x": 0, "y": 360 },
                { "id": "thanks", "kind": "send", "template_id": thanks, "subject": "Thank you", "on_cap": "wait", "next": null, "x": -150, "y": 480 },
                { "id": "ask2", "kind": "send", "template_id": ask, "subject": "Second ask", "on_cap": "wait", "next": null, "x": 150, "y": 480 }
            ]
        }),
    )
    .await?;
    let rescue_journey = journey(
        conn,
        "Recurring rescue",
        &json!({
            "triggers": [{ "kind": "recurring_failed" }], "reentry": { "kind": "after_days", "days": 90 },
            "exit_on_gift": true, "start": "rescue",
            "steps": [
                { "id": "rescue", "kind": "send", "template_id": rescue, "subject": "Your monthly gift did not go through", "on_cap": "wait", "next": "later", "x": 0, "y": 0 },
                { "id": "later", "kind": "wait", "hours": 72, "next": "again", "x": 0, "y": 120 },
                { "id": "again", "kind": "send", "template_id": rescue, "subject": "One more try?", "on_cap": "wait", "next": null, "x": 0, "y": 240 }
            ]
        }),
    )
    .await?;
    // Who entered when: one subscribed contact in 40 for the series, one in 300 for the rescue, spread over the
    // last eight weeks; one in five gives (a gift credited to the first e-mail's mailing) a day after entering.
    history(
        conn,
        series,
        &Path {
            first: &["welcome"],
            wait: ("pause", 48),
            then: &["ask", "gave"],
            gave: "thanks",
            other: "ask2",
        },
        40,
    )
    .await?;
    history(
        conn,
        rescue_journey,
        &Path {
            first: &["rescue"],
            wait: ("later", 72),
            then: &[],
            gave: "",
            other: "again",
        },
        300,
    )
    .await?;
    // The history written above runs up to now, so the calendar has been read through today: its first scan is
    // tomorrow's, not a rescue of every seeded sustainer whose gap happens to end on the day of the seed.
    sqlx::query(
        "insert into journey_calendar (day)
         select (now() at time zone coalesce((select time_zone from app_settings limit 1), 'America/New_York'))::date
         on conflict (only_row) do update set day = excluded.day",
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The path the demo's contacts take: the `first` steps on entering, then the `wait` step (id, hours), then the
/// `then` steps and `gave` (when they gave) or `other`. With `gave` empty the journey ends on a gift: givers leave.
struct Path<'a> {
    first: &'a [&'a str],
    wait: (&'a str, i32),
    then: &'a [&'a str],
    gave: &'a str,
    other: &'a str,
}

async fn history(
    conn: &mut PgConnection,
    journey_id: i64,
    path: &Path<'_>,
    one_in: i64,
) -> Result<(), sqlx::Error> {
    let statements: [&str; 7] = [
        "create temp table demo_entered on commit drop as
         select c.id as contact_id, now() - make_interval(hours => ((c.id * 37) % (24 * 56))::integer) as entered_at,
                abs(hashint8(c.id)) % 5 = 0 as gave
         from contacts c where c.subscription = 'subscribed' and c.id % (select one_in from demo_path) = 0",
        // One mailing per send step, on the day the first contact got it.
        "with steps as (
             select s->>'id' as step_id, s->>'subject' as subject, (s->>'template_id')::bigint as template_id
             from journey_versions v, jsonb_array_elements(v.definition->'steps') s
             where v.journey_id = (select j from demo_path) and s->>'kind' = 'send'
         ), m as (
             insert into mailings (name, subject_line, sender_id, send_time, body_html, is_draft, send_attempt,
                                   delivery, journey_id)
             select j.name || ' · ' || s.step_id, s.subject, (select id from senders order by id limit 1),
                    now() - interval '56 days', t.body_html, false, now() - interval '56 days', 'done', j.id
             from steps s join journeys j on j.id = (select j from demo_path) join mailing_templates t on t.id = s.template_id
             returning id, name
         )
         insert into journey_step_mailings (journey_id, version, step_id, day, mailing_id)
         select (select j from demo_path), 1, split_part(m.name, ' · ', 2), (now() - interval '56 days')::date, m.id from m",
        // Places: inside the wait for those who entered less than the wait ago; givers of a journey that ends on a
        // gift left a day after entering; the rest finished.
        "insert into journey_contacts (journey_id, version, contact_id, step_id, state, due_at, entered_at, left_at,
                                       in_wait, seq, exit_reason)
         select (select j from demo_path), 1, e.contact_id, case p.state when 'finished' then (case when e.gave then (select gave from demo_path) else (select other from demo_path) end) else (select wait_step from demo_path) end,
                p.state, case when p.state = 'waiting' then e.entered_at + make_interval(hours => (select wait_hours from demo_path)) end, e.entered_at,
                case p.state when 'finished' then e.entered_at + make_interval(hours => (select wait_hours from demo_path))
                             when 'exited' then e.entered_at + interval '1 day 4 hours' end,
                p.state = 'waiting', 0, case when p.state = 'exited' then 'gave' end
         from demo_entered e
         cross join lateral (
             select case when e.gave and (select gave from demo_path) = '' and e.entered_at + interval '1 day 4 hours' <= now() then 'exited'
                         when e.entered_at > now() - make_interval(hours => (select wait_hours from demo_path)) then 'waiting'
                         else 'finished' end as state
         ) p",
        // The step records, in order.
        "insert into journey_step_sends (journey_contact_id, seq, journey_id, version, step_id, contact_id, outcome,
                                         mailing_id, at)
         select jc.id, row_number() over (partition by jc.id order by p.n), (select j from demo_path), 1, p.step_id, jc.contact_id,
                case when m.mailing_id is null then 'reached' else 'sent' end, m.mailing_id, jc.entered_at + p.after
         from journey_contacts jc
         cross join lateral (
             select n, step_id, interval '0' as after from unnest((select first from demo_path)) with ordinality f (step_id, n)
             union all
             select 50, (select wait_step from demo_path), interval '0'
             union all
             select 60 + n, step_id, make_interval(hours => (select wait_hours from demo_path)) from unnest((select then_steps from demo_path)) with ordinality f (step_id, n)
             where jc.state = 'finished'
             union all
             select 100, jc.step_id, make_interval(hours => (select wait_hours from demo_path)) where jc.state = 'finished'
         ) p
         left join journey_step_mailings m on m.journey_id = (select j from demo_path) and m.step_id = p.step_id
         where jc.journey_id = (select j from demo_path)",
        "update journey_contacts jc set seq = (select count(*) from journey_step_sends s where s.journey_contact_id = jc.id)
         where jc.journey_id = (select j from demo_path)",
        "insert into mailing_recipients (mailing_id, contact_id, email, first_name, status, sent_at, human_open,
                                         human_click)
         select s.mailing_id, s.contact_id, c.email, c.first_name, 'sent', s.at,
                abs(hashint8(c.id * 7919 + s.mailing_id)) % 100 < 38,
                abs(hashint8(c.id * 7919 + s.mailing_id)) % 100 < 7
         from journey_step_sends s join contacts c on c.id = s.contact_id
         where s.journey_id = (select j from demo_path) and s.mailing_id is not null
         on conflict do nothing",
        "insert into mailing_events (mailing_id, contact_id, kind, machine, url, created)
         select r.mailing_id, r.contact_id, 'open', false, null, r.sent_at + interval '2 hours'
         from mailing_recipients r join journey_step_mailings m on m.mailing_id = r.mailing_id
         where m.journey_id = (select j from demo_path) and r.human_open
         union all
         select r.mailing_id, r.contact_id, 'click', false, 'https://example.org/donate', r.sent_at + interval '3 hours'
         from mailing_recipients r join journey_step_mailings m on m.mailing_id = r.mailing_id
         where m.journey_id = (select j from demo_path) and r.human_click",
    ];
    let first: Vec<&str> = path.first.to_vec();
    let then: Vec<&str> = path.then.to_vec();
    // The path's values, read by the statements below (each would otherwise need its own binds).
    sqlx::query(
        "create temp table demo_path on commit drop as
         select $1::bigint as j, $2::bigint as one_in, $3::text[] as first, $4::text as gave, $5::text as other,
                $6::text as wait_step, $7::integer as wait_hours, $8::text[] as then_steps",
    )
    .bind(journey_id)
    .bind(one_in)
    .bind(&first)
    .bind(path.gave)
    .bind(path.other)
    .bind(path.wait.0)
    .bind(path.wait.1)
    .bind(&then)
    .execute(&mut *conn)
    .await?;
    for statement in statements {
        sqlx::query(sqlx::AssertSqlSafe(statement.to_owned()))
            .execute(&mut *conn)
            .await?;
    }
    // The givers' gifts, a day after entering, credited to the first e-mail's mailing.
    let (state, zip) = super::giving::state_and_zip("c.id");
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "insert into contributions (platform, line_item_id, receipt_id, paid_at, amount, fee, contact_id, email,
                                    first_name, last_name, state, zip, mailing_id, attribution)
         select 'actblue', 'demo-journey-' || $1 || '-' || e.contact_id, 'JR' || $1 || e.contact_id,
                e.entered_at + interval '1 day 4 hours', a.amount, round(a.amount * 0.0395, 2),
                c.id, c.email, c.first_name, c.last_name, {state}, {zip}, m.mailing_id, 'click'
         from demo_entered e join contacts c on c.id = e.contact_id
         join journey_step_mailings m on m.journey_id = $1 and m.step_id = $2
         cross join lateral (select (array[10, 25, 25, 50, 100])[1 + (c.id % 5)::int]::numeric as amount) a
         where e.gave and e.entered_at + interval '1 day 4 hours' <= now()"
    )))
    .bind(journey_id)
    .bind(path.first.last().copied().unwrap_or(""))
    .execute(&mut *conn)
    .await?;
    sqlx::query("drop table demo_entered, demo_path")
        .execute(conn)
        .await?;
    Ok(())
}
