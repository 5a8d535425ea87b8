//! The Compass HTTP server: the OpenAPI operations under `/api` and `/auth-api`, `/healthz`, `/readyz`, `/metrics` and the built SPA,
//! all on one port.

pub mod accounts;
pub mod actblue_webhook;
pub mod auth;
pub mod body_limit;
pub mod config;
pub mod csv_stream;
pub mod date_range;
pub mod delivery_webhooks;
pub mod demo;
pub mod dns;
pub mod error;
pub mod group_commit;
pub mod identity;
pub mod input_guard;
pub mod metrics;
pub mod public;
pub mod readiness;
pub mod routes;
pub mod sanitize;
pub mod schemas;
pub mod signups;
pub mod startup;
pub mod state;
pub mod tracking;
pub mod uploads;

pub use config::Settings;
pub use startup::Application;
