//! Sign-in core: access tokens, password hashes, and the two security schemes every operation declares.

mod keys;
mod password;
mod schemes;
mod tenant_tx;
mod tokens;

pub use keys::{KeyError, Keys};
pub use password::{hash_password, verify_password, HashError};
pub use schemes::{
    missing_permission, realm_of, role_permissions, BasicAuth, ClientAuth, ClientSession,
    UserSession,
};
pub use tenant_tx::{in_client, Needs};
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

/// Permissions over a client's users and roles, held through roles like page permissions.
pub const CLIENT_PERMISSIONS: [&str; 2] = [VIEW_USER, EDIT_ROLE];

/// Every permission a role may hold, in the order screens list them.
pub const ALL_CLIENT_PERMISSIONS: [&str; 12] = [
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
    VIEW_USER,
    EDIT_ROLE,
];

pub const VIEW_USER: &str = "view user";
pub const PAGE_CONTACTS: &str = "pageContacts";
pub const PAGE_CONTRIBUTIONS: &str = "pageContributions";
pub const PAGE_CONTRIBUTION_SOURCE_CODES: &str = "pageContributionSourceCodes";
pub const PAGE_CONTACT_ORIGIN_CODES: &str = "pageContactOriginCodes";
pub const PAGE_SEGMENTS: &str = "pageSegments";
pub const PAGE_PLANNING: &str = "pagePlanning";
pub const PAGE_PERFORMANCE: &str = "pagePerformance";
pub const PAGE_MEDIA: &str = "pageMedia";
pub const PAGE_PROJECTIONS: &str = "pageProjections";
pub const PAGE_REPORTS: &str = "pageReports";
pub const EDIT_ROLE: &str = "edit role";

/// Universal permissions: "view user" opens Manage Universal Users.
pub const UNIVERSAL_PERMISSIONS: [&str; 1] = [VIEW_USER];
