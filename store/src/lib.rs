//! The client data: one module per area, each holding that area's types and its SQL.
//!
//! The api's handlers parse, check permissions, call a function here and shape the answer; the worker's jobs call
//! the same functions. A rule about the data (which contacts a list holds, what a figure means) is written once —
//! here, or as a view or function in `migrations/tenant` that these functions read.
//!
//! Every function takes the caller's `&mut PgConnection`: a `tenancy::TenantTx` derefs to one whose search path
//! is already the client's schema, so nothing here can name or reach another client.

pub mod dashboard;
pub mod email_analytics;
pub mod experiments;
pub mod external_mailings;
pub mod flights;
pub mod lists;
pub mod mailings;
pub mod media;
pub mod planning;
pub mod projections;
pub mod reports;
pub mod revenue;
pub mod segments;
