//! The demo client's e-mail programme: the client's own segments, flights with variants sent to segments with
//! their opens, clicks, unsubscribes and gifts, a planned month and a few sends made elsewhere.

use sqlx::PgConnection;

/// Whether the client has a mailing named `name`: the programme is seeded once.
pub async fn mailing_exists(conn: &mut PgConnection, name: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from mailings where name = $1)")
        .bind(name)
        .fetch_one(conn)
        .await
}

/// A segment of the client's own, `rule` its JSON; one of that name already there stays as it is.
pub async fn insert_segment(
    conn: &mut PgConnection,
    name: &str,
    rule: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("insert into segments (name, rule) values ($1, $2::jsonb) on conflict do nothing")
        .bind(name)
        .bind(rule)
        .execute(conn)
        .await?;
    Ok(())
}

/// A mailing sent `days_ago` days ago at 10:00 to the segment named `segment`, with `subject` as variant A's
/// subject; its id.
pub async fn insert_flight(
    conn: &mut PgConnection,
    name: &str,
    subject: &str,
    segment: &str,
    days_ago: i32,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "insert into mailings (name, subject_line, preview_text, sender_id, send_time, segment_id, body_html,
                               is_draft, send_attempt, delivery, variant_seed)
         select $1, $2, 'A note from the campaign', s.id, t.at, g.id,
                '<p>Hi {{First.Name}},</p><p>' || $2 || '</p><p><a href=\"https://example.org/donate\">Give now</a></p>',
                false, t.at, 'done', 20261124
         from senders s, segments g,
              (select date_trunc('hour', now()) - make_interval(days => $4) + interval '10 hours' as at) t
         where g.name = $3
         order by s.id limit 1
         returning id",
    )
    .bind(name)
    .bind(subject)
    .bind(segment)
    .bind(days_ago)
    .fetch_one(conn)
    .await
}

/// Variant `letter` of the mailing `mailing_id`, with its own subject.
pub async fn insert_variant(
    conn: &mut PgConnection,
    mailing_id: i64,
    letter: &str,
    subject: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into mailing_variants (mailing_id, letter, subject_line) values ($1, $2, $3)",
    )
    .bind(mailing_id)
    .bind(letter)
    .bind(subject)
    .execute(conn)
    .await?;
    Ok(())
}

