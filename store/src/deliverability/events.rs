//! Storing delivery events and acting on them: a hard bounce or a complaint suppresses the address at once (a
//! complaint also unsubscribes the contact, a hard bounce marks it bounced), soft bounces suppress after the
//! client's limit within its window, an unsubscribe unsubscribes.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// Where an event was heard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// The receiving server's reply during the send.
    Smtp,
    /// A delivery status notification (RFC 3464) to the VERP address, or a bounce that names the address.
    Dsn,
    /// A feedback report (RFC 5965) to the VERP address.
    Arf,
    Ses,
    Sendgrid,
    Postmark,
    Mailgun,
    /// The RFC 8058 one-click POST.
    ListUnsubscribe,
    /// The unsubscribe link in the message.
    Link,
}

impl Source {
    /// The word `delivery_events.source` stores.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Smtp => "smtp",
            Source::Dsn => "dsn",
            Source::Arf => "arf",
            Source::Ses => "ses",
            Source::Sendgrid => "sendgrid",
            Source::Postmark => "postmark",
            Source::Mailgun => "mailgun",
            Source::ListUnsubscribe => "list_unsubscribe",
            Source::Link => "link",
        }
    }
}

/// What happened to the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Delivered,
    Deferred,
    /// Refused for good.
    HardBounce,
    /// Refused for now.
    SoftBounce,
    Complained,
    Unsubscribed,
}

impl Kind {
    /// The stored (kind, bounce_type) pair.
    fn columns(self) -> (&'static str, Option<&'static str>) {
        match self {
            Kind::Delivered => ("delivered", None),
            Kind::Deferred => ("deferred", None),
            Kind::HardBounce => ("bounced", Some("hard")),
            Kind::SoftBounce => ("bounced", Some("soft")),
            Kind::Complained => ("complained", None),
            Kind::Unsubscribed => ("unsubscribed", None),
        }
    }
}

/// One event as its source reported it. `mailing_id` and `contact_id` are what the source names (the VERP token,
/// the message's Message-ID); a missing contact is found by address, a missing variant from the mailing's
/// recipients.
#[derive(Debug, Clone)]
pub struct NewEvent {
    pub source: Source,
    /// The provider's event id, or another id that is the same each time the same event is delivered.
    pub source_event_id: Option<String>,
    pub kind: Kind,
    /// The enhanced status code, e.g. `5.1.1`.
    pub status_code: Option<String>,
    pub diagnostic: Option<String>,
    /// The recipient's address; empty when `contact_id` names the contact (the send's own events).
    pub email: String,
    pub mailing_id: Option<i64>,
    pub contact_id: Option<i64>,
    pub occurred_at: DateTime<Utc>,
    pub evidence_id: Option<i64>,
}

/// What storing a batch did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// Events stored (duplicates are not).
    pub stored: u64,
    /// Addresses suppressed by them.
    pub suppressed: u64,
}

/// Keeps the raw evidence (a message, a webhook body) before it is parsed; its id goes on the events it yields.
pub async fn store_evidence(
    conn: &mut PgConnection,
    source: Source,
    content_type: &str,
    body: &[u8],
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "insert into delivery_evidence (source, content_type, body) values ($1, $2, $3) returning id",
    )
    .bind(source.as_str())
    .bind(content_type)
    .bind(body)
    .fetch_one(conn)
    .await
}

