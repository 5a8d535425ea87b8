//! The statements that read mailings back: one mailing, all of them, and one mailing's figures.

use super::{audience, Mailing, MailingStats};
use crate::error::ApiError;
use tenancy::TenantTx;

macro_rules! mailing_select {
    () => {
        concat!(
            "select m.id, m.name, m.subject_line, m.sender_id, s.name as sender_name, m.send_time, m.list_id,
                l.name as list_name, m.body_html, m.is_draft, m.send_attempt,
                (select count(distinct e.contact_id) from mailing_events e
                  where e.mailing_id = m.id and e.kind = 'open' and not e.machine) as open_count,
                (select count(*) from mailing_recipients r where r.mailing_id = m.id) as recip_count,
                m.delivery, m.delivery_message, m.created,
                rv.delivered, rv.revenue::numeric(20, 2)::text as revenue, rv.gifts, rv.donors,
                (case when rv.delivered > 0 then rv.gifts::float8 / rv.delivered else 0 end) as response_rate,
                (case when rv.delivered > 0 then round(rv.revenue * 1000 / rv.delivered, 2) else 0 end)
                  ::numeric(20, 2)::text as rpm,
                m.segment_id, g.name as segment_name, m.preview_text, m.variant_seed
         from mailings m left join senders s on s.id = m.sender_id left join crm_lists l on l.id = m.list_id
         left join segments g on g.id = m.segment_id
         cross join lateral (
             select (select count(*) from mailing_recipients r where r.mailing_id = m.id and r.status = 'sent')
                      as delivered,
                    coalesce(sum(",
            store::net_sql!(),
            "), 0) as revenue,
                    count(*) filter (where c.amount > 0) as gifts,
                    ",
            store::donors_sql!(),
            " as donors
             from contributions c where c.mailing_id = m.id
         ) rv "
        )
    };
}

pub(super) async fn fetch_mailing(tx: &mut TenantTx, id: i64) -> Result<Mailing, ApiError> {
    let mut mailing = sqlx::query_as::<_, Mailing>(concat!(mailing_select!(), "where m.id = $1"))
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| ApiError::NotFound("Mailing not found".to_owned()))?;
    (mailing.suppressions, mailing.variants) = audience::load(tx, id).await?;
    Ok(mailing)
}

/// Mailings, newest first.
pub(super) async fn list_mailings(tx: &mut TenantTx) -> Result<Vec<Mailing>, ApiError> {
    Ok(sqlx::query_as::<_, Mailing>(concat!(
        mailing_select!(),
        "order by m.created desc, m.id desc"
    ))
    .fetch_all(&mut **tx)
    .await?)
}

/// A mailing's recipients, deliveries, failures, opens, clicks and unsubscribes.
pub(super) async fn mailing_stats(tx: &mut TenantTx, id: i64) -> Result<MailingStats, ApiError> {
    let stats = sqlx::query_as::<_, MailingStats>(
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
                 (select count(*) from mailing_events where mailing_id = $1 and kind = 'unsubscribe') as unsubscribes",
        )
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
    Ok(stats)
}
