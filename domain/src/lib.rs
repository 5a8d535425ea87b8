//! Types of the product's domain that the api and the worker share: pure values, no database, no I/O.

mod email;

pub use email::{Email, InvalidEmail};
