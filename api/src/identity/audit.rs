//! The audit trail: sign-ins and changes to users, roles and permissions, written in the same transaction as the
//! change they describe.

pub use store::audit::{record, Actor};
