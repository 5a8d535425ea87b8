//! Keeping a message sent to a bounce address and recording what it says, for the client its token names.

use crate::report::{self, Report};
use crate::InboundError;
use mail::verp::BounceToken;
use sha2::{Digest, Sha256};
use store::deliverability::{self, NewEvent, Recorded, Source};

/// Stores `raw` as evidence in the token's client's schema, reads it and records its events tied to the token's
/// mailing and contact, in one transaction committed before this returns. `None` when the client no longer
/// exists or is disabled (nothing is stored).
pub async fn ingest(
    tenancy: &tenancy::Tenancy,
    token: BounceToken,
    raw: &[u8],
) -> Result<Option<Recorded>, InboundError> {
    let report = report::read(raw);
    ingest_many(tenancy, token.client_id, &[(token, raw, &report)]).await
}

/// [`ingest`] for several messages to one client's bounce addresses, already read, in one transaction (group
/// commit): the evidence of all of them in one statement, then all their events in one [`deliverability::record`].
pub async fn ingest_many(
    tenancy: &tenancy::Tenancy,
    client_id: i64,
    messages: &[(BounceToken, &[u8], &Report)],
) -> Result<Option<Recorded>, InboundError> {
    let Some(client) = tenancy.enabled_client(client_id).await? else {
        return Ok(None);
    };
    let bodies: Vec<(Source, &str, &[u8])> = messages
        .iter()
        .map(|(_, raw, report)| {
            let source = report.heard.first().map_or(Source::Dsn, |h| h.source);
            (source, "message/rfc822", *raw)
        })
        .collect();
    let mut tx = tenancy.begin(&client).await?;
    let evidence = deliverability::store_evidence_many(&mut tx, &bodies).await?;
    let mut all = Vec::with_capacity(messages.len());
    for ((token, raw, report), evidence) in messages.iter().zip(evidence) {
        debug_assert_eq!(token.client_id, client_id);
        all.extend(events(report, *token, raw, evidence));
    }
    let recorded = deliverability::record(&mut tx, &all).await?;
    tx.commit().await?;
    Ok(Some(recorded))
}

/// The report's events for the token's recipient. The id that makes a re-delivered report change nothing is the
/// report's Message-ID (a digest of the message when it has none) with the recipient it names.
fn events(report: &Report, token: BounceToken, raw: &[u8], evidence: i64) -> Vec<NewEvent> {
    let message_id = report
        .message_id
        .clone()
        .unwrap_or_else(|| format!("sha256:{}", hex::encode(Sha256::digest(raw))));
    let now = chrono::Utc::now();
    report
        .heard
        .iter()
        .map(|h| {
            let recipient = h
                .recipient
                .clone()
                .unwrap_or_else(|| format!("contact:{}", token.contact_id));
            NewEvent {
                source: h.source,
                source_event_id: Some(format!("{message_id} {recipient}")),
                kind: h.kind,
                status_code: h.status_code.clone(),
                diagnostic: h.diagnostic.clone(),
                // The signed token names the recipient; the address the report names may be a forward of it.
                email: String::new(),
                mailing_id: Some(token.mailing_id),
                contact_id: Some(token.contact_id),
                occurred_at: now,
                evidence_id: Some(evidence),
            }
        })
        .collect()
}
