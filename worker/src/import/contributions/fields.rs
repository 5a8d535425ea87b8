//! The columns of a contributions file: the platforms' headers, a user's mapping, and which are required.

use super::*;

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

    /// The value of `contributions.platform`.
    pub(super) fn stored(self) -> &'static str {
        match self {
            Self::Actblue => "actblue",
            Self::Winred => "winred",
            Self::Mapped => "other",
        }
    }

    /// "an ActBlue", "a WinRed": how errors name the export.
    pub(super) fn export_name(self) -> &'static str {
        match self {
            Self::Actblue => "an ActBlue",
            Self::Winred => "a WinRed",
            Self::Mapped => "a mapped",
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

    /// Header names (letters and digits, lower case) an export profile knows the field by, best first.
    pub(super) fn aliases(self, platform: Platform) -> &'static [&'static str] {
        match (platform, self) {
            (Platform::Actblue, f) => match f {
                Self::LineItemId => &["lineitemid"],
                Self::ReceiptId => &["receiptid"],
                Self::Date => &["date"],
                Self::Amount => &["amount"],
                Self::Fee => &["fee"],
                Self::Email => &["donoremail"],
                Self::FirstName => &["donorfirstname"],
                Self::LastName => &["donorlastname"],
                Self::Zip => &["donorzip"],
                Self::State => &["donorstate"],
                Self::Phone => &["donorphone"],
                Self::RecurringMonths => &["recurringtotalmonths"],
                Self::RecurrenceNumber => &["recurrencenumber"],
                Self::Refcode => &["referencecode"],
                Self::Refcode2 => &["referencecode2"],
                Self::FundraisingPage => &["fundraisingpage"],
                Self::RefundId => &["refundid"],
                Self::RefundDate => &["refunddate"],
                Self::AbTestName => &["abtestname"],
                Self::AbVariation => &["abvariation"],
                Self::Mobile => &["mobile"],
                Self::ExpressSignup => &["expresssignup"],
                Self::Kind | Self::RefundedLineItemId => &[],
            },
            (_, f) => match f {
                Self::LineItemId => &[
                    "transactionid",
                    "donationid",
                    "contributionid",
                    "lineitemid",
                    "id",
                ],
                Self::ReceiptId => &["receiptid", "orderid"],
                Self::Date => &["date", "transactiondate", "donationdate", "createdat"],
                Self::Amount => &["amount", "gross", "donationamount", "grossamount"],
                Self::Fee => &["fee", "fees", "processingfee"],
                Self::Email => &["email", "donoremail", "emailaddress"],
                Self::FirstName => &["firstname", "donorfirstname"],
                Self::LastName => &["lastname", "donorlastname"],
                Self::Zip => &["zip", "zipcode", "postalcode", "donorzip"],
                Self::State => &["state", "donorstate"],
                Self::Phone => &["phone", "phonenumber", "donorphone"],
                Self::RecurringMonths => &["recurringtotalmonths", "recurringmonths"],
                Self::RecurrenceNumber => &["recurrencenumber"],
                Self::Refcode => &["sourcecode", "referencecode", "refcode"],
                Self::Refcode2 => &["sourcecode2", "referencecode2", "refcode2"],
                Self::FundraisingPage => &["pagename", "donationpage", "page", "fundraisingpage"],
                Self::RefundId => &["refundid"],
                Self::RefundDate => &["refunddate"],
                Self::AbTestName => &["abtestname"],
                Self::AbVariation => &["abvariation"],
                Self::Mobile => &["mobile"],
                Self::ExpressSignup => &["expresssignup"],
                Self::Kind => &["type", "transactiontype"],
                Self::RefundedLineItemId => &[
                    "originaltransactionid",
                    "refundedtransactionid",
                    "originaldonationid",
                ],
            },
        }
    }
}

pub(super) const REQUIRED: [GiftField; 3] =
    [GiftField::LineItemId, GiftField::Date, GiftField::Amount];

pub(super) fn normalize_header(h: &str) -> String {
    h.trim_start_matches('\u{feff}')
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_lowercase()
}

/// Column index of each field, from the header row. The first column of a name wins (`Reserved` repeats).
pub(super) fn resolve(
    plan: &ContributionPlan,
    header: &[String],
) -> Result<BTreeMap<GiftField, usize>, JobError> {
    let normalized: Vec<String> = header.iter().map(|h| normalize_header(h)).collect();
    let mut found = BTreeMap::new();
    if plan.platform == Platform::Mapped {
        for (column, field) in &plan.mapping {
            let key = normalize_header(column);
            let i = normalized
                .iter()
                .position(|h| *h == key)
                .ok_or_else(|| JobError::BadFile(format!("The file has no column '{column}'")))?;
            found.insert(*field, i);
        }
    } else {
        for field in GiftField::ALL {
            let hit = field
                .aliases(plan.platform)
                .iter()
                .find_map(|alias| normalized.iter().position(|h| h == alias));
            if let Some(i) = hit {
                found.insert(field, i);
            }
        }
    }
    let missing: Vec<&str> = REQUIRED
        .iter()
        .filter(|f| !found.contains_key(f))
        .map(|f| f.label())
        .collect();
    if !missing.is_empty() {
        let what = if plan.platform == Platform::Mapped {
            "Map a column to".to_owned()
        } else {
            format!(
                "This is not {} contributions export: it has no column",
                plan.platform.export_name()
            )
        };
        return Err(JobError::BadFile(format!(
            "{what} {}",
            missing
                .iter()
                .map(|m| format!("'{m}'"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(found)
}
