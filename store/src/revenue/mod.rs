//! Revenue: contributions and the reference codes they carry.

mod attribution;
pub mod codes;
pub mod contributions;
pub mod gifts;
mod range;
mod source_codes;
pub mod webhook;

pub use attribution::attribute;
pub use range::{plan_for_the_range, range, Range};
pub use source_codes::reparse_source_codes;

// The metric definitions as SQL over the contributions alias `c`, written once (docs/metrics.md);
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
/// Distinct donors among the positive lines. A line's donor is its contact, or its e-mail when it has none (the
/// key `donor_firsts` stores as `coalesce(contact_id::text, 'e:' || email)`); the two kinds never meet, so this
/// is that key's distinct count, but two counts over a bigint and a few contact-less e-mails sort several times
/// faster than one over text.
#[macro_export]
macro_rules! donors_sql {
    () => {
        "(count(distinct c.contact_id) filter (where c.amount > 0)
          + count(distinct c.email) filter (where c.amount > 0 and c.contact_id is null))"
    };
}

/// Ranges shorter than this many days read the gifts of the range's new contacts one contact at a time through
/// the contact index; longer ranges join them in one pass over the gifts. At 1,000,000 contacts / 3,000,000 gifts
/// a month's 25,000 new contacts took 0.2 s one by one against 1.3 s for the pass, a year's 300,000 the other
/// way round (docs/dashboard.md).
pub const PROBE_RANGE_DAYS: i64 = 92;

pub const REFUNDED: &str = crate::refunded_sql!();
pub const NET: &str = crate::net_sql!();
pub const DONORS: &str = crate::donors_sql!();
