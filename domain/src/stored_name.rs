//! Enums whose values are stored as lower-case words in a `text` column with a check constraint: each variant
//! and its word are named once, and parsing, printing and reading a row follow from that.

/// Declares such an enum with `parse` (the word a row or a form holds, `None` for any other), `as_str`, `ALL`,
/// `Display`, and `TryFrom<String>` failing with `$error` (so sqlx reads it with `#[sqlx(try_from = "String")]`).
macro_rules! stored_name {
    (
        $(#[$meta:meta])*
        pub enum $name:ident / $error:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $word:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        #[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
        #[error("unknown {} {:?}", stringify!($name), .0)]
        pub struct $error(pub String);

        impl $name {
            pub const ALL: &'static [$name] = &[$( $name::$variant, )+];

            /// The value a form or a stored row names, as the tables write it.
            pub fn parse(raw: &str) -> Option<Self> {
                match raw {
                    $( $word => Some(Self::$variant), )+
                    _ => None,
                }
            }

            pub fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $word, )+
                }
            }
        }

        impl TryFrom<String> for $name {
            type Error = $error;

            fn try_from(raw: String) -> Result<Self, Self::Error> {
                Self::parse(&raw).ok_or($error(raw))
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub(crate) use stored_name;
