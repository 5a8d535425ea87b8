//! The columns of a contributions file: the platforms' headers, a user's mapping, and which are required.

use super::*;

/// The value of `contributions.platform`.
pub(super) fn stored(platform: Platform) -> &'static str {
    match platform {
        Platform::Actblue => "actblue",
        Platform::Winred => "winred",
        Platform::Mapped => "other",
    }
}

/// "an ActBlue", "a WinRed": how errors name the export.
fn export_name(platform: Platform) -> &'static str {
    match platform {
        Platform::Actblue => "an ActBlue",
        Platform::Winred => "a WinRed",
        Platform::Mapped => "a mapped",
    }
}

/// Header names (letters and digits, lower case) an export profile knows the field by, best first.
pub(super) fn aliases(field: GiftField, platform: Platform) -> &'static [&'static str] {
    match (platform, field) {
        (Platform::Actblue, f) => match f {
            GiftField::LineItemId => &["lineitemid"],
            GiftField::ReceiptId => &["receiptid"],
            GiftField::Date => &["date"],
            GiftField::Amount => &["amount"],
            GiftField::Fee => &["fee"],
            GiftField::Email => &["donoremail"],
            GiftField::FirstName => &["donorfirstname"],
            GiftField::LastName => &["donorlastname"],
            GiftField::Zip => &["donorzip"],
            GiftField::State => &["donorstate"],
            GiftField::Phone => &["donorphone"],
            GiftField::RecurringMonths => &["recurringtotalmonths"],
            GiftField::RecurrenceNumber => &["recurrencenumber"],
            GiftField::Refcode => &["referencecode"],
            GiftField::Refcode2 => &["referencecode2"],
            GiftField::FundraisingPage => &["fundraisingpage"],
            GiftField::RefundId => &["refundid"],
            GiftField::RefundDate => &["refunddate"],
            GiftField::AbTestName => &["abtestname"],
            GiftField::AbVariation => &["abvariation"],
            GiftField::Mobile => &["mobile"],
            GiftField::ExpressSignup => &["expresssignup"],
            GiftField::Kind | GiftField::RefundedLineItemId => &[],
        },
        (_, f) => match f {
            GiftField::LineItemId => &[
                "transactionid",
                "donationid",
                "contributionid",
                "lineitemid",
                "id",
            ],
            GiftField::ReceiptId => &["receiptid", "orderid"],
            GiftField::Date => &["date", "transactiondate", "donationdate", "createdat"],
            GiftField::Amount => &["amount", "gross", "donationamount", "grossamount"],
            GiftField::Fee => &["fee", "fees", "processingfee"],
            GiftField::Email => &["email", "donoremail", "emailaddress"],
            GiftField::FirstName => &["firstname", "donorfirstname"],
            GiftField::LastName => &["lastname", "donorlastname"],
            GiftField::Zip => &["zip", "zipcode", "postalcode", "donorzip"],
            GiftField::State => &["state", "donorstate"],
            GiftField::Phone => &["phone", "phonenumber", "donorphone"],
            GiftField::RecurringMonths => &["recurringtotalmonths", "recurringmonths"],
            GiftField::RecurrenceNumber => &["recurrencenumber"],
            GiftField::Refcode => &["sourcecode", "referencecode", "refcode"],
            GiftField::Refcode2 => &["sourcecode2", "referencecode2", "refcode2"],
            GiftField::FundraisingPage => &["pagename", "donationpage", "page", "fundraisingpage"],
            GiftField::RefundId => &["refundid"],
            GiftField::RefundDate => &["refunddate"],
            GiftField::AbTestName => &["abtestname"],
            GiftField::AbVariation => &["abvariation"],
            GiftField::Mobile => &["mobile"],
            GiftField::ExpressSignup => &["expresssignup"],
            GiftField::Kind => &["type", "transactiontype"],
            GiftField::RefundedLineItemId => &[
                "originaltransactionid",
                "refundedtransactionid",
                "originaldonationid",
            ],
        },
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
            let hit = aliases(field, plan.platform)
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
                export_name(plan.platform)
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
