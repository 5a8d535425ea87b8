//! Mailings read back as the pages show them: one mailing, all of them, and one mailing's delivery figures. Money
//! figures follow the one definition of docs/metrics.md (`mailing_email_figures`).

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// A mailing with its audience's names and its figures.
#[derive(Debug, sqlx::FromRow)]
pub struct MailingRow {
    pub id: i64,
    pub name: String,
    pub subject_line: String,
    pub sender_id: Option<i64>,
    pub sender_name: Option<String>,
    pub send_time: Option<DateTime<Utc>>,
    pub list_id: Option<i64>,
    pub list_name: Option<String>,
    pub body_html: String,
    pub is_draft: bool,
    pub send_attempt: Option<DateTime<Utc>>,
    /// Recipients who opened (people, not machines), counted once each.
    pub open_count: i64,
    pub recip_count: i64,
    pub delivery: String,
    pub delivery_message: Option<String>,
    pub created: DateTime<Utc>,
    pub delivered: i64,
    pub revenue: Option<String>,
    pub gifts: Option<i64>,
    pub donors: Option<i64>,
    pub response_rate: Option<f64>,
    pub rpm: Option<String>,
    pub segment_id: Option<i64>,
    pub segment_name: Option<String>,
    pub preview_text: String,
    pub variant_seed: i64,
    /// Whether the send leaves out those who reached the programme's frequency cap.
    pub respect_cap: bool,
    /// Audience members the frequency cap left out when the send chose its recipients.
    pub held_back: i64,
}

macro_rules! mailing_select {
    () => {
        concat!(
            "select m.id, m.name, m.subject_line, m.sender_id, s.name as sender_name, m.send_time, m.list_id,
                l.name as list_name, m.body_html, m.is_draft, m.send_attempt,
                (select count(distinct e.contact_id) from mailing_events e
                  where e.mailing_id = m.id and e.kind = 'open' and not e.machine) as open_count,
                (select count(*) from mailing_recipients r where r.mailing_id = m.id) as recip_count,
                m.delivery, m.delivery_message, m.created,
                f.delivered, f.revenue::text as revenue, f.gifts, rv.donors,
                (case when f.delivered > 0 then f.gifts::float8 / f.delivered else 0 end) as response_rate,
                f.rpm::text as rpm,
                m.segment_id, g.name as segment_name, m.preview_text, m.variant_seed, m.respect_cap,
                (select count(*) from mailing_held_back h where h.mailing_id = m.id) as held_back
         from mailings m left join senders s on s.id = m.sender_id left join crm_lists l on l.id = m.list_id
         left join segments g on g.id = m.segment_id
         -- Delivered, gifts, revenue and RPM by the one definition (docs/metrics.md).
         cross join lateral mailing_email_figures(m.id) f
         cross join lateral (
             select ",
            crate::donors_sql!(),
            " as donors
             from contributions c where c.mailing_id = m.id
         ) rv "
        )
    };
}

/// One mailing; `None` when there is no such mailing.
pub async fn get(conn: &mut PgConnection, id: i64) -> Result<Option<MailingRow>, sqlx::Error> {
    sqlx::query_as(concat!(mailing_select!(), "where m.id = $1"))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// Every mailing, newest first.
pub async fn list(conn: &mut PgConnection) -> Result<Vec<MailingRow>, sqlx::Error> {
    sqlx::query_as(concat!(
        mailing_select!(),
        // A journey's mailings are its steps' e-mails of a day: they show on the journey, not here.
        "where m.journey_id is null order by m.created desc, m.id desc"
    ))
    .fetch_all(conn)
    .await
}

/// What happened to a sent mailing.
#[derive(Debug, sqlx::FromRow)]
pub struct MailingStats {
    pub recipients: i64,
    pub delivered: i64,
    pub failed: i64,
    pub bounced: i64,
    pub unique_opens: i64,
    pub machine_opens: i64,
    pub unique_clicks: i64,
    pub clicks: i64,
    pub unsubscribes: i64,
    pub held_back: i64,
}

/// A mailing's recipients, deliveries, failures, opens, clicks, unsubscribes and those the frequency cap held back.
pub async fn stats(conn: &mut PgConnection, id: i64) -> Result<MailingStats, sqlx::Error> {
    sqlx::query_as(
        "select
             (select count(*) from mailing_recipients where mailing_id = $1) as recipients,
             (select count(*) from mailing_recipients where mailing_id = $1 and status = 'sent') as delivered,
             (select count(*) from mailing_recipients
               where mailing_id = $1 and status in ('failed', 'queued', 'sending')) as failed,
             (select count(*) from mailing_recipients where mailing_id = $1 and status = 'bounced') as bounced,
             (select count(distinct contact_id) from mailing_events
               where mailing_id = $1 and kind = 'open' and not machine) as unique_opens,
             (select count(*) from mailing_events where mailing_id = $1 and kind = 'open' and machine) as machine_opens,
             (select count(distinct contact_id) from mailing_events
               where mailing_id = $1 and kind = 'click' and not machine) as unique_clicks,
             (select count(*) from mailing_events where mailing_id = $1 and kind = 'click' and not machine) as clicks,
             (select count(*) from mailing_events where mailing_id = $1 and kind = 'unsubscribe') as unsubscribes,
             (select count(*) from mailing_held_back where mailing_id = $1) as held_back",
    )
    .bind(id)
    .fetch_one(conn)
    .await
}
