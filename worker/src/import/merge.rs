//! Merging the staged rows into contacts and list memberships: which of `store::imports::contacts`' statements
//! run for the import's options, in which order, and the counts they add up to.

use super::*;
use store::imports::contacts;

#[derive(Debug, Default)]
pub(super) struct Merged {
    pub(super) unique: i64,
    pub(super) duplicates: i64,
    pub(super) created: i64,
    pub(super) matched: i64,
    pub(super) updated: i64,
    pub(super) added: i64,
    pub(super) not_created: i64,
}

/// Works straight on the staging table (no de-duplicated copy): the inserts' `on conflict do nothing` already
/// keeps the first row of each e-mail, and the counts fall out of the statements' row counts.
pub(super) async fn merge_contacts(
    conn: &mut PgConnection,
    plan: &ImportPlan,
    list_id: Option<i64>,
) -> Result<Merged, JobError> {
    let started = std::time::Instant::now();
    let staged = contacts::staged_rows(conn).await?;
    if let Columns::Mapped { mapping } = &plan.columns {
        if mapping.values().any(|f| *f == Field::OriginCode) {
            contacts::add_staged_origin_codes(conn).await?;
        }
    }
    let mut created = 0;
    if plan.create_new_contacts {
        created = contacts::create_staged_contacts(conn, plan.origin_code_id).await?;
    }
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        created,
        "contacts merged"
    );
    let mut updated = 0;
    if plan.overwrite_origin_code {
        if let Some(code) = plan.origin_code_id {
            updated = contacts::overwrite_origin_codes(conn, code).await?;
        }
    }
    let mut added = 0;
    if let Some(list) = list_id {
        added = contacts::add_staged_to_list(conn, list).await?;
    }
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        added,
        "memberships merged"
    );
    // The list is new (created in this transaction), so with every e-mail a contact by now, each distinct e-mail
    // added exactly one member. Otherwise count them.
    let unique = if plan.create_new_contacts && list_id.is_some() {
        added
    } else {
        contacts::staged_emails(conn).await?
    };
    let (matched, not_created) = if plan.create_new_contacts {
        (unique - created, 0)
    } else {
        let found = contacts::staged_emails_known(conn).await?;
        (found, unique - found)
    };
    Ok(Merged {
        unique,
        duplicates: staged - unique,
        created,
        matched,
        updated,
        added,
        not_created,
    })
}

/// NGP rows are keyed on VANID: a known VANID updates that contact's names; an unknown one whose e-mail is
/// already a contact without a VANID links it; otherwise a contact is created with the row's first origin code.
pub(super) async fn merge_ngp(conn: &mut PgConnection) -> Result<Merged, JobError> {
    let (unique, duplicates) = contacts::dedupe(conn, "vanid").await?;
    let contacts::NgpMerged {
        updated,
        linked,
        created,
    } = contacts::merge_ngp(conn).await?;
    let matched = updated + linked;
    Ok(Merged {
        unique,
        duplicates,
        created,
        matched,
        updated,
        added: 0,
        not_created: unique - matched - created,
    })
}
