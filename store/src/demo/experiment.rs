//! The demo's finished subject-line experiment: its mailing, and what is written directly in place of delivery
//! (the experiment's own steps are `crate::experiments`').

use sqlx::PgConnection;

/// When a part of the experiment went out, eight days ago: the test cells at 9:00, the winner after the
/// four-hour wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Send {
    Test,
    Winner,
}

impl Send {
    /// The SQL time of the send.
    fn at(self) -> &'static str {
        match self {
            Send::Test => "date_trunc('hour', now()) - interval '8 days' + interval '9 hours'",
            Send::Winner => {
                "date_trunc('hour', now()) - interval '8 days' + interval '13 hours 5 minutes'"
            }
        }
    }
}

/// Whether the client has an experiment named `name`: it is seeded once.
pub async fn exists(conn: &mut PgConnection, name: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from experiments where name = $1)")
        .bind(name)
        .fetch_one(conn)
        .await
}

/// The experiment's draft mailing `name` to the list named `list`, with `subject` as variant A's subject; its id,
/// or None when the client has no sender or no such list.
pub async fn insert_mailing(
    conn: &mut PgConnection,
    name: &str,
    subject: &str,
    list: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
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
    .bind(name)
    .bind(subject)
    .bind(list)
    .fetch_optional(conn)
    .await
}

/// Variant B of the mailing `mailing`, with its own subject.
pub async fn insert_variant_b(
    conn: &mut PgConnection,
    mailing: i64,
    subject: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into mailing_variants (mailing_id, letter, subject_line) values ($1, 'b', $2)",
    )
    .bind(mailing)
    .bind(subject)
    .execute(conn)
    .await?;
    Ok(())
}

/// Dates the experiment `id`'s start to the test send.
pub async fn date_start(conn: &mut PgConnection, id: i64) -> Result<(), sqlx::Error> {
    let test_at = Send::Test.at();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "update experiments set started_at = {test_at} where id = $1"
    )))
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Dates the experiment `id`'s decision, winner send and finish around the winner send.
pub async fn date_finish(conn: &mut PgConnection, id: i64) -> Result<(), sqlx::Error> {
    let winner_at = Send::Winner.at();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "update experiments set decided_at = {winner_at} - interval '5 minutes', winner_sent_at = {winner_at},
                finished_at = {winner_at} + interval '40 minutes'
         where id = $1"
    )))
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks the mailing's queued recipients delivered from `send`'s time on, as a send would, with opens and clicks
/// that favour B's subject, and gifts from half the clickers credited by the variant's refcode.
pub async fn deliver(conn: &mut PgConnection, mailing: i64, send: Send) -> Result<(), sqlx::Error> {
    let at = send.at();
    let (state, zip) = super::giving::state_and_zip("c.id");
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
            .execute(&mut *conn)
            .await?;
        // The recipients and the events just written are what the next steps join.
        if step == 1 || step == 2 {
            super::analyze(conn, "mailing_recipients, mailing_events").await?;
        }
    }
    Ok(())
}
