//! The columns of a contact file: what each feeds and how they are found.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a column of the file feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    Email,
    FirstName,
    LastName,
    Phone,
    Vanid,
    OriginCode,
    DateCreated,
}

impl Field {
    pub const ALL: [Field; 7] = [
        Field::Email,
        Field::FirstName,
        Field::LastName,
        Field::Phone,
        Field::Vanid,
        Field::OriginCode,
        Field::DateCreated,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Field::Email => "email",
            Field::FirstName => "first_name",
            Field::LastName => "last_name",
            Field::Phone => "phone",
            Field::Vanid => "vanid",
            Field::OriginCode => "origin_code",
            Field::DateCreated => "date_created",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Field::Email => "Email",
            Field::FirstName => "First name",
            Field::LastName => "Last name",
            Field::Phone => "Phone",
            Field::Vanid => "VANID",
            Field::OriginCode => "Origin code",
            Field::DateCreated => "Date created",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.id() == id)
    }
}

/// How the file's columns are found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Columns {
    /// A list upload: an 'Email' column is required (case and spacing forgiven); First/Last are taken if present.
    Contacts,
    /// An NGP saved list: VANID, First, Last, Date Created, OriginCodeName and PreferredEmail are all required.
    Ngp,
    /// A user's mapping of file column headers to fields.
    Mapped { mapping: BTreeMap<String, Field> },
}
