//! A secret read from configuration. It goes where it is needed through `expose`, and `Debug` never shows it, so
//! printing a settings struct (or a clap error about one) cannot leak it into a log.

use std::convert::Infallible;
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() {
            "Secret(empty)"
        } else {
            "Secret(redacted)"
        })
    }
}

impl From<&str> for Secret {
    fn from(s: &str) -> Self {
        Self(s.to_owned())
    }
}

impl From<String> for Secret {
    fn from(s: String) -> Self {
        Self(s)
    }
}

impl FromStr for Secret {
    type Err = Infallible;
    fn from_str(s: &str) -> Result<Self, Infallible> {
        Ok(Self(s.to_owned()))
    }
}

/// A connection URL with its password replaced, for `Debug` output of settings.
pub fn redact_url(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            // Setting a password only fails on URLs that cannot have one, and this one has one.
            let _ = parsed.set_password(Some("redacted"));
            parsed.to_string()
        }
        Ok(_) => url.to_owned(),
        // Unparseable: it may still hold a password, so show nothing of it.
        Err(_) => "(unparseable url)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_do_not_print_in_debug() {
        let secret = Secret::from("hunter2-hunter2");
        assert_eq!(format!("{secret:?}"), "Secret(redacted)");
        assert_eq!(secret.expose(), "hunter2-hunter2");
        assert_eq!(
            redact_url("smtp://mailer:hunter2@mail.example:587"),
            "smtp://mailer:redacted@mail.example:587"
        );
        assert_eq!(
            redact_url("redis://127.0.0.1:6379"),
            "redis://127.0.0.1:6379"
        );
    }
}
