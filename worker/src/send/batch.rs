//! The next batch of queued recipients, read and rendered ahead of the sending loop.

use super::*;

use crate::mx::provider_of;
use domain::MailboxProvider;
use mail::verp::{BounceToken, VerpSigner};
use std::collections::HashMap;
use store::send::recipients::{self, Queued};

/// A batch's last contact id and its rendered messages, by contact, with each recipient's mailbox provider.
pub(super) type Batch = (i64, Vec<(i64, MailboxProvider, Rendered)>);

/// Reads the next batch of queued recipients after `cursor` (a contact id) and renders and formats it on blocking
/// threads, in a task of its own; the task answers the batch's last contact id and the messages, or `None` when no
/// recipient is left. Contacts who unsubscribed or bounced since the recipients were chosen are never sent to.
pub(super) fn spawn_batch(
    ctx: &JobContext<'_>,
    mailing: &Arc<Vec<Mailing>>,
    signers: &Arc<Signers>,
    mailing_id: i64,
    cursor: i64,
) -> tokio::task::JoinHandle<Result<Option<Batch>, JobError>> {
    let (tenancy, client) = (ctx.tenancy.clone(), ctx.client.clone());
    let (mailing, links, signers) = (mailing.clone(), ctx.services.links.clone(), signers.clone());
    let verp = ctx.services.verp.clone();
    let mx = ctx.services.mx.clone();
    tokio::spawn(async move {
        let batch = next_recipients(&tenancy, &client, mailing_id, cursor).await?;
        let Some(last) = batch.last().map(|r| r.0) else {
            return Ok(None);
        };
        // Custom domains' providers by their MX hosts, each domain asked once (the cache outlives the batch).
        let by_domain = Arc::new(match &mx {
            Some(mx) => mx.of_domains(batch.iter().map(|r| r.1.as_str())).await,
            None => HashMap::new(),
        });
        note_providers(&tenancy, &client, &by_domain).await?;
        // Two halves on two blocking threads: the machine's two cores render in parallel.
        let client_id = client.id;
        let mut first = batch;
        let second = first.split_off(first.len() / 2);
        let work = |part: Vec<Queued>,
                    mailing: Arc<Vec<Mailing>>,
                    links: LinkSigner,
                    verp: Option<VerpSigner>,
                    signers: Arc<Signers>,
                    by_domain: Arc<HashMap<String, MailboxProvider>>| {
            tokio::task::spawn_blocking(move || {
                part.into_iter()
                    .map(|(contact_id, email, first_name, letter)| {
                        let variant = mailing
                            .iter()
                            .find(|v| v.letter.letter == letter)
                            .unwrap_or(&mailing[0]);
                        let provider = provider_of(&email, &by_domain);
                        let values = MergeValues { first_name, email };
                        let mut copy = render(
                            &links,
                            client_id,
                            &variant.letter,
                            mailing_id,
                            contact_id,
                            &values,
                        );
                        if let (Some(verp), Some(domain)) = (&verp, &variant.bounce_domain) {
                            let token = BounceToken {
                                client_id,
                                mailing_id,
                                contact_id,
                            };
                            copy.envelope_from = Some(verp.address(token, domain));
                        }
                        let message = copy.build().and_then(|m| {
                            let raw =
                                mail::dkim::format(&m, &variant.letter.from_address, &signers)?;
                            Ok((m.envelope().clone(), raw))
                        });
                        (contact_id, provider, message)
                    })
                    .collect::<Vec<_>>()
            })
        };
        let a = work(
            first,
            mailing.clone(),
            links.clone(),
            verp.clone(),
            signers.clone(),
            by_domain.clone(),
        );
        let b = work(second, mailing, links, verp, signers, by_domain);
        let mut out = a.await?;
        out.extend(b.await?);
        Ok(Some((last, out)))
    })
}

/// The next queued recipients after `cursor`, in contact order. Reading takes no lock and writes nothing: the
/// mailing's send lock keeps other senders away, and only an accepted message changes a row (to `sent`). When
/// none is left, what is still queued belongs to contacts who unsubscribed or bounced since the recipients were
/// chosen: those are marked failed.
pub(super) async fn next_recipients(
    tenancy: &tenancy::Tenancy,
    client: &tenancy::Client,
    mailing_id: i64,
    cursor: i64,
) -> Result<Vec<Queued>, JobError> {
    let mut tx = tenancy.begin(client).await?;
    let batch = recipients::next_queued(&mut tx, mailing_id, cursor, BATCH).await?;
    if batch.is_empty() {
        recipients::fail_unsubscribed(&mut tx, mailing_id).await?;
    }
    tx.commit().await?;
    Ok(batch)
}

/// Keeps the providers the MX hosts gave the batch's custom domains, for the rates per provider.
async fn note_providers(
    tenancy: &tenancy::Tenancy,
    client: &tenancy::Client,
    by_domain: &HashMap<String, MailboxProvider>,
) -> Result<(), JobError> {
    if by_domain.is_empty() {
        return Ok(());
    }
    let (domains, providers): (Vec<String>, Vec<&str>) = by_domain
        .iter()
        .map(|(domain, provider)| (domain.clone(), provider.as_str()))
        .unzip();
    let mut tx = tenancy.begin(client).await?;
    store::deliverability::rates::note_domain_providers(&mut tx, &domains, &providers).await?;
    tx.commit().await?;
    Ok(())
}