/// The flight `id` "sent" to its segment: recipients split by the product's own function, then events whose rates
/// differ by variant, and gifts from some clickers credited to the mailing by refcode.
pub async fn deliver_flight(conn: &mut PgConnection, id: i64) -> Result<(), sqlx::Error> {
    let (state, zip) = super::giving::state_and_zip("c.id");
    let statements: [&str; 5] = [
        // One recipient in 60 bounces; the rest are delivered over the first ten minutes.
        "insert into mailing_recipients (mailing_id, contact_id, email, first_name, status, sent_at, variant,
                                         segment_id)
         select m.id, c.id, c.email, c.first_name,
                case when (c.id * 7) % 60 = 0 then 'bounced' else 'sent' end,
                m.send_attempt + (c.id % 600) * interval '1 second', a.variant, m.segment_id
         from mailings m cross join lateral mailing_audience_split(m.id) a join contacts c on c.id = a.contact_id
         where m.id = $1",
        // Variant B (and C) open and click a little better than A; one open in eight is a privacy proxy's.
        "insert into mailing_events (mailing_id, contact_id, kind, machine, url, created)
         select r.mailing_id, r.contact_id, 'open', (r.contact_id * 13) % 8 = 0, null,
                r.sent_at + make_interval(mins => (r.contact_id % 1440)::int)
         from mailing_recipients r
         where r.mailing_id = $1 and r.status = 'sent'
           and (r.contact_id * 31) % 100 < 24 + 5 * (ascii(r.variant) - 97)
         union all
         select r.mailing_id, r.contact_id, 'click', false, 'https://example.org/donate',
                r.sent_at + make_interval(mins => 30 + (r.contact_id % 1440)::int)
         from mailing_recipients r
         where r.mailing_id = $1 and r.status = 'sent'
           and (r.contact_id * 31) % 100 < 3 + 2 * (ascii(r.variant) - 97)
         union all
         select r.mailing_id, r.contact_id, 'unsubscribe', false, null, r.sent_at + interval '1 day'
         from mailing_recipients r
         where r.mailing_id = $1 and r.status = 'sent' and (r.contact_id * 17) % 400 = 0",
        "update contacts c set subscription = 'unsubscribed' from mailing_events e
         where e.mailing_id = $1 and e.kind = 'unsubscribe' and e.contact_id = c.id",
        // Each variant's refcode, as the send writes it into the donation links.
        "insert into source_codes (code, parsed, channel, code_date, campaign, variant, mailing_id)
         select 'em_' || to_char(m.send_attempt, 'YYYYMMDD') || '_' || m.id || '_' || v.letter, true, 'em',
                m.send_attempt::date, m.id::text, v.letter, m.id
         from mailings m,
              (select 'a' as letter union all select letter from mailing_variants where mailing_id = $1) v
         where m.id = $1
         on conflict (code) do nothing",
        // Half of the clickers give within two days, on the amounts of the ask ladder.
        &format!("insert into contributions (platform, line_item_id, receipt_id, paid_at, amount, fee, contact_id, email,
                                    first_name, last_name, state, zip, refcode, source_code_id, fundraising_page,
                                    mailing_id, attribution)
         select 'actblue', 'demo-flight-' || r.mailing_id || '-' || r.contact_id, 'FL' || r.mailing_id || r.contact_id,
                least(e.created + make_interval(mins => (r.contact_id % 2880)::int), now()),
                a.amount, round(a.amount * 0.0395, 2), c.id, c.email, c.first_name, c.last_name, {state}, {zip},
                sc.code, sc.id, 'main-donate', r.mailing_id, 'refcode'
         from mailing_recipients r
         join mailing_events e on e.mailing_id = r.mailing_id and e.contact_id = r.contact_id and e.kind = 'click'
         join contacts c on c.id = r.contact_id
         join source_codes sc on sc.mailing_id = r.mailing_id and sc.variant = r.variant
         cross join lateral (select (array[10, 25, 25, 50, 100, 250])[1 + (r.contact_id % 6)::int]::numeric
                             as amount) a
         where r.mailing_id = $1 and r.contact_id % 2 = 0"),
    ];
    for (step, statement) in statements.into_iter().enumerate() {
        sqlx::query(sqlx::AssertSqlSafe(statement.to_owned()))
            .bind(id)
            .execute(&mut *conn)
            .await?;
        // The recipients and the events just written are what the next steps join.
        if step < 2 {
            super::analyze(conn, "mailing_recipients, mailing_events").await?;
        }
    }
    Ok(())
}

/// This month on the planning calendar: a revenue goal and six planned sends, two of them to the client's own
/// segments, around the month-end deadline.
pub async fn plan_month(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into planning_months (month, revenue_goal)
         values (date_trunc('month', client_today())::date, 25000)
         on conflict (month) do nothing",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "with month as (select date_trunc('month', client_today())::date as first,
                               (date_trunc('month', client_today()) + interval '1 month - 1 day')::date as last)
         insert into planned_sends (send_date, name, segment_id, revenue_goal)
         select least(p.day, m.last), p.name, s.id, p.goal
         from month m
         cross join lateral (values
             (m.first + 3, 'Monthly newsletter', null::text, 1500),
             (m.first + 8, 'Sustainer thank-you', 'Sustainers', 500),
             (m.first + 13, 'Mid-month match', 'Active donors (0–12 months)', 4000),
             (m.first + 19, 'High-dollar personal note', 'High-dollar donors (HPC $250+)', 6000),
             (m.last - 2, 'Month-end deadline: 72 hours', 'LYBUNT', 5000),
             (m.last, 'Month-end deadline: midnight', 'Actives 90 days', 8000))
             as p(day, name, segment, goal)
         left join segments s on s.name = p.segment",
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Two sends made elsewhere, as an import of another platform's report and of a lemlist export would store them.
pub async fn insert_external_mailings(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into external_mailings (source, name, sent_on, recipients, delivered, bounces, opens, clicks,
                                        unsubscribes, gifts, revenue)
         select x.source, x.name, client_today() - x.ago, x.recipients, x.delivered, x.bounces, x.opens, x.clicks,
                x.unsubscribes, x.gifts, x.revenue
         from (values ('esp', 'Rapid response (partner list)', 12, 48000, 47100, 900, 9800, 1210, 85, 140, 6125.00),
                      ('lemlist', 'Major donor outreach', 6, 320, 312, 8, 190, 41, 2, 6, 4750.00))
              as x(source, name, ago, recipients, delivered, bounces, opens, clicks, unsubscribes, gifts, revenue)
         on conflict do nothing",
    )
    .execute(conn)
    .await?;
    Ok(())
}
