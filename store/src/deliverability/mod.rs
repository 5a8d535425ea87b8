//! Deliverability: what is heard back about a send (one event model for the SMTP conversation, bounce messages,
//! feedback reports, relays' webhooks and unsubscribes), what it does to the suppression list and the contacts, and
//! the rates that guard the sender.
//!
//! Every way an event arrives ends in [`events::record`]: it stores the events once each (a provider's event id
//! delivered twice changes nothing) and applies the suppression rules to the new ones only, in the same
//! transaction.

pub mod events;
pub mod guard;
pub mod pacing;
pub mod rates;
pub mod sender_domains;
pub mod suppressions;
pub mod warmup;
pub mod webhooks;

pub use events::{record, store_evidence, store_evidence_many, Kind, NewEvent, Recorded, Source};
