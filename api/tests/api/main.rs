#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Integration tests: the real api on port 0 against real Postgres and Redis; each test makes its own clients
//! (schemas), users and job queue, so tests run in parallel without meeting.

mod helpers;

mod imports;

mod journeys;

mod contributions_import;

mod actblue_refunds;

mod auth;
mod contacts_scale;
mod conventions;
mod dashboard;
mod deliverability;
mod demo;
mod email_addresses;
mod email_analytics;
mod email_list_rollup;
mod experiments;
mod external_mailings;
mod flight_gifts;
mod flights;
mod form_limits;
mod form_style;
mod forms;
mod hardening;
mod identity;
mod jobs;
mod list_members;
mod lists;
mod liveness;
mod mailing_audiences;
mod mailings;
mod media;
mod metrics;
mod one_truth;
mod planning;
mod portfolio;
mod readiness;
mod reports;
mod restarts;
mod retention;
mod revenue;
mod segments;
mod settings;
mod tenancy_isolation;
mod unique_names;
