//! Mailings read back (`store::mailings`): one mailing with its audience, all of them, and one mailing's figures.

use super::{audience, Mailing, MailingStats};
use crate::error::ApiError;
use store::mailings::{self as stored, MailingRow};
use tenancy::TenantTx;

impl From<MailingRow> for Mailing {
    fn from(m: MailingRow) -> Self {
        Self {
            id: m.id,
            name: m.name,
            subject_line: m.subject_line,
            sender_id: m.sender_id,
            sender_name: m.sender_name,
            send_time: m.send_time,
            list_id: m.list_id,
            list_name: m.list_name,
            body_html: m.body_html,
            is_draft: m.is_draft,
            send_attempt: m.send_attempt,
            open_count: m.open_count,
            recip_count: m.recip_count,
            delivery: m.delivery,
            delivery_message: m.delivery_message,
            created: m.created,
            delivered: m.delivered,
            revenue: m.revenue,
            gifts: m.gifts,
            donors: m.donors,
            response_rate: m.response_rate,
            rpm: m.rpm,
            segment_id: m.segment_id,
            segment_name: m.segment_name,
            preview_text: m.preview_text,
            variant_seed: m.variant_seed,
            respect_cap: m.respect_cap,
            held_back: m.held_back,
            suppressions: Vec::new(),
            variants: Vec::new(),
        }
    }
}

pub(super) async fn fetch_mailing(tx: &mut TenantTx, id: i64) -> Result<Mailing, ApiError> {
    let mut mailing = Mailing::from(
        stored::get(tx, id)
            .await?
            .ok_or_else(|| ApiError::NotFound("Mailing not found".to_owned()))?,
    );
    (mailing.suppressions, mailing.variants) = audience::load(tx, id).await?;
    Ok(mailing)
}

/// Mailings, newest first.
pub(super) async fn list_mailings(tx: &mut TenantTx) -> Result<Vec<Mailing>, ApiError> {
    Ok(stored::list(tx)
        .await?
        .into_iter()
        .map(Mailing::from)
        .collect())
}

/// A mailing's recipients, deliveries, failures, opens, clicks and unsubscribes.
pub(super) async fn mailing_stats(tx: &mut TenantTx, id: i64) -> Result<MailingStats, ApiError> {
    let s = stored::stats(tx, id).await?;
    Ok(MailingStats {
        recipients: s.recipients,
        delivered: s.delivered,
        failed: s.failed,
        bounced: s.bounced,
        unique_opens: s.unique_opens,
        machine_opens: s.machine_opens,
        unique_clicks: s.unique_clicks,
        clicks: s.clicks,
        unsubscribes: s.unsubscribes,
        held_back: s.held_back,
    })
}
