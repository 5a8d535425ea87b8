use crate::auth::TokenKeys;
use crate::public::PublicForms;
use crate::signups::SignupWriter;
use redis::aio::ConnectionManager;
use std::sync::Arc;
use tenancy::Tenancy;
use worker::JobQueue;

/// What every request may use. Handlers reach the database only through `tenancy` (a tenant or public
/// transaction), never through a bare pool.
pub struct AppState {
    pub tenancy: Tenancy,
    pub queue: JobQueue,
    pub redis: ConnectionManager,
    pub tokens: TokenKeys,
    pub public: PublicForms,
    pub signups: SignupWriter,
    pub mailer: worker::mail::Mailer,
    pub links: worker::mail::links::LinkSigner,
    pub tracking: crate::tracking::EventBuffer,
    pub provider_name: String,
    pub google_client_id: Option<String>,
}

pub type SharedState = Arc<AppState>;
