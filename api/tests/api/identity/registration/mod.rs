//! Registering a client user: the way from registration to signing in and being disabled, the spec's rules, the
//! limits that make enumeration slow, and an address a universal user already has.

use super::*;

mod lifecycle;
mod limits;
mod rules;
mod universal_address;
