//! The DNS resolver of the domain check: the nameserver of `DNS_RESOLVER` (ip:port), or the system's when unset.
//! It lives in the mail crate because the worker asks the same resolver for recipients' MX hosts.

pub use mail::dns::{Dns, DnsConfigError, Txt};
