//! The one way a handler works in a client's data: [`ClientSession::tx`].
//!
//! ```ignore
//! let lists = auth.0.tx(&state, PAGE_CONTACTS, async |tx| {
//!     Ok(store::lists::all(tx).await?)
//! }).await?;
//! ```
//!
//! It checks what the operation needs *before* a connection is taken (a refusal costs no database round trip),
//! begins one transaction in the client's schema, runs `work`, and commits only when `work` returned `Ok`. On
//! `Err` — or a panic, or the request being cancelled — the transaction is dropped, which rolls it back: a handler
//! cannot forget the commit, nor commit half of a failed change.
//!
//! Keep to plain `tx` inside `work`: answer shaping, hashing and calls to other services belong before or after
//! it, so the transaction (and its pooled connection) is held only while the statements run. The few handlers that
//! keep a transaction open past their return — streamed downloads, whose rows are read while the body is sent —
//! begin and commit by hand.
//!
//! An operation that starts a job uses [`ClientSession::enqueue`]: its `work` returns the job, whose row is written
//! in the same transaction (an upload and the import that reads it exist together or not at all).
//!
//! Work without a signed-in session — public forms, tracking links, the buffered writers — names its client
//! itself and goes through [`in_client`], the one place that begins and commits.

use super::ClientSession;
use crate::error::ApiError;
use crate::state::AppState;
use jobs::{JobKind, JobQueue, JobRow};
use tenancy::{Client, Tenancy, TenantTx};

/// What a caller must hold in the client before an operation touches its data.
#[derive(Debug, Clone, Copy)]
pub enum Needs {
    /// Any user of the client: CRM pages and the settings the shell loads need no permission.
    Nothing,
    /// This permission (`crate::auth::PAGE_*`, `VIEW_USER`, `EDIT_ROLE`). A bare `&'static str` converts to it.
    Permission(&'static str),
    /// At least one of these: data that two pages share.
    AnyOf(&'static [&'static str]),
}

impl From<&'static str> for Needs {
    fn from(permission: &'static str) -> Self {
        Self::Permission(permission)
    }
}

impl ClientSession {
    /// Refuses with 403 unless the session meets `needs`.
    pub fn check(&self, needs: impl Into<Needs>) -> Result<(), ApiError> {
        match needs.into() {
            Needs::Nothing => Ok(()),
            Needs::Permission(permission) => self.require(permission),
            Needs::AnyOf(permissions) => self.require_any(permissions),
        }
    }

    /// Runs `work` in one transaction in this session's client, after checking `needs`; commits when `work`
    /// succeeds and rolls back when it fails. See the module's notes.
    pub async fn tx<T>(
        &self,
        state: &AppState,
        needs: impl Into<Needs>,
        work: impl AsyncFnOnce(&mut TenantTx) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        self.check(needs)?;
        in_client(&state.tenancy, &self.client, work).await
    }
}

impl ClientSession {
    /// Like [`ClientSession::tx`] for an operation that starts a job: `work` does the operation's own reads and
    /// writes and returns the job to run, whose row is written in the same transaction (so the job exists exactly
    /// when the operation's changes do). After the commit the queue is told; the answer is the queued row.
    pub async fn enqueue(
        &self,
        state: &AppState,
        needs: impl Into<Needs>,
        work: impl AsyncFnOnce(&mut TenantTx) -> Result<JobKind, ApiError>,
    ) -> Result<JobRow, ApiError> {
        self.check(needs)?;
        let owner = self.job_owner();
        let row = in_client(&state.tenancy, &self.client, async |tx| {
            let kind = work(tx).await?;
            Ok(JobQueue::add(tx, Some(owner), &kind).await?)
        })
        .await?;
        state.queue.announce(&self.client, &row).await;
        Ok(row)
    }
}

/// Runs `work` in one transaction in `client`'s schema; commits when `work` succeeds and rolls back when it
/// fails. For callers without a session; a handler with one uses [`ClientSession::tx`].
pub async fn in_client<T>(
    tenancy: &Tenancy,
    client: &Client,
    work: impl AsyncFnOnce(&mut TenantTx) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let mut tx = tenancy.begin(client).await?;
    let value = work(&mut tx).await?;
    tx.commit().await?;
    Ok(value)
}
