//! A CRM list's name, the same rule wherever a list is made (the Lists page, a file import).

use thiserror::Error;

/// The longest list name, in characters (the form field's limit too).
pub const LIST_NAME_MAX: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum InvalidListName {
    #[error("List name is required")]
    Missing,
    #[error("List name must be at most {LIST_NAME_MAX} characters")]
    TooLong,
}

/// A list name as stored: trimmed, present, at most [`LIST_NAME_MAX`] characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListName(String);

impl ListName {
    pub fn parse(raw: &str) -> Result<Self, InvalidListName> {
        let name = raw.trim();
        if name.is_empty() {
            Err(InvalidListName::Missing)
        } else if name.chars().count() > LIST_NAME_MAX {
            Err(InvalidListName::TooLong)
        } else {
            Ok(Self(name.to_owned()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_present_and_bounded() {
        assert_eq!(
            ListName::parse("  Donors ").map(ListName::into_string),
            Ok("Donors".to_owned())
        );
        assert_eq!(ListName::parse("   "), Err(InvalidListName::Missing));
        assert!(ListName::parse(&"é".repeat(200)).is_ok());
        assert_eq!(
            ListName::parse(&"é".repeat(201)),
            Err(InvalidListName::TooLong)
        );
    }
}
