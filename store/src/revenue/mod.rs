//! Revenue: contributions and the reference codes they carry.

mod source_codes;

pub use source_codes::reparse_source_codes;

// The metric definitions as SQL over the contributions alias `c`, written once (README "Revenue metrics");
// macros so that statements built with `concat!` share them.

/// Whether a line was refunded.
#[macro_export]
macro_rules! refunded_sql {
    () => {
        "(c.refund_id is not null or c.refunded_at is not null)"
    };
}
/// A line's share of net: a refunded gift keeps nothing; a negative line (a refund row) takes its amount away.
#[macro_export]
macro_rules! net_sql {
    () => {
        "(case when c.amount > 0 and (c.refund_id is not null or c.refunded_at is not null) then 0 else c.amount end)"
    };
}
/// The donor a line belongs to: its contact, or its e-mail when it has none.
#[macro_export]
macro_rules! donor_sql {
    () => {
        "coalesce(c.contact_id::text, 'e:' || c.email)"
    };
}

pub const REFUNDED: &str = crate::refunded_sql!();
pub const NET: &str = crate::net_sql!();
pub const DONOR: &str = crate::donor_sql!();
