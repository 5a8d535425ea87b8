//! The rates that guard the sender, one definition for the mailing page, Performance and E-mail Analytics
//! (docs/deliverability.md "Rates"): a recipient counts as sent once a server took or refused the message; bounce
//! rate = bounced recipients / sent (hard and soft apart, a recipient with both counts as hard); complaint rate =
//! recipients who complained / delivered, where delivered = sent - hard bounced. A hard bounce, refused during the
//! send or heard after it, is the recipient row's `bounced` status (`record` sets it), so "delivered" here is the
//! delivered of the mailing page, Performance and E-mail Analytics.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// What the rows are per.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy {
    /// One row per mailing (its id, as text).
    Mailing,
    /// The From domain of the mailing's sender.
    SenderDomain,
    /// The recipient's mailbox provider: `gmail`, `yahoo`, `microsoft` or `other`.
    Provider,
}

impl GroupBy {
    fn key(self) -> &'static str {
        match self {
            GroupBy::Mailing => "mailing",
            GroupBy::SenderDomain => "sender_domain",
            GroupBy::Provider => "provider",
        }
    }
}

/// Which sends count: one mailing, or the mailings sent in a time range (either end open).
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub mailing_id: Option<i64>,
    pub from: Option<DateTime<Utc>>,
    pub until: Option<DateTime<Utc>>,
}

/// One group's figures. Rates are decimal strings with four places (0.0042 is 0.42 %), null when nothing was sent
/// (or, for the complaint rate, nothing delivered).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Rates {
    #[sqlx(rename = "grp")]
    pub group: String,
    /// The mailing's name when the rows are per mailing.
    pub label: Option<String>,
    pub sent: i64,
    pub delivered: i64,
    pub hard_bounced: i64,
    pub soft_bounced: i64,
    pub complained: i64,
    pub hard_bounce_rate: Option<String>,
    pub soft_bounce_rate: Option<String>,
    pub complaint_rate: Option<String>,
}

/// The figures per `by` of the sends `filter` picks, largest group first.
pub async fn rates(
    conn: &mut PgConnection,
    by: GroupBy,
    filter: &Filter,
) -> Result<Vec<Rates>, sqlx::Error> {
    sqlx::query_as(
        "with r as (
             select mr.mailing_id, mr.contact_id, mr.status,
                    case $1 when 'mailing' then mr.mailing_id::text
                            when 'sender_domain' then coalesce(lower(split_part(s.from_address, '@', 2)), '')
                            else coalesce(d.provider, mailbox_provider(mr.email)) end as grp,
                    case when $1 = 'mailing' then m.name end as label
             from mailing_recipients mr
             join mailings m on m.id = mr.mailing_id
             left join senders s on s.id = m.sender_id
             left join recipient_domain_providers d
                    on $1 = 'provider' and d.domain = lower(split_part(mr.email, '@', 2))
             where mr.status in ('sent', 'bounced')
               and ($2::bigint is null or mr.mailing_id = $2)
               and ($3::timestamptz is null or coalesce(mr.sent_at, m.send_time) >= $3)
               and ($4::timestamptz is null or coalesce(mr.sent_at, m.send_time) < $4)),
         ev as (
             select e.mailing_id, e.contact_id,
                    bool_or(e.kind = 'bounced' and e.bounce_type = 'soft') as soft,
                    bool_or(e.kind = 'complained') as complained
             from delivery_events e
             where e.mailing_id is not null and e.contact_id is not null
               and e.kind in ('bounced', 'complained')
               and ($2::bigint is null or e.mailing_id = $2)
             group by e.mailing_id, e.contact_id),
         f as (
             select r.grp, min(r.label) as label, count(*) as sent,
                    count(*) filter (where r.status = 'bounced') as hard_bounced,
                    count(*) filter (where r.status = 'sent' and coalesce(ev.soft, false)) as soft_bounced,
                    count(*) filter (where coalesce(ev.complained, false)) as complained
             from r left join ev on ev.mailing_id = r.mailing_id and ev.contact_id = r.contact_id
             group by r.grp)
         select grp, label, sent, sent - hard_bounced as delivered, hard_bounced, soft_bounced, complained,
                round(hard_bounced::numeric / nullif(sent, 0), 4)::text as hard_bounce_rate,
                round(soft_bounced::numeric / nullif(sent, 0), 4)::text as soft_bounce_rate,
                round(complained::numeric / nullif(sent - hard_bounced, 0), 4)::text as complaint_rate
         from f
         order by sent desc, grp",
    )
    .bind(by.key())
    .bind(filter.mailing_id)
    .bind(filter.from)
    .bind(filter.until)
    .fetch_all(conn)
    .await
}

/// The instants that start `from` and end `to` (both included) as the client's days; None stays open.
pub async fn day_bounds(
    conn: &mut PgConnection,
    from: Option<chrono::NaiveDate>,
    to: Option<chrono::NaiveDate>,
) -> Result<(Option<DateTime<Utc>>, Option<DateTime<Utc>>), sqlx::Error> {
    sqlx::query_as(
        "select $1::date::timestamp at time zone s.time_zone, ($2::date + 1)::timestamp at time zone s.time_zone
         from app_settings s",
    )
    .bind(from)
    .bind(to)
    .fetch_one(conn)
    .await
}

/// Notes the provider the send found for each custom recipient domain (from its MX hosts), so the rates per
/// provider put the domain where the send paced it. A domain whose provider is already noted costs no write.
pub async fn note_domain_providers(
    conn: &mut PgConnection,
    domains: &[String],
    providers: &[&str],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into recipient_domain_providers (domain, provider)
         select * from unnest($1::text[], $2::text[])
         on conflict (domain) do update set provider = excluded.provider, looked_up = now()
             where recipient_domain_providers.provider <> excluded.provider",
    )
    .bind(domains)
    .bind(providers)
    .execute(conn)
    .await?;
    Ok(())
}
