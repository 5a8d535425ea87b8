//! Sign-in core: access tokens, password hashes, and the two security schemes every operation declares.

mod password;
mod schemes;
mod tokens;

pub use password::{hash_password, verify_password};
pub use schemes::{BasicAuth, ClientAuth, ClientSession, UserSession};
pub use tokens::{Claims, Scope, TokenError, TokenKeys, UserClaim};

/// Every page permission of the spec, in menu order.
pub const PAGE_PERMISSIONS: [&str; 10] = [
    "pageContributions",
    "pageSegments",
    "pageContactOriginCodes",
    "pageContributionSourceCodes",
    "pagePlanning",
    "pagePerformance",
    "pageContacts",
    "pageMedia",
    "pageProjections",
    "pageReports",
];

/// Universal permissions an agency administrator holds.
pub const UNIVERSAL_PERMISSIONS: [&str; 1] = ["view user"];
