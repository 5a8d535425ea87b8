//! How an account proves itself after its password: the four methods the accounts tables allow.

use std::fmt;
use thiserror::Error;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TwoFactorMethod {
    /// No second step (accounts made by the operator's command, until their owner picks one).
    None,
    Email,
    Phone,
    /// An authenticator app (TOTP).
    App,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown two-factor method {0:?}")]
pub struct UnknownTwoFactorMethod(pub String);

impl TwoFactorMethod {
    /// The method a form or a stored row names, as the tables write it.
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "none" => Some(Self::None),
            "email" => Some(Self::Email),
            "phone" => Some(Self::Phone),
            "app" => Some(Self::App),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Email => "email",
            Self::Phone => "phone",
            Self::App => "app",
        }
    }
}

impl TryFrom<String> for TwoFactorMethod {
    type Error = UnknownTwoFactorMethod;

    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Self::parse(&raw).ok_or(UnknownTwoFactorMethod(raw))
    }
}

impl fmt::Display for TwoFactorMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stored_name_reads_back_and_others_are_refused() {
        for method in [
            TwoFactorMethod::None,
            TwoFactorMethod::Email,
            TwoFactorMethod::Phone,
            TwoFactorMethod::App,
        ] {
            assert_eq!(TwoFactorMethod::parse(method.as_str()), Some(method));
        }
        assert_eq!(TwoFactorMethod::parse("sms"), None);
        assert!(TwoFactorMethod::try_from("Email".to_owned()).is_err());
    }
}
