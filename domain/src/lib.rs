//! Types of the product's domain that the api and the worker share: pure values, no database, no I/O.

mod email;
mod refcode;

pub use email::{Email, InvalidEmail};
pub use refcode::{CodePattern, ParsedCode};
