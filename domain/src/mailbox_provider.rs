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

    /// The provider whose servers an MX host belongs to: Google (Gmail and Workspace), Microsoft (Outlook.com and
    /// Microsoft 365, `*.mail.protection.outlook.com`) or Yahoo; any other host (a filtering gateway, the
    /// domain's own server) is other.
    pub fn of_mx_host(host: &str) -> Self {
        let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
        let under = |zone: &str| host == zone || host.ends_with(&format!(".{zone}"));
        if under("google.com") || under("googlemail.com") {
            Self::Gmail
        } else if under("outlook.com") {
            Self::Microsoft
        } else if under("yahoodns.net") {
            Self::Yahoo
        } else {
            Self::Other
        }
    }

    /// The provider of a domain by its MX records (preference, host): that of its most preferred hosts, since
    /// they are where mail is handed over. Equally preferred hosts of one provider and others (a backup
    /// gateway) count as that provider; hosts of two providers at once, or none, are other.
    pub fn of_mx(records: &[(u16, String)]) -> Self {
        let Some(best) = records.iter().map(|(preference, _)| *preference).min() else {
            return Self::Other;
        };
        let mut named = records
            .iter()
            .filter(|(preference, _)| *preference == best)
            .map(|(_, host)| Self::of_mx_host(host))
            .filter(|p| *p != Self::Other);
        match named.next() {
            Some(first) if named.all(|p| p == first) => first,
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

    fn mx(records: &[(u16, &str)]) -> MailboxProvider {
        let records: Vec<(u16, String)> =
            records.iter().map(|(p, h)| (*p, h.to_string())).collect();
        MailboxProvider::of_mx(&records)
    }

    #[test]
    fn custom_domains_fall_to_the_provider_of_their_mx_hosts() {
        use MailboxProvider::*;
        assert_eq!(MailboxProvider::of_mx_host("aspmx.l.google.com."), Gmail);
        assert_eq!(MailboxProvider::of_mx_host("SMTP.Google.com"), Gmail);
        assert_eq!(
            MailboxProvider::of_mx_host("alt1.gmr-smtp-in.l.googlemail.com"),
            Gmail
        );
        assert_eq!(
            MailboxProvider::of_mx_host("example-org.mail.protection.outlook.com"),
            Microsoft
        );
        assert_eq!(
            MailboxProvider::of_mx_host("hotmail-com.olc.protection.outlook.com"),
            Microsoft
        );
        assert_eq!(MailboxProvider::of_mx_host("mta6.am0.yahoodns.net"), Yahoo);
        // Only whole labels count: a host that merely ends like Google's is someone else's.
        assert_eq!(MailboxProvider::of_mx_host("mx.notgoogle.com"), Other);
        assert_eq!(MailboxProvider::of_mx_host("google.com.example.org"), Other);
        assert_eq!(MailboxProvider::of_mx_host("mx1.example.org"), Other);

        // Google Workspace and Microsoft 365 domains.
        assert_eq!(
            mx(&[(10, "alt1.aspmx.l.google.com"), (1, "aspmx.l.google.com")]),
            Gmail
        );
        assert_eq!(
            mx(&[(0, "example-org.mail.protection.outlook.com")]),
            Microsoft
        );
        // A filtering gateway in front of Microsoft 365 receives the mail: other.
        assert_eq!(
            mx(&[
                (5, "mx.gateway.example"),
                (10, "example-org.mail.protection.outlook.com")
            ]),
            Other
        );
        // A backup of the same preference beside Google's hosts does not change the answer.
        assert_eq!(
            mx(&[(1, "aspmx.l.google.com"), (1, "backup.example.org")]),
            Gmail
        );
        // Two providers at once, a null MX (RFC 7505) or no MX at all: other.
        assert_eq!(
            mx(&[(1, "aspmx.l.google.com"), (1, "mta5.am0.yahoodns.net")]),
            Other
        );
        assert_eq!(mx(&[(0, "")]), Other);
        assert_eq!(mx(&[]), Other);
    }
}
