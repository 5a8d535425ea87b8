//! The demo client's e-mail programme: the standard segments and two of the client's own, computed; three flights
//! with variants sent to segments, with opens, clicks, unsubscribes and gifts credited to them; a planned month on
//! the planning calendar; a few sends made elsewhere; and a finished subject-line experiment. Set-based, so it adds a second or two to the demo.

use crate::error::ApiError;
use tenancy::TenantTx;

/// The client's own segments: (name, rule).
const CUSTOM_SEGMENTS: [(&str, &str); 2] = [
    (
        "High-dollar donors (HPC $250+)",
        r#"{"op": "and", "conditions": [{"field": "hpc", "op": "gte", "value": "250"}]}"#,
    ),
    (
        "Engaged non-donors",
        r#"{"op": "and", "conditions": [{"field": "gave", "op": "never"},
                                        {"field": "opened", "op": "withinDays", "value": 90}]}"#,
    ),
];

/// Flights: (name, subject of A, segment, days ago, [(letter, subject)] of the other variants).
type Flight = (
    &'static str,
    &'static str,
    &'static str,
    i32,
    &'static [(&'static str, &'static str)],
);
const FLIGHTS: [Flight; 3] = [
    (
        "Match deadline appeal",
        "Your gift doubled until midnight",
        "Active donors (0–12 months)",
        9,
        &[("b", "Last chance: 2× match ends tonight")],
    ),
    (
        "Lapsed donor win-back",
        "We miss you",
        "Lapsed donors (13–24 months)",
        5,
        &[
            ("b", "It has been a while, friend"),
            ("c", "One year later: what you built"),
        ],
    ),
    (
        "First ask to engaged readers",
        "Will you make your first gift?",
        "Engaged non-donors",
        2,
        &[("b", "Join 4,000 first-time donors this month")],
    ),
];

/// Seeds the programme once (a demo client that has its flights keeps them; the experiment is seeded on its own).
pub async fn seed_programme(tx: &mut TenantTx) -> Result<(), ApiError> {
    let seeded: bool = sqlx::query_scalar("select exists (select 1 from mailings where name = $1)")
        .bind(FLIGHTS[0].0)
        .fetch_one(&mut **tx)
        .await?;
    if !seeded {
        compute_segments(tx).await?;
        for (name, subject, segment, days_ago, variants) in FLIGHTS {
            send_flight(tx, name, subject, segment, days_ago, variants).await?;
        }
        plan_month(tx).await?;
        external_sends(tx).await?;
    }
    // Seeded on its own, so a demo client made before experiments existed gets one too.
    let started = std::time::Instant::now();
    super::experiment::finished_experiment(tx).await?;
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis(),
        "demo experiment seeded"
    );
    Ok(())
}

/// RFM scores, then every segment (standard ones first), as the "Update Segment" job computes them.
async fn compute_segments(tx: &mut TenantTx) -> Result<(), ApiError> {
    for (name, rule) in CUSTOM_SEGMENTS {
        sqlx::query(
            "insert into segments (name, rule) values ($1, $2::jsonb) on conflict do nothing",
        )
        .bind(name)
        .bind(rule)
        .execute(&mut **tx)
        .await?;
    }
    store::segments::rfm::recompute(tx).await?;
    for id in store::segments::all_ids(tx).await? {
        store::segments::compute(tx, id)
            .await
            .map_err(ApiError::internal)?;
    }
    Ok(())
}

/// A sent mailing to a segment with its variants: recipients split by the product's own function, then events
/// whose rates differ by variant, and gifts from some clickers credited to the mailing by refcode.
async fn send_flight(
    tx: &mut TenantTx,
    name: &str,
    subject: &str,
    segment: &str,
    days_ago: i32,
    variants: &[(&str, &str)],
) -> Result<(), ApiError> {
    let id: i64 = sqlx::query_scalar(
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
    .fetch_one(&mut **tx)
    .await?;
    for (letter, variant_subject) in variants {
        sqlx::query(
            "insert into mailing_variants (mailing_id, letter, subject_line) values ($1, $2, $3)",
        )
        .bind(id)
        .bind(letter)
        .bind(variant_subject)
        .execute(&mut **tx)
        .await?;
    }
    let (state, zip) = super::state_and_zip("c.id");
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
            .execute(&mut **tx)
            .await?;
        // The recipients and the events just written are what the next steps join.
        if step < 2 {
            super::analyze(tx, "mailing_recipients, mailing_events").await?;
        }
    }
    Ok(())
}

/// This month on the planning calendar: a revenue goal and six planned sends, two of them to the client's own
/// segments, around the month-end deadline.
async fn plan_month(tx: &mut TenantTx) -> Result<(), ApiError> {
    sqlx::query(
        "insert into planning_months (month, revenue_goal)
         values (date_trunc('month', client_today())::date, 25000)
         on conflict (month) do nothing",
    )
    .execute(&mut **tx)
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
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Two sends made elsewhere, as an import of another platform's report and of a lemlist export would store them.
async fn external_sends(tx: &mut TenantTx) -> Result<(), ApiError> {
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
    .execute(&mut **tx)
    .await?;
    Ok(())
}
