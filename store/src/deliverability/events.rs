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
    /// The places in the batch (from 0) of the events stored, for events that carry a `source_event_id`: a
    /// caller that wrote several requests' events at once tells each what became of its own. An event id twice
    /// in one batch is stored once and listed at both places.
    pub stored_events: Vec<usize>,
    /// The places of the events that suppressed an address (one per address), as `stored_events`.
    pub suppressing_events: Vec<usize>,
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

/// [`store_evidence`] for many bodies in one statement; their ids, in the order of `bodies`.
pub async fn store_evidence_many(
    conn: &mut PgConnection,
    bodies: &[(Source, &str, &[u8])],
) -> Result<Vec<i64>, sqlx::Error> {
    if bodies.is_empty() {
        return Ok(Vec::new());
    }
    let sources: Vec<&str> = bodies.iter().map(|(s, _, _)| s.as_str()).collect();
    let types: Vec<&str> = bodies.iter().map(|(_, t, _)| *t).collect();
    let raws: Vec<&[u8]> = bodies.iter().map(|(_, _, b)| *b).collect();
    // The ids are drawn first, one per body in its place, so which id belongs to which body does not depend on the
    // order the insert's rows come back in.
    sqlx::query_scalar(
        "with e as (
             select nextval(pg_get_serial_sequence('delivery_evidence', 'id')) as id, e.*
             from unnest($1::text[], $2::text[], $3::bytea[]) with ordinality e (source, content_type, body, n)),
         added as (
             insert into delivery_evidence (id, source, content_type, body) overriding system value
             select id, source, content_type, body from e)
         select id from e order by n",
    )
    .bind(&sources)
    .bind(&types)
    .bind(&raws)
    .fetch_all(conn)
    .await
}

/// Stores `events` (each once: one already stored under the same source and event id is skipped) and applies
/// the suppression rules to the new ones. At most three statements whatever the batch's size: one stores the
/// events and the suppressions, one marks recipient rows bounced, one moves the contacts (their email-list trigger
/// paid once for the batch). Every look-up is on a btree index: contacts by id or by `contacts_email_key`, the
/// soft-bounce count on `delivery_events_email_idx`.
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
    // Planned for each batch's own arrays: after five runs the server would keep one generic plan (and so would
    // the PL/pgSQL functions below), made without knowing the batch, which reads whole tables once the client's
    // events number tens of thousands (a round of 30 bounces went from 15 ms to 200 ms).
    sqlx::query("set local plan_cache_mode = force_custom_plan")
        .execute(&mut *conn)
        .await?;
    let (
        stored,
        suppressed,
        leaving,
        leave_as,
        copy_mailings,
        copy_contacts,
        stored_at,
        suppressing_at,
    ): Outcome = sqlx::query_as(RECORD)
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
        .fetch_one(&mut *conn)
        .await?;
    if !copy_mailings.is_empty() {
        // A copy that bounced for good after the server took it was never delivered: its recipient row says so,
        // and every page that counts delivered copies (the mailing, Performance, E-mail Analytics, the rates) reads
        // that row (docs/metrics.md "Delivered"). Run only when there is one: the table's statement triggers cost
        // about 2 ms even for no row.
        sqlx::query(
            "update mailing_recipients r set status = 'bounced'
             from unnest($1::bigint[], $2::bigint[]) n (mailing_id, contact_id)
             where r.mailing_id = n.mailing_id and r.contact_id = n.contact_id and r.status = 'sent'",
        )
        .bind(&copy_mailings)
        .bind(&copy_contacts)
        .execute(&mut *conn)
        .await?;
    }
    if !leaving.is_empty() {
        sqlx::query("select contacts_leave($1, $2)")
            .bind(&leaving)
            .bind(&leave_as)
            .execute(&mut *conn)
            .await?;
    }
    let places = |at: Vec<i64>| {
        at.into_iter()
            .filter_map(|n| usize::try_from(n).ok())
            .collect()
    };
    Ok(Recorded {
        stored: u64::try_from(stored).unwrap_or_default(),
        suppressed: u64::try_from(suppressed).unwrap_or_default(),
        stored_events: places(stored_at),
        suppressing_events: places(suppressing_at),
    })
}

/// What [`RECORD`] returns: events stored, addresses suppressed, the contacts that leave and their new
/// subscription, the recipient rows (mailing, contact) to mark bounced, and the places of the events stored and of
/// those that suppressed an address.
type Outcome = (
    i64,
    i64,
    Vec<i64>,
    Vec<String>,
    Vec<i64>,
    Vec<i64>,
    Vec<i64>,
    Vec<i64>,
);

