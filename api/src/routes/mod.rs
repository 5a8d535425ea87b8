//! The OpenAPI operations, one module per area. Every operation names its `operation_id`: the generated web
//! client's hook names come from them.

pub mod auth;
pub mod contacts;
pub mod dashboard;
pub mod deliverability;
pub mod delivery_webhooks;
pub mod email_analytics;
pub mod experiments;
pub mod external_mailings;
pub mod forms;
pub mod health;
pub mod imports;
pub mod jobs;
pub mod journeys;
pub mod list_members;
pub mod lists;
pub mod mailings;
pub mod media;
pub mod origin_codes;
pub mod planning;
pub mod portfolio;
pub mod projections;
pub mod reports;
pub mod retention;
pub mod revenue;
pub mod segments;
pub mod sender_domains;
pub mod session;
pub mod settings;
pub mod suppressions;
pub mod tracking;
pub mod universal_users;
pub mod users;
pub mod workers;

use crate::error::ApiError;
use poem_openapi::{ApiResponse, OpenApiService, Tags};
use tenancy::Client;

#[derive(Tags)]
pub enum ApiTags {
    /// Sign-in and session
    Auth,
    /// Users, roles and permissions
    Users,
    /// App settings of the current client
    Settings,
    /// Background jobs of the current client
    Jobs,
    /// CRM lists, contact origin codes and imports
    Lists,
    /// Contacts
    Contacts,
    /// Lead-capture forms and their signups
    Forms,
    /// Mailings, templates and senders
    Mailings,
    /// Journeys: series of e-mails and steps that run by themselves
    Journeys,
    /// Public open, click and unsubscribe links from delivered mail
    Tracking,
    /// Contributions, source codes and the value of origin codes
    Revenue,
    /// Flights: the performance of sent mailings by variant and segment
    Performance,
    /// Segments: rule-based sets of contacts, their members and figures
    Segments,
    /// Media: ads, their spend and what it brought in
    Media,
    /// Projections, goals and pacing
    Projections,
    /// Built-in reports, their files and schedules; the dashboard
    Reports,
    /// Suppressions, delivery evidence and the rates that guard the sender
    Deliverability,
    /// Service health
    Health,
}

pub type Apis = (
    (
        auth::SignInApi,
        auth::RegistrationApi,
        auth::PasswordResetApi,
        auth::TokensApi,
    ),
    (
        session::SessionApi,
        session::ProfileApi,
        session::AuthenticatorApi,
    ),
    (users::UsersApi, users::RolesApi, users::AuditEventsApi),
    universal_users::UniversalUsersApi,
    (
        settings::SettingsApi,
        deliverability::pacing::PacingApi,
        deliverability::rates::RatesApi,
        delivery_webhooks::DeliveryWebhooksApi,
        sender_domains::SenderDomainsApi,
    ),
    (jobs::JobsApi, workers::WorkersApi),
    (lists::ListsApi, list_members::ListMembersApi),
    imports::ImportsApi,
    origin_codes::OriginCodesApi,
    contacts::ContactsApi,
    forms::FormsApi,
    (
        mailings::TemplatesApi,
        mailings::SendersApi,
        mailings::MailingsApi,
        mailings::flights::FlightsApi,
        planning::PlanningApi,
        email_analytics::EmailAnalyticsApi,
        external_mailings::ExternalMailingsApi,
        experiments::ExperimentsApi,
        journeys::JourneysApi,
        journeys::JourneyRunsApi,
    ),
    // poem-openapi implements its trait for tuples of at most 16: the analytics areas share one tuple, and an
    // area with several APIs is nested inside it.
    (
        (
            revenue::contributions::ContributionsApi,
            revenue::giving::RevenueSelectionApi,
            revenue::source_codes::SourceCodesApi,
            revenue::imports::ContributionImportsApi,
            retention::RetentionApi,
        ),
        segments::SegmentsApi,
        (media::MediaApi, projections::ProjectionsApi),
        (
            reports::ReportsApi,
            reports::ReportSchedulesApi,
            dashboard::DashboardApi,
            portfolio::PortfolioApi,
        ),
    ),
    (tracking::TrackingApi, suppressions::SuppressionsApi),
    health::HealthApi,
);

/// The whole OpenAPI service. Paths are absolute (`/api/…`, `/auth-api/…`) so the document matches the URLs.
pub fn service() -> OpenApiService<Apis, ()> {
    OpenApiService::new(
        (
            (
                auth::SignInApi,
                auth::RegistrationApi,
                auth::PasswordResetApi,
                auth::TokensApi,
            ),
            (
                session::SessionApi,
                session::ProfileApi,
                session::AuthenticatorApi,
            ),
            (
                users::UsersApi,
                users::RolesApi,
                users::AuditEventsApi,
            ),
            universal_users::UniversalUsersApi,
            (
                settings::SettingsApi,
                deliverability::pacing::PacingApi,
                deliverability::rates::RatesApi,
                delivery_webhooks::DeliveryWebhooksApi,
                sender_domains::SenderDomainsApi,
            ),
            (jobs::JobsApi, workers::WorkersApi),
            (lists::ListsApi, list_members::ListMembersApi),
            imports::ImportsApi,
            origin_codes::OriginCodesApi,
            contacts::ContactsApi,
            forms::FormsApi,
            (
                mailings::TemplatesApi,
                mailings::SendersApi,
                mailings::MailingsApi,
                mailings::flights::FlightsApi,
                planning::PlanningApi,
                email_analytics::EmailAnalyticsApi,
                external_mailings::ExternalMailingsApi,
                experiments::ExperimentsApi,
                journeys::JourneysApi,
                journeys::JourneyRunsApi,
            ),
            (
                (
                    revenue::contributions::ContributionsApi,
                    revenue::giving::RevenueSelectionApi,
                    revenue::source_codes::SourceCodesApi,
                    revenue::imports::ContributionImportsApi,
            retention::RetentionApi,
                ),
                segments::SegmentsApi,
                (media::MediaApi, projections::ProjectionsApi),
                (
                    reports::ReportsApi,
                    reports::ReportSchedulesApi,
                    dashboard::DashboardApi,
                    portfolio::PortfolioApi,
                ),
            ),
            (tracking::TrackingApi, suppressions::SuppressionsApi),
            health::HealthApi,
        ),
        "Compass",
        env!("CARGO_PKG_VERSION"),
    )
    .description(
        "Every /api operation needs `Authorization: Bearer <client token>` and the headers `client-short` and \
         `client-id` naming the token's client. Errors are JSON `{\"message\": …}`.",
    )
}

/// The document as checked in at `openapi/openapi.json`.
pub fn spec_json() -> String {
    service().spec()
}

/// The answer to a successful DELETE.
#[derive(ApiResponse)]
pub enum Deleted {
    #[oai(status = 204)]
    Deleted,
}

/// Deletes the row `id` of one of the client's tables, or answers 404 with `not_found`. `table` is always a
/// literal from the code, never input.
pub(crate) async fn delete_by_id(
    state: &crate::state::AppState,
    client: &Client,
    table: &'static str,
    id: i64,
    not_found: &str,
) -> Result<Deleted, ApiError> {
    crate::auth::in_client(&state.tenancy, client, async |tx| {
        if !store::delete_by_id(tx, table, id).await? {
            return Err(ApiError::NotFound(not_found.to_owned()));
        }
        Ok(Deleted::Deleted)
    })
    .await
}
