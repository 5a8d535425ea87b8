//! The demo client the run command creates: realistic contacts, origin codes and lists, made set-based in SQL.

mod experiment;
mod giving;
mod journeys;
mod media;
mod programme;

use giving::seed_gifts;

use crate::error::ApiError;
use jobs::{JobKind, JobQueue};
use tenancy::{Client, ClientShort, Tenancy, TenantTx};

/// Creates the client if it is missing and fills it once; running it again changes nothing.
pub async fn seed(
    tenancy: &Tenancy,
    queue: &JobQueue,
    short: &str,
    name: &str,
    contacts: i64,
    gifts: i64,
) -> Result<Client, ApiError> {
    let short = ClientShort::parse(short)?;
    let client = match tenancy.enabled_client_by_short(short.as_str()).await? {
        Some(c) => c,
        None => tenancy.create_client(&short, name).await?,
    };
    let mut tx = tenancy.begin(&client).await?;
    if store::demo::contacts_count(&mut tx).await? > 0 {
        seed_forms(&mut tx).await?;
        seed_mailings(&mut tx).await?;
        seed_people(&mut tx).await?;
        seed_gifts(&mut tx, gifts).await?;
        media::seed_media(&mut tx).await?;
        programme::seed_programme(&mut tx).await?;
        journeys::seed_journeys(&mut tx).await?;
        tx.commit().await?;
        return Ok(client);
    }
    store::demo::insert_origin_codes(&mut tx).await?;
    store::demo::insert_contacts(&mut tx, contacts).await?;
    store::demo::analyze(&mut tx, "contacts").await?;
    store::demo::insert_lists(&mut tx).await?;
    seed_forms(&mut tx).await?;
    seed_mailings(&mut tx).await?;
    seed_people(&mut tx).await?;
    seed_gifts(&mut tx, gifts).await?;
    media::seed_media(&mut tx).await?;
    programme::seed_programme(&mut tx).await?;
    journeys::seed_journeys(&mut tx).await?;
    // The list sizes are computed the way the product computes them: by a real job the worker runs.
    queue.enqueue(tx, None, &JobKind::RecountLists {}).await?;
    Ok(client)
}

/// Two public forms with a history of views and signups from contacts who arrived through them. Seeded on its
/// own so a demo client made before forms existed gets them too.
async fn seed_forms(tx: &mut TenantTx) -> Result<(), ApiError> {
    if store::demo::forms_count(tx).await? > 0 {
        return Ok(());
    }
    store::demo::insert_forms(tx).await?;
    Ok(())
}

/// Three roles and two of the client's own users: one enabled with a role, one who registered and verified
/// their e-mail and now waits for an administrator (Manage Users). Their passwords are random: they would use
/// "Request a reset" to sign in.
async fn seed_people(tx: &mut TenantTx) -> Result<(), ApiError> {
    if store::demo::roles_count(tx).await? > 0 {
        return Ok(());
    }
    let unusable = crate::identity::secrets::random_token();
    let hash = crate::auth::hash_password(&unusable).map_err(ApiError::internal)?;
    store::demo::insert_people(tx, &crate::auth::ALL_CLIENT_PERMISSIONS, &hash).await?;
    Ok(())
}

/// A sender, two templates, a mailing sent ten days ago with its recipients and their opens, clicks and
/// unsubscribes, a draft and one confirmed for later. Seeded on its own, like the forms.
async fn seed_mailings(tx: &mut TenantTx) -> Result<(), ApiError> {
    if store::demo::senders_count(tx).await? > 0 {
        return Ok(());
    }
    store::demo::insert_mailings(tx).await?;
    Ok(())
}
