//! Which mailbox provider an address belongs to: the groups a send is paced by and rates are shown for. The SQL
//! function `mailbox_provider(email)` (migration `20261206000000_deliverability.sql`) says the same; a test holds the
//! two to one answer.

use crate::stored_name::stored_name;

stored_name! {
    pub enum MailboxProvider / UnknownMailboxProvider {
        Gmail = "gmail",
        /// Yahoo and AOL (one company, one set of limits), with the ISPs whose mail Yahoo hosts.
        Yahoo = "yahoo",
        /// Outlook.com, Hotmail, Live, MSN.
        Microsoft = "microsoft",
        Other = "other",
    }
}

impl MailboxProvider {
    /// The provider of `email`, by its domain.
    pub fn of(email: &str) -> Self {
        let domain = email
            .rsplit_once('@')
            .map(|(_, d)| d.trim().to_ascii_lowercase())
            .unwrap_or_default();
        let d = domain.as_str();
        let family = |name: &str| d.starts_with(&format!("{name}."));
        match d {
            "gmail.com" | "googlemail.com" => Self::Gmail,
            "yahoo.com" | "ymail.com" | "rocketmail.com" | "aol.com" | "aim.com"
            | "verizon.net" | "att.net" | "sbcglobal.net" => Self::Yahoo,
            _ if family("yahoo") || family("aol") => Self::Yahoo,
            "outlook.com" | "hotmail.com" | "live.com" | "msn.com" | "passport.com" => {
                Self::Microsoft
            }
            _ if family("hotmail") || family("outlook") || family("live") => Self::Microsoft,
            _ => Self::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_fall_to_their_provider_by_domain() {
        assert_eq!(MailboxProvider::of("ann@Gmail.com"), MailboxProvider::Gmail);
        assert_eq!(
            MailboxProvider::of("bo@yahoo.co.uk"),
            MailboxProvider::Yahoo
        );
        assert_eq!(MailboxProvider::of("cy@aol.com"), MailboxProvider::Yahoo);
        assert_eq!(
            MailboxProvider::of("di@hotmail.fr"),
            MailboxProvider::Microsoft
        );
        assert_eq!(
            MailboxProvider::of("ed@example.org"),
            MailboxProvider::Other
        );
        assert_eq!(MailboxProvider::of("no-at-sign"), MailboxProvider::Other);
        // A domain that only ends like a provider's is not that provider.
        assert_eq!(
            MailboxProvider::of("fa@notgmail.com"),
            MailboxProvider::Other
        );
    }
}
