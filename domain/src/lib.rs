//! Types of the product's domain that the api and the worker share: pure values, no database, no I/O.

mod email;
pub mod journey;
mod list_name;
mod mailbox_provider;
mod money;
mod refcode;
mod status;
mod stored_name;
mod two_factor;
mod user_kind;
pub mod when;

pub use email::{Email, InvalidEmail};
pub use list_name::{InvalidListName, ListName, LIST_NAME_MAX};
pub use mailbox_provider::{MailboxProvider, UnknownMailboxProvider};
pub use money::{InvalidMoney, Money};
pub use refcode::{CodePattern, ParsedCode};
pub use status::{
    DeliveryStatus, SubscriptionStatus, UnknownDeliveryStatus, UnknownSubscriptionStatus,
};
pub use two_factor::{TwoFactorMethod, UnknownTwoFactorMethod};
pub use user_kind::UserKind;
