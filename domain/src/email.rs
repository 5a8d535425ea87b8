//! The one e-mail address type. Every address that enters the system (sign-in, registration, staff accounts,
//! the public form, imports, senders) is parsed into an [`Email`] once, at the boundary, so they all agree on
//! what an address is and on its stored form.

use email_address::{EmailAddress, Options};
use std::fmt;
use thiserror::Error;

/// The longest address that fits in the SMTP path (RFC 5321: 256 octets including the angle brackets).
const MAX_LEN: usize = 254;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("not a valid e-mail address")]
pub struct InvalidEmail;

/// An e-mail address: trimmed, lower-cased, `local@domain.tld`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Email(String);

impl Email {
    /// Parses what a person or a file gave. Surrounding blanks and one pair of enclosing angle brackets (as mail
    /// programs export addresses) are dropped; the rest must be a plain address.
    ///
    /// The syntax check is the `email_address` crate's (RFC 5322 dot-atom local part, RFC 1034 labels), without
    /// the forms that are valid on paper but only ever seen in attacks or typos here: display names, quoted local
    /// parts, domain literals (`[1.2.3.4]`), domains without a dot, and domain labels of anything but letters,
    /// digits and inner hyphens.
    pub fn parse(raw: &str) -> Result<Self, InvalidEmail> {
        let trimmed = raw.trim();
        let inner = trimmed
            .strip_prefix('<')
            .and_then(|s| s.strip_suffix('>'))
            .unwrap_or(trimmed);
        let email = Self::normalise(inner);
        if email.is_empty()
            || email.len() > MAX_LEN
            || email.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(InvalidEmail);
        }
        let options = Options::default()
            .with_required_tld()
            .without_display_text()
            .without_domain_literal();
        let parsed = EmailAddress::parse_with_options(&email, options).map_err(|_| InvalidEmail)?;
        let plain_local = !parsed.local_part().starts_with('"');
        let plain_domain = parsed
            .domain()
            .split('.')
            .all(|label| label.chars().all(|c| c.is_alphanumeric() || c == '-'));
        if plain_local && plain_domain {
            Ok(Self(email))
        } else {
            Err(InvalidEmail)
        }
    }

    /// The form addresses are stored and compared in: trimmed and lower-cased. For looking up an address that
    /// need not be valid (a sign-in attempt); anything stored goes through [`Email::parse`].
    pub fn normalise(raw: &str) -> String {
        raw.trim().to_lowercase()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Email {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<Email> for String {
    fn from(email: Email) -> Self {
        email.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(raw: &str) -> Option<String> {
        Email::parse(raw).ok().map(Email::into_string)
    }

    #[test]
    fn real_addresses_are_accepted_trimmed_and_lower_cased() {
        for (raw, stored) in [
            ("  Ann.Lee+x@Example.ORG ", "ann.lee+x@example.org"),
            ("<bob@mail.co.uk>", "bob@mail.co.uk"),
            ("o'neil@x-y.example.com", "o'neil@x-y.example.com"),
            ("zoë@exämple.de", "zoë@exämple.de"),
            ("a_b-c@sub.x123.org", "a_b-c@sub.x123.org"),
        ] {
            assert_eq!(parse(raw).as_deref(), Some(stored), "{raw:?}");
        }
    }

    #[test]
    fn the_addresses_the_review_found_accepted_are_refused() {
        for bad in [
            "<b>@x.org",
            "a;b@x.org",
            "(c)a@x.org",
            "a..b@x.org",
            "a@-x.org",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn junk_is_refused() {
        let long_local = format!("{}@x.org", "a".repeat(65));
        let long = format!("a@{}.org", "b".repeat(250));
        for bad in [
            "",
            "   ",
            "no-at-sign",
            "a@b",
            "a@@b.org",
            "a b@c.org",
            "@c.org",
            "a@.org",
            "a@b..org",
            ".a@x.org",
            "a.@x.org",
            "a@x-.org",
            "a@x_y.org",
            "\"a b\"@x.org",
            "a@[127.0.0.1]",
            "Ann <ann@x.org>",
            "a@x.org\0",
            "a\u{7}@x.org",
            "=cmd|'/c calc'!A1",
            long_local.as_str(),
            long.as_str(),
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }
}
