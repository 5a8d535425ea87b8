//! The demo's finished subject-line experiment (part of the e-mail programme `super::programme` seeds): drawn,
//! "sent", judged and its winner "sent" through the product's own steps; only delivery is written directly.

use crate::error::ApiError;
use tenancy::TenantTx;

/// The demo's experiment: its mailing, the audience it goes to and the two subjects it tests.
const EXPERIMENT: &str = "Quarter-end subject line test";
const EXPERIMENT_MAILING: &str = "Quarter-end deadline";
const EXPERIMENT_LIST: &str = "Web and search sign-ups";
const EXPERIMENT_SUBJECTS: [&str; 2] = [
    "Our quarter-end deadline is tonight",
    "6 hours left to hit our quarter-end goal",
];

/// A finished subject-line experiment, run through the product's own steps: the test cells drawn and "sent"
/// eight days ago, their opens and clicks, the decision the worker computes after the four-hour wait, and the
/// winner "sent" to the rest of the list with its own figures. Only the delivery itself is written directly.
pub(super) async fn finished_experiment(tx: &mut TenantTx) -> Result<(), ApiError> {
    use store::experiments as x;
    let seeded: bool =
        sqlx::query_scalar("select exists (select 1 from experiments where name = $1)")
            .bind(EXPERIMENT)
            .fetch_one(&mut **tx)
            .await?;
    if seeded {
        return Ok(());
    }
    let mailing: Option<i64> = sqlx::query_scalar(
        "insert into mailings (name, subject_line, preview_text, sender_id, send_time, list_id, body_html, is_draft,
                               variant_seed)
         select $1, $2, 'Every gift before midnight counts toward the goal', s.id, now(), l.id,
                '<p>Hi {{First.Name}},</p><p>We are $4,200 short of our quarter-end goal.</p>
                 <p><a href=\"https://example.org/donate\">Chip in before midnight</a></p>',
                true, 20261125
         from senders s, crm_lists l where l.name = $3
         order by s.id limit 1
         returning id",
    )
    .bind(EXPERIMENT_MAILING)
    .bind(EXPERIMENT_SUBJECTS[0])
    .bind(EXPERIMENT_LIST)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(mailing) = mailing else {
        return Ok(());
    };
    sqlx::query(
        "insert into mailing_variants (mailing_id, letter, subject_line) values ($1, 'b', $2)",
    )
    .bind(mailing)
    .bind(EXPERIMENT_SUBJECTS[1])
    .execute(&mut **tx)
    .await?;
    let id = x::create(
        tx,
        &x::NewExperiment {
            name: EXPERIMENT.to_owned(),
            kind: "subject".to_owned(),
            mailing_id: mailing,
            test_fraction: 0.2,
            metric: "open_rate".to_owned(),
            wait_hours: 4,
            auto_send: true,
            baseline_rate: 0.22,
            expected_lift: 0.2,
            alpha: 0.05,
            power: 0.8,
        },
    )
    .await
    .map_err(experiment_error)?;
    x::start(tx, id).await.map_err(experiment_error)?;
    let test_at = "date_trunc('hour', now()) - interval '8 days' + interval '9 hours'";
    deliver(tx, mailing, test_at).await?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "update experiments set started_at = {test_at} where id = $1"
    )))
    .bind(id)
    .execute(&mut **tx)
    .await?;
    x::advance(tx).await?;
    // The wait is over (the test went out eight days ago): judged as the worker's pass judges it.
    let mut send_now = false;
    while let Some((judged, now)) = x::decide_next(tx).await? {
        if judged == id {
            send_now = now;
            break;
        }
    }
    // Without a winner (not expected with these figures) a person would have chosen; A is the control.
    let chosen = if send_now { None } else { Some("a") };
    x::begin_winner_send(tx, id, chosen)
        .await
        .map_err(experiment_error)?;
    let winner_at = "date_trunc('hour', now()) - interval '8 days' + interval '13 hours 5 minutes'";
    deliver(tx, mailing, winner_at).await?;
    x::advance(tx).await?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "update experiments set decided_at = {winner_at} - interval '5 minutes', winner_sent_at = {winner_at},
                finished_at = {winner_at} + interval '40 minutes'
         where id = $1"
    )))
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn experiment_error(e: store::experiments::ExperimentError) -> ApiError {
    match e {
        store::experiments::ExperimentError::Db(e) => e.into(),
        other => ApiError::internal(other),
    }
}

