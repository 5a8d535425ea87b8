//! The two kinds of user: agency staff (universal users, in `public`) and a client's own users (in its schema).

use serde::{Deserialize, Serialize};

/// Which home an account lives in; access tokens carry it as `user.kind`, audit rows and role grants as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UserKind {
    Universal,
    Client,
}

impl UserKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Universal => "universal",
            Self::Client => "client",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_name_the_kind_in_lower_case() {
        assert_eq!(
            serde_json::to_string(&UserKind::Client).unwrap(),
            "\"client\""
        );
        let kind: UserKind = serde_json::from_str("\"universal\"").unwrap();
        assert_eq!(kind, UserKind::Universal);
        assert!(serde_json::from_str::<UserKind>("\"admin\"").is_err());
    }
}
