//! The payload of a contributions import (ActBlue and WinRed exports, or any file with a user's column mapping).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Everything a contributions import needs, stored as the job's payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContributionPlan {
    pub upload_id: i64,
    pub filename: String,
    pub platform: Platform,
    /// For `Mapped`: file column header → field.
    #[serde(default)]
    pub mapping: BTreeMap<String, GiftField>,
}

/// Where the file comes from; decides how its columns are found and what a negative amount means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Platform {
    Actblue,
    Winred,
    /// Any other platform's file, read through the user's column mapping.
    Mapped,
}

impl Platform {
    pub fn from_id(id: &str) -> Option<Self> {
        match id.trim().to_ascii_lowercase().as_str() {
            "actblue" => Some(Self::Actblue),
            "winred" => Some(Self::Winred),
            "mapped" | "other" => Some(Self::Mapped),
            _ => None,
        }
    }
}

/// What a column of a contributions file feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GiftField {
    LineItemId,
    ReceiptId,
    Date,
    Amount,
    Fee,
    Email,
    FirstName,
    LastName,
    Zip,
    State,
    Phone,
    RecurringMonths,
    RecurrenceNumber,
    Refcode,
    Refcode2,
    FundraisingPage,
    RefundId,
    RefundDate,
    AbTestName,
    AbVariation,
    Mobile,
    ExpressSignup,
    /// WinRed's transaction type (Donation, Refund, Dispute, Payout).
    Kind,
    /// The line a refund or chargeback row takes money back from, when the export names it.
    RefundedLineItemId,
}

impl GiftField {
    pub const ALL: [GiftField; 24] = [
        GiftField::LineItemId,
        GiftField::ReceiptId,
        GiftField::Date,
        GiftField::Amount,
        GiftField::Fee,
        GiftField::Email,
        GiftField::FirstName,
        GiftField::LastName,
        GiftField::Zip,
        GiftField::State,
        GiftField::Phone,
        GiftField::RecurringMonths,
        GiftField::RecurrenceNumber,
        GiftField::Refcode,
        GiftField::Refcode2,
        GiftField::FundraisingPage,
        GiftField::RefundId,
        GiftField::RefundDate,
        GiftField::AbTestName,
        GiftField::AbVariation,
        GiftField::Mobile,
        GiftField::ExpressSignup,
        GiftField::Kind,
        GiftField::RefundedLineItemId,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Self::LineItemId => "line_item_id",
            Self::ReceiptId => "receipt_id",
            Self::Date => "date",
            Self::Amount => "amount",
            Self::Fee => "fee",
            Self::Email => "email",
            Self::FirstName => "first_name",
            Self::LastName => "last_name",
            Self::Zip => "zip",
            Self::State => "state",
            Self::Phone => "phone",
            Self::RecurringMonths => "recurring_months",
            Self::RecurrenceNumber => "recurrence_number",
            Self::Refcode => "refcode",
            Self::Refcode2 => "refcode2",
            Self::FundraisingPage => "fundraising_page",
            Self::RefundId => "refund_id",
            Self::RefundDate => "refund_date",
            Self::AbTestName => "ab_test_name",
            Self::AbVariation => "ab_variation",
            Self::Mobile => "mobile",
            Self::ExpressSignup => "express_signup",
            Self::Kind => "type",
            Self::RefundedLineItemId => "refunded_line_item_id",
        }
    }

    /// The name errors use (ActBlue's header where it has one).
    pub fn label(self) -> &'static str {
        match self {
            Self::LineItemId => "Lineitem ID",
            Self::ReceiptId => "Receipt ID",
            Self::Date => "Date",
            Self::Amount => "Amount",
            Self::Fee => "Fee",
            Self::Email => "Donor Email",
            Self::FirstName => "Donor First Name",
            Self::LastName => "Donor Last Name",
            Self::Zip => "Donor ZIP",
            Self::State => "Donor State",
            Self::Phone => "Donor Phone",
            Self::RecurringMonths => "Recurring Total Months",
            Self::RecurrenceNumber => "Recurrence Number",
            Self::Refcode => "Reference Code",
            Self::Refcode2 => "Reference Code 2",
            Self::FundraisingPage => "Fundraising Page",
            Self::RefundId => "Refund ID",
            Self::RefundDate => "Refund Date",
            Self::AbTestName => "AB Test Name",
            Self::AbVariation => "AB Variation",
            Self::Mobile => "Mobile",
            Self::ExpressSignup => "Express Signup",
            Self::Kind => "Type",
            Self::RefundedLineItemId => "Refunded line item",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.id() == id)
    }
}
