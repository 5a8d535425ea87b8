//! Writing a batch's plans back: step records, recipients of the steps' mailings of the day, list and origin code
//! changes, and the places themselves, one statement each.

use super::advance::{local_day, Advanced};
use super::plan::{Plan, Row, Times};
use domain::journey::{Action, Definition, SendVariant};
use sqlx::PgConnection;
use std::collections::{HashMap, HashSet};

pub(super) async fn write(
    conn: &mut PgConnection,
    times: &Times,
    defs: &HashMap<(i64, i32), Definition>,
    plans: &[(&Row, Plan)],
) -> Result<Advanced, sqlx::Error> {
    let day = local_day(&mut *conn, times.now).await?;
    // The mailing of each send step that mails today.
    let mut mailing_of: HashMap<(i64, i32, String), i64> = HashMap::new();
    for (row, plan) in plans {
        for r in plan.records.iter().filter(|r| r.outcome == "sent") {
            let key = (row.journey_id, row.version, r.step_id.clone());
            if mailing_of.contains_key(&key) {
                continue;
            }
            let Some(Action::Send {
                template_id,
                subject,
                body_html,
                variants,
                ..
            }) = defs
                .get(&(row.journey_id, row.version))
                .and_then(|d| d.step(&r.step_id))
                .map(|s| &s.action)
            else {
                continue;
            };
            let mail = StepMail {
                template_id: *template_id,
                subject,
                body_html: body_html.as_deref(),
                variants,
            };
            let id = step_mailing(conn, &key, day, times, &mail).await?;
            mailing_of.insert(key, id);
        }
    }
    // A contact gets one copy of a step's mailing of the day: a second send of it that day is skipped. The
    // recipient rows go in first, and the rows the insert returns are the copies this batch sends; a contact who
    // already had the day's copy is left out by the insert's own key check (a look-up before it probed the same
    // key a second time, about 30 ms a batch of 1,000 while a send updates the same mailing's rows).
    let mut wanted: Vec<(i64, i64)> = Vec::new();
    let mut seen: HashSet<(i64, i64)> = HashSet::new();
    for (row, plan) in plans {
        for r in plan.records.iter().filter(|r| r.outcome == "sent") {
            if let Some(&m) = mailing_of.get(&(row.journey_id, row.version, r.step_id.clone())) {
                if seen.insert((m, row.contact_id)) {
                    wanted.push((m, row.contact_id));
                }
            }
        }
    }
    let queued = queue_recipients(conn, &wanted).await?;

    let mut rec = Records::default();
    let mut taken: HashSet<(i64, i64)> = HashSet::new();
    let mut adds: Vec<(i64, i64)> = Vec::new();
    let mut removes: Vec<(i64, i64)> = Vec::new();
    let mut codes: Vec<(i64, String)> = Vec::new();
    let mut out = Advanced {
        places: plans.len(),
        ..Advanced::default()
    };
    for (row, plan) in plans {
        for r in &plan.records {
            let mut outcome = r.outcome;
            let mut mailing = None;
            if outcome == "sent" {
                match mailing_of.get(&(row.journey_id, row.version, r.step_id.clone())) {
                    Some(&m)
                        if queued.contains(&(m, row.contact_id))
                            && taken.insert((m, row.contact_id)) =>
                    {
                        mailing = Some(m)
                    }
                    _ => outcome = "skipped",
                }
            }
            rec.push(row, r.seq, &r.step_id, outcome, mailing);
        }
        adds.extend(plan.list_adds.iter().map(|l| (*l, row.contact_id)));
        removes.extend(plan.list_removes.iter().map(|l| (*l, row.contact_id)));
        if let Some(code) = &plan.origin_code {
            codes.push((row.contact_id, code.clone()));
        }
    }
    out.steps = rec.jc.len();
    rec.insert(conn, times).await?;
    out.mailed = queued.len();
    let mut mailed: Vec<i64> = queued.iter().map(|(m, _)| *m).collect();
    mailed.sort_unstable();
    mailed.dedup();
    out.mailings = mailed;
    lists(conn, &adds, &removes).await?;
    origin_codes(conn, &codes).await?;
    places(conn, times, plans).await?;
    Ok(out)
}

