/// Lower-cases and trims an address and checks its shape (local@domain.tld, no spaces, at most 254 characters).
/// Deliverability is the sender's business; this only keeps obvious junk out of the contacts table.
pub fn normalize_email(raw: &str) -> Option<String> {
    let email = raw
        .trim()
        .trim_matches(|c| c == '<' || c == '>')
        .to_lowercase();
    if email.is_empty()
        || email.len() > 254
        || email.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return None;
    }
    let (local, domain) = email.split_once('@')?;
    let ok = !local.is_empty()
        && local.len() <= 64
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
        && domain
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '.');
    ok.then_some(email)
}

#[cfg(test)]
mod tests {
    use super::normalize_email;

    #[test]
    fn accepts_and_normalizes_real_addresses() {
        assert_eq!(
            normalize_email("  Ann.Lee+x@Example.ORG ").as_deref(),
            Some("ann.lee+x@example.org")
        );
        assert_eq!(
            normalize_email("<bob@mail.co.uk>").as_deref(),
            Some("bob@mail.co.uk")
        );
    }

    #[test]
    fn refuses_junk() {
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
            "=cmd|'/c calc'!A1",
        ] {
            assert_eq!(normalize_email(bad), None, "{bad:?}");
        }
    }
}
