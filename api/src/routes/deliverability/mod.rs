//! Deliverability settings and figures of the current client.

pub mod pacing;
pub mod rates;
