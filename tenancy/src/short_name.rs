use crate::TenancyError;
use std::fmt;

/// A client's short name, validated once so every use of it (headers, tokens, schema names) can trust it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClientShort(String);

impl ClientShort {
    pub fn parse(raw: &str) -> Result<Self, TenancyError> {
        let ok = (2..=31).contains(&raw.len())
            && raw.starts_with(|c: char| c.is_ascii_lowercase())
            && raw
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if ok {
            Ok(Self(raw.to_owned()))
        } else {
            Err(TenancyError::InvalidShortName(raw.to_owned()))
        }
    }

    /// The schema that holds this client's data. Derived here and nowhere else.
    pub fn schema_name(&self) -> String {
        format!("client_{}", self.0)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ClientShort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_plain_short_names() {
        let short = ClientShort::parse("acme_2026").unwrap();
        assert_eq!(short.schema_name(), "client_acme_2026");
    }

    #[test]
    fn refuses_anything_that_could_escape_an_identifier() {
        for bad in [
            "",
            "a",
            "Acme",
            "1acme",
            "acme-x",
            "acme;drop",
            "a\"b",
            "acme x",
            &"a".repeat(32),
        ] {
            assert!(ClientShort::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