/// Stores `events` (each once: one already stored under the same source and event id is skipped) and applies
/// the suppression rules to the new ones, in one set of statements whatever the batch's size.
pub async fn record(conn: &mut PgConnection, events: &[NewEvent]) -> Result<Recorded, sqlx::Error> {
    if events.is_empty() {
        return Ok(Recorded::default());
    }
    let n = events.len();
    let mut source = Vec::with_capacity(n);
    let mut source_event_id = Vec::with_capacity(n);
    let mut kind = Vec::with_capacity(n);
    let mut bounce_type = Vec::with_capacity(n);
    let mut status_code = Vec::with_capacity(n);
    let mut diagnostic = Vec::with_capacity(n);
    let mut email = Vec::with_capacity(n);
    let mut mailing_id = Vec::with_capacity(n);
    let mut contact_id = Vec::with_capacity(n);
    let mut occurred_at = Vec::with_capacity(n);
    let mut evidence_id = Vec::with_capacity(n);
    for e in events {
        let (k, b) = e.kind.columns();
        source.push(e.source.as_str());
        source_event_id.push(e.source_event_id.as_deref());
        kind.push(k);
        bounce_type.push(b);
        status_code.push(e.status_code.as_deref());
        diagnostic.push(e.diagnostic.as_deref().map(|d| truncate(d, 2000)));
        email.push(e.email.trim().to_lowercase());
        mailing_id.push(e.mailing_id);
        contact_id.push(e.contact_id);
        occurred_at.push(e.occurred_at);
        evidence_id.push(e.evidence_id);
    }
    // New events go to a temporary table so the rules below see exactly this batch's new rows.
    sqlx::query(
        "create temporary table if not exists new_delivery_events
             (id bigint, kind text, bounce_type text, email text, mailing_id bigint, contact_id bigint)
             on commit delete rows",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query("truncate new_delivery_events")
        .execute(&mut *conn)
        .await?;
    let stored = sqlx::query(
        "with input as (
             select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                                  $7::text[], $8::bigint[], $9::bigint[], $10::timestamptz[], $11::bigint[])
                 as i (source, source_event_id, kind, bounce_type, status_code, diagnostic, email, mailing_id,
                       contact_id, occurred_at, evidence_id)),
         -- A mailing or contact the source names but this client does not have is left out, not trusted.
         resolved as (
             select i.source, i.source_event_id, i.kind, i.bounce_type, i.status_code, i.diagnostic, i.email,
                    m.id as mailing_id,
                    coalesce(c.id, (select c2.id from contacts c2 where c2.email = i.email)) as contact_id,
                    i.occurred_at, i.evidence_id
             from (select i.source, i.source_event_id, i.kind, i.bounce_type, i.status_code, i.diagnostic,
                          coalesce(nullif(i.email, ''), c.email) as email, i.mailing_id, i.contact_id,
                          i.occurred_at, i.evidence_id
                   from input i left join contacts c on c.id = i.contact_id and i.email = '') i
             left join mailings m on m.id = i.mailing_id
             left join contacts c on c.id = i.contact_id and c.email = i.email
             where i.email is not null),
         inserted as (
             insert into delivery_events (source, source_event_id, kind, bounce_type, status_code, diagnostic,
                                          email, mailing_id, variant, contact_id, occurred_at, evidence_id)
             select r.source, r.source_event_id, r.kind, r.bounce_type, r.status_code, r.diagnostic, r.email,
                    r.mailing_id,
                    (select mr.variant from mailing_recipients mr
                     where mr.mailing_id = r.mailing_id and mr.contact_id = r.contact_id),
                    r.contact_id, r.occurred_at, r.evidence_id
             from resolved r
             on conflict (source, source_event_id) do nothing
             returning id, kind, bounce_type, email, mailing_id, contact_id)
         insert into new_delivery_events select id, kind, bounce_type, email, mailing_id, contact_id from inserted",
    )
    .bind(&source)
    .bind(&source_event_id)
    .bind(&kind)
    .bind(&bounce_type)
    .bind(&status_code)
    .bind(&diagnostic)
    .bind(&email)
    .bind(&mailing_id)
    .bind(&contact_id)
    .bind(&occurred_at)
    .bind(&evidence_id)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    let suppressed = apply_rules(conn).await?;
    Ok(Recorded { stored, suppressed })
}

fn truncate(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((at, _)) => &s[..at],
        None => s,
    }
}

/// The rules, over `new_delivery_events`: suppressions first (a hard bounce or a complaint at once, soft bounces
/// once the client's limit is reached within its window), then the contacts' subscription.
async fn apply_rules(conn: &mut PgConnection) -> Result<u64, sqlx::Error> {
    let suppressed = sqlx::query(
        "with candidates as (
             select distinct on (n.email) n.email, n.id,
                    case when n.kind = 'complained' then 'complaint' when n.bounce_type = 'hard' then 'hard_bounce'
                         else 'soft_bounces' end as reason
             from new_delivery_events n, app_settings s
             where n.kind = 'complained' or n.bounce_type = 'hard'
                or (n.bounce_type = 'soft'
                    and (select count(*) from delivery_events e
                         where e.email = n.email and e.kind = 'bounced' and e.bounce_type = 'soft'
                           and e.occurred_at > now() - make_interval(days => s.soft_bounce_days))
                        >= s.soft_bounce_limit)
             order by n.email, (n.kind = 'complained') desc, (n.bounce_type = 'hard') desc, n.id)
         insert into suppressions (email, reason, event_id)
         select email, reason, id from candidates
         on conflict (email) where lifted_at is null do nothing",
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    sqlx::query(
        // By id, not by email: an event's contact_id is the contact with its email (resolved above), and on
        // email the planner picks the trigram index, about 18 ms a contact (tests/bench/bounces.sh).
        "update contacts c set subscription = case when n.kind = 'bounced' then 'bounced' else 'unsubscribed' end
         from (select distinct on (email) email, kind, contact_id from new_delivery_events
               where (kind in ('complained', 'unsubscribed') or bounce_type = 'hard') and contact_id is not null
               order by email, (kind = 'bounced')) n
         where c.id = n.contact_id and c.subscription = 'subscribed'",
    )
    .execute(&mut *conn)
    .await?;
    // A copy that bounced for good after the server took it was never delivered: its recipient row says so, and
    // every page that counts delivered copies (the mailing, Performance, E-mail Analytics, the rates) reads that row
    // (docs/metrics.md "Delivered").
    sqlx::query(
        "update mailing_recipients r set status = 'bounced'
         from (select distinct mailing_id, contact_id from new_delivery_events
               where bounce_type = 'hard' and mailing_id is not null and contact_id is not null) n
         where r.mailing_id = n.mailing_id and r.contact_id = n.contact_id and r.status = 'sent'",
    )
    .execute(&mut *conn)
    .await?;
    Ok(suppressed)
}