/// The events in and the suppressions written, in one statement; it returns what the two statements after it
/// change (the contacts that leave, the recipient rows to mark bounced). Its parts all see the database as it was
/// before the statement, so the soft-bounce count adds the batch's own soft bounces to those stored before.
/// The settings are read by scalar subqueries: `app_settings` is never analysed, and joined it is estimated at 160
/// rows, which inflates every estimate above it (and once over `jit_above_cost`, JIT compiling costs tens of ms).
const RECORD: &str = "
with input as (
    select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                         $7::text[], $8::bigint[], $9::bigint[], $10::timestamptz[], $11::bigint[])
        with ordinality as i (source, source_event_id, kind, bounce_type, status_code, diagnostic, email,
                              mailing_id, contact_id, occurred_at, evidence_id, n)),
-- A mailing or contact the source names but this client does not have is left out, not trusted.
resolved as (
    select i.n, i.source, i.source_event_id, i.kind, i.bounce_type, i.status_code, i.diagnostic, i.email,
           m.id as mailing_id,
           -- The contact is found by its id and its e-mail compared after: joined on both, the planner may pick
           -- the e-mail's trigram index, which reads thousands of pages for one address of a common domain.
           coalesce(case when c.email = i.email then c.id end,
                    (select c2.id from contacts c2 where c2.email = i.email)) as contact_id,
           i.occurred_at, i.evidence_id
    from (select i.n, i.source, i.source_event_id, i.kind, i.bounce_type, i.status_code, i.diagnostic,
                 coalesce(nullif(i.email, ''), c.email) as email, i.mailing_id, i.contact_id,
                 i.occurred_at, i.evidence_id
          from input i left join contacts c on c.id = i.contact_id and i.email = '') i
    left join mailings m on m.id = i.mailing_id
    left join contacts c on c.id = i.contact_id
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
    returning id, source, source_event_id, kind, bounce_type, email, mailing_id, contact_id, occurred_at),
-- Addresses whose soft bounces within the client's window reach its limit: this batch's and those stored before.
soft_limit as (
    select s.email
    from (select n.email, count(*) filter (
                     where n.occurred_at > now() - make_interval(days => (select soft_bounce_days from app_settings)))
                     as in_window
          from inserted n where n.bounce_type = 'soft' group by n.email) s
    where s.in_window
          + (select count(*) from delivery_events e
             where e.email = s.email and e.kind = 'bounced' and e.bounce_type = 'soft'
               and e.occurred_at > now() - make_interval(days => (select soft_bounce_days from app_settings)))
          >= (select soft_bounce_limit from app_settings)),
candidates as (
    select distinct on (n.email) n.email, n.id,
           case when n.kind = 'complained' then 'complaint' when n.bounce_type = 'hard' then 'hard_bounce'
                else 'soft_bounces' end as reason
    from inserted n
    where n.kind = 'complained' or n.bounce_type = 'hard'
       or (n.bounce_type = 'soft' and n.email in (select email from soft_limit))
    order by n.email, (n.kind = 'complained') desc, (n.bounce_type = 'hard') desc, n.id),
suppressed as (
    insert into suppressions (email, reason, event_id)
    select email, reason, id from candidates
    on conflict (email) where lifted_at is null do nothing
    returning event_id),
-- Recipient rows of copies that bounced for good after the server took them (marked below).
bounced_copies as (
    select r.mailing_id, r.contact_id
    from (select distinct mailing_id, contact_id from inserted
          where bounce_type = 'hard' and mailing_id is not null and contact_id is not null) n
    join mailing_recipients r on r.mailing_id = n.mailing_id and r.contact_id = n.contact_id
    where r.status = 'sent'),
-- Contacts that leave: a hard bounce marks them bounced, a complaint or an unsubscribe unsubscribes them (that wins
-- when a batch holds both). By id: an event's contact_id is the contact with its email (resolved above).
leaving as (
    select distinct on (n.contact_id) n.contact_id,
           case when n.kind = 'bounced' then 'bounced' else 'unsubscribed' end as subscription
    from inserted n
    where (n.kind in ('complained', 'unsubscribed') or n.bounce_type = 'hard') and n.contact_id is not null
    order by n.contact_id, (n.kind = 'bounced'))
select (select count(*) from inserted), (select count(*) from suppressed),
       coalesce((select array_agg(contact_id order by contact_id) from leaving), '{}'),
       coalesce((select array_agg(subscription order by contact_id) from leaving), '{}'),
       coalesce((select array_agg(mailing_id order by mailing_id, contact_id) from bounced_copies), '{}'),
       coalesce((select array_agg(contact_id order by mailing_id, contact_id) from bounced_copies), '{}'),
       -- Which of the batch's events were stored and which suppressed an address, by their place in it (from 0).
       coalesce((select array_agg(r.n - 1 order by r.n) from inserted i
                 join resolved r on r.source = i.source and r.source_event_id = i.source_event_id), '{}'),
       coalesce((select array_agg(r.n - 1 order by r.n) from suppressed s join inserted i on i.id = s.event_id
                 join resolved r on r.source = i.source and r.source_event_id = i.source_event_id), '{}')";

fn truncate(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((at, _)) => &s[..at],
        None => s,
    }
}