/// Queues the (mailing, contact) copies that are not queued yet; answers those it queued. Each recipient's variant
/// is drawn from a hash of the mailing's seed and the contact, so a step's recipients, who arrive a few at a time,
/// are dealt to its variants evenly (within chance).
async fn queue_recipients(
    conn: &mut PgConnection,
    wanted: &[(i64, i64)],
) -> Result<HashSet<(i64, i64)>, sqlx::Error> {
    if wanted.is_empty() {
        return Ok(HashSet::new());
    }
    let (mailings, contacts): (Vec<i64>, Vec<i64>) = wanted.iter().copied().unzip();
    let queued: Vec<(i64, i64)> = sqlx::query_as(
        "with v as (
             select m.id, m.variant_seed,
                    array(select 'a' union all
                          select x.letter from mailing_variants x where x.mailing_id = m.id order by 1) as letters
             from mailings m where m.id = any($1::bigint[])
         )
         insert into mailing_recipients (mailing_id, contact_id, email, first_name, variant)
         select q.m, c.id, c.email, c.first_name,
                v.letters[1 + ((hashtextextended(c.id::text, v.variant_seed) % cardinality(v.letters)
                                + cardinality(v.letters)) % cardinality(v.letters))::int]
         from unnest($1::bigint[], $2::bigint[]) q (m, c)
         join contacts c on c.id = q.c
         join v on v.id = q.m
         on conflict do nothing
         returning mailing_id, contact_id",
    )
    .bind(&mailings)
    .bind(&contacts)
    .fetch_all(&mut *conn)
    .await?;
    Ok(queued.into_iter().collect())
}

/// The step records of a batch, as columns.
#[derive(Default)]
struct Records {
    jc: Vec<i64>,
    seq: Vec<i32>,
    journey: Vec<i64>,
    version: Vec<i32>,
    step: Vec<String>,
    contact: Vec<i64>,
    outcome: Vec<String>,
    mailing: Vec<Option<i64>>,
}

impl Records {
    fn push(&mut self, row: &Row, seq: i32, step: &str, outcome: &str, mailing: Option<i64>) {
        self.jc.push(row.id);
        self.seq.push(seq);
        self.journey.push(row.journey_id);
        self.version.push(row.version);
        self.step.push(step.to_owned());
        self.contact.push(row.contact_id);
        self.outcome.push(outcome.to_owned());
        self.mailing.push(mailing);
    }

    async fn insert(&self, conn: &mut PgConnection, times: &Times) -> Result<(), sqlx::Error> {
        if self.jc.is_empty() {
            return Ok(());
        }
        sqlx::query(
            "insert into journey_step_sends
                 (journey_contact_id, seq, journey_id, version, step_id, contact_id, outcome, mailing_id, at)
             select *, $9 from unnest($1::bigint[], $2::integer[], $3::bigint[], $4::integer[], $5::text[],
                                      $6::bigint[], $7::text[], $8::bigint[])",
        )
        .bind(&self.jc)
        .bind(&self.seq)
        .bind(&self.journey)
        .bind(&self.version)
        .bind(&self.step)
        .bind(&self.contact)
        .bind(&self.outcome)
        .bind(&self.mailing)
        .bind(times.now)
        .execute(conn)
        .await?;
        Ok(())
    }
}

/// What a send step mails: its template's body or its own, its subject and its variants B, C …
struct StepMail<'a> {
    template_id: Option<i64>,
    subject: &'a str,
    body_html: Option<&'a str>,
    variants: &'a [SendVariant],
}

/// The send step's mailing of `day`, made on its first e-mail: the step's own body or its template's, the
/// step's subject, its variants, the client's first sender. Its send attempt is stamped at once, so the mailing
/// scheduler never takes it up. A variant keeps the step's body or subject where it has none of its own.
async fn step_mailing(
    conn: &mut PgConnection,
    key: &(i64, i32, String),
    day: chrono::NaiveDate,
    times: &Times,
    mail: &StepMail<'_>,
) -> Result<i64, sqlx::Error> {
    let (journey_id, version, step_id) = key;
    let find = async |conn: &mut PgConnection| -> Result<Option<i64>, sqlx::Error> {
        sqlx::query_scalar(
            "select mailing_id from journey_step_mailings
             where journey_id = $1 and version = $2 and step_id = $3 and day = $4",
        )
        .bind(journey_id)
        .bind(version)
        .bind(step_id)
        .bind(day)
        .fetch_optional(conn)
        .await
    };
    // The day's mailing, once made, never changes: a batch that finds it needs no lock. Taken for every batch, the
    // lock below held each batch of a journey until the one before it committed (half the engine's time waiting).
    if let Some(id) = find(&mut *conn).await? {
        return Ok(id);
    }
    // Two workers making the same step's mailing wait for each other here instead of making two; the second
    // finds the first one's once it has committed.
    sqlx::query("select pg_advisory_xact_lock(hashtext('journey_step_mailing'), $1::integer)")
        .bind(i32::try_from(*journey_id % i64::from(i32::MAX)).unwrap_or(0))
        .execute(&mut *conn)
        .await?;
    if let Some(id) = find(&mut *conn).await? {
        return Ok(id);
    }
    let letters: Vec<String> = ('b'..)
        .take(mail.variants.len())
        .map(String::from)
        .collect();
    let v_subjects: Vec<Option<&str>> =
        mail.variants.iter().map(|v| v.subject.as_deref()).collect();
    let v_bodies: Vec<Option<&str>> = mail
        .variants
        .iter()
        .map(|v| v.body_html.as_deref())
        .collect();
    sqlx::query_scalar(
        "with m as (
             insert into mailings (name, subject_line, sender_id, send_time, body_html, is_draft, send_attempt,
                                   journey_id)
             select j.name || ' · ' || $3 || ' · ' || $4::text, $5, (select id from senders order by id limit 1),
                    $6, coalesce($8, (select body_html from mailing_templates where id = $7), ''), false, $6, j.id
             from journeys j where j.id = $1
             returning id
         ),
         v as (
             insert into mailing_variants (mailing_id, letter, subject_line, body_html)
             select m.id, x.letter, x.subject, x.body from m, unnest($9::text[], $10::text[], $11::text[])
                 x (letter, subject, body)
         )
         insert into journey_step_mailings (journey_id, version, step_id, day, mailing_id)
         select $1, $2, $3, $4, id from m returning mailing_id",
    )
    .bind(journey_id)
    .bind(version)
    .bind(step_id)
    .bind(day)
    .bind(mail.subject)
    .bind(times.now)
    .bind(mail.template_id)
    .bind(mail.body_html)
    .bind(&letters)
    .bind(&v_subjects)
    .bind(&v_bodies)
    .fetch_one(conn)
    .await
}