/// Marks the mailing's queued recipients delivered from `at` (an SQL time) on, as a send would, with opens and
/// clicks that favour B's subject, and gifts from half the clickers credited by the variant's refcode.
async fn deliver(tx: &mut TenantTx, mailing: i64, at: &str) -> Result<(), ApiError> {
    let (state, zip) = super::state_and_zip("c.id");
    let statements = [
        format!(
            "update mailings set send_time = least(send_time, {at}), send_attempt = least(send_attempt, {at}),
                    delivery = 'done'
             where id = $1"
        ),
        format!(
            "update mailing_recipients
             set status = case when (contact_id * 7) % 60 = 0 then 'bounced' else 'sent' end,
                 sent_at = {at} + (contact_id % 300) * interval '1 second'
             where mailing_id = $1 and status = 'queued'"
        ),
        // B's subject (with the first name and the deadline) opens at about 33 %, A's at about 21 %.
        format!(
            "insert into mailing_events (mailing_id, contact_id, kind, machine, url, created)
             select r.mailing_id, r.contact_id, 'open', (r.contact_id * 13) % 8 = 0, null,
                    r.sent_at + make_interval(mins => (r.contact_id % 180)::int)
             from mailing_recipients r
             where r.mailing_id = $1 and r.status = 'sent' and r.sent_at >= {at}
               and (r.contact_id * 31) % 100 < case r.variant when 'b' then 33 else 21 end
             union all
             select r.mailing_id, r.contact_id, 'click', false, 'https://example.org/donate',
                    r.sent_at + make_interval(mins => 20 + (r.contact_id % 180)::int)
             from mailing_recipients r
             where r.mailing_id = $1 and r.status = 'sent' and r.sent_at >= {at}
               and (r.contact_id * 31) % 100 < case r.variant when 'b' then 5 else 3 end"
        ),
        "insert into source_codes (code, parsed, channel, code_date, campaign, variant, mailing_id)
         select 'em_' || to_char(m.send_attempt, 'YYYYMMDD') || '_' || m.id || '_' || v.letter, true, 'em',
                m.send_attempt::date, m.id::text, v.letter, m.id
         from mailings m, (values ('a'), ('b')) v(letter)
         where m.id = $1
         on conflict (code) do nothing"
            .to_owned(),
        format!(
            "insert into contributions (platform, line_item_id, receipt_id, paid_at, amount, fee, contact_id, email,
                                        first_name, last_name, state, zip, refcode, source_code_id,
                                        fundraising_page, mailing_id, attribution)
             select 'actblue', 'demo-experiment-' || r.mailing_id || '-' || r.contact_id,
                    'XP' || r.mailing_id || r.contact_id, e.created + make_interval(mins => (r.contact_id % 90)::int),
                    a.amount, round(a.amount * 0.0395, 2), c.id, c.email, c.first_name, c.last_name, {state}, {zip},
                    sc.code, sc.id, 'main-donate', r.mailing_id, 'refcode'
             from mailing_recipients r
             join mailing_events e on e.mailing_id = r.mailing_id and e.contact_id = r.contact_id and e.kind = 'click'
             join contacts c on c.id = r.contact_id
             join source_codes sc on sc.mailing_id = r.mailing_id and sc.variant = r.variant
             cross join lateral (select (array[15, 25, 35, 50, 100])[1 + (r.contact_id % 5)::int]::numeric
                                 as amount) a
             where r.mailing_id = $1 and r.sent_at >= {at} and r.contact_id % 2 = 0"
        ),
    ];
    for (step, statement) in statements.into_iter().enumerate() {
        sqlx::query(sqlx::AssertSqlSafe(statement))
            .bind(mailing)
            .execute(&mut **tx)
            .await?;
        // The recipients and the events just written are what the next steps join.
        if step == 1 || step == 2 {
            super::analyze(tx, "mailing_recipients, mailing_events").await?;
        }
    }
    Ok(())
}