/// List steps change upload lists only (a query list's members follow their origin codes); an add is also an
/// event, so a journey triggered by that list follows.
async fn lists(
    conn: &mut PgConnection,
    adds: &[(i64, i64)],
    removes: &[(i64, i64)],
) -> Result<(), sqlx::Error> {
    if !adds.is_empty() {
        let (l, c): (Vec<i64>, Vec<i64>) = adds.iter().copied().unzip();
        sqlx::query(
            "with added as (
                 insert into crm_list_members (list_id, contact_id)
                 select q.l, q.c from unnest($1::bigint[], $2::bigint[]) q (l, c)
                 join crm_lists k on k.id = q.l and k.kind = 'upload'
                 on conflict do nothing
                 returning list_id, contact_id)
             insert into journey_events (kind, contact_id, ref_id)
             select 'list_added', contact_id, list_id from added",
        )
        .bind(&l)
        .bind(&c)
        .execute(&mut *conn)
        .await?;
    }
    if !removes.is_empty() {
        let (l, c): (Vec<i64>, Vec<i64>) = removes.iter().copied().unzip();
        sqlx::query(
            "delete from crm_list_members m using unnest($1::bigint[], $2::bigint[]) q (l, c)
             where m.list_id = q.l and m.contact_id = q.c",
        )
        .bind(&l)
        .bind(&c)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

async fn origin_codes(conn: &mut PgConnection, codes: &[(i64, String)]) -> Result<(), sqlx::Error> {
    if codes.is_empty() {
        return Ok(());
    }
    let (contacts, names): (Vec<i64>, Vec<String>) = codes.iter().cloned().unzip();
    sqlx::query(
        "insert into origin_codes (name) select distinct n from unnest($1::text[]) n on conflict (name) do nothing",
    )
    .bind(&names)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "update contacts c set origin_code_id = o.id
         from unnest($1::bigint[], $2::text[]) q (c, n) join origin_codes o on o.name = q.n
         where c.id = q.c",
    )
    .bind(&contacts)
    .bind(&names)
    .execute(conn)
    .await?;
    Ok(())
}

async fn places(
    conn: &mut PgConnection,
    times: &Times,
    plans: &[(&Row, Plan)],
) -> Result<(), sqlx::Error> {
    let ids: Vec<i64> = plans.iter().map(|(r, _)| r.id).collect();
    let steps: Vec<&str> = plans.iter().map(|(_, p)| p.step_id.as_str()).collect();
    let states: Vec<&str> = plans.iter().map(|(_, p)| p.state).collect();
    let due: Vec<Option<chrono::DateTime<chrono::Utc>>> =
        plans.iter().map(|(_, p)| p.due_at).collect();
    let waits: Vec<bool> = plans.iter().map(|(_, p)| p.in_wait).collect();
    let seqs: Vec<i32> = plans.iter().map(|(_, p)| p.seq).collect();
    let reasons: Vec<Option<&str>> = plans
        .iter()
        .map(|(_, p)| p.exit_reason.as_deref())
        .collect();
    sqlx::query(
        "update journey_contacts jc
         set step_id = q.step, state = q.state, in_wait = q.wait, seq = q.seq, exit_reason = q.reason,
             due_at = case when q.state = 'waiting' then q.due end,
             left_at = case when q.state <> 'waiting' then $8 end
         from unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[], $5::boolean[], $6::integer[],
                     $7::text[]) q (id, step, state, due, wait, seq, reason)
         where jc.id = q.id",
    )
    .bind(&ids)
    .bind(&steps)
    .bind(&states)
    .bind(&due)
    .bind(&waits)
    .bind(&seqs)
    .bind(&reasons)
    .bind(times.now)
    .execute(conn)
    .await?;
    Ok(())
}
