//! Contribution imports (ActBlue and WinRed exports, or any file with a user's column mapping). The stored upload
//! is streamed row by row on a blocking thread, checked, and copied into a staging table; a handful of set-based
//! statements then add the new lines, mark refunds, create the donors who are not contacts yet, record every
//! reference code and attribute the new gifts — all in the job's one transaction, so a bad row or a crash leaves
//! nothing behind and a re-import of the same export changes nothing.

use super::table::{self, Format};
use super::{download, truncate};
use crate::{JobError, JobResult};
use chrono::{DateTime, NaiveDate, NaiveDateTime};
use domain::Email;
use domain::{CodePattern, ParsedCode};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgConnection;
use std::collections::{BTreeMap, HashMap};

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
    fn stored(self) -> &'static str {
        match self {
            Self::Actblue => "actblue",
            Self::Winred => "winred",
            Self::Mapped => "other",
        }
    }

    /// "an ActBlue", "a WinRed": how errors name the export.
    fn export_name(self) -> &'static str {
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
    fn aliases(self, platform: Platform) -> &'static [&'static str] {
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

const REQUIRED: [GiftField; 3] = [GiftField::LineItemId, GiftField::Date, GiftField::Amount];

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

fn normalize_header(h: &str) -> String {
    h.trim_start_matches('\u{feff}')
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_lowercase()
}

/// Column index of each field, from the header row. The first column of a name wins (`Reserved` repeats).
fn resolve(
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

/// A date as the file gives it: with an offset it is an instant; without, a wall-clock time in the client's zone.
#[derive(Debug, Clone, PartialEq)]
enum When {
    Instant(DateTime<chrono::FixedOffset>),
    Local(NaiveDateTime),
}

fn parse_when(raw: &str) -> Option<When> {
    let raw = raw.trim();
    if let Ok(d) = DateTime::parse_from_rfc3339(raw) {
        return Some(When::Instant(d));
    }
    for f in [
        "%Y-%m-%d %H:%M:%S%.f%:z",
        "%Y-%m-%d %H:%M:%S%.f%#z",
        "%Y-%m-%d %H:%M:%S%.f %z",
    ] {
        if let Ok(d) = DateTime::parse_from_str(raw, f) {
            return Some(When::Instant(d));
        }
    }
    for f in [
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%d %H:%M",
        "%m/%d/%Y %H:%M:%S",
        "%m/%d/%Y %H:%M",
        "%m/%d/%Y %I:%M:%S %p",
        "%m/%d/%Y %I:%M %p",
    ] {
        if let Ok(d) = NaiveDateTime::parse_from_str(raw, f) {
            return Some(When::Local(d));
        }
    }
    for f in ["%Y-%m-%d", "%m/%d/%Y"] {
        if let Ok(d) = NaiveDate::parse_from_str(raw, f) {
            return d.and_hms_opt(0, 0, 0).map(When::Local);
        }
    }
    None
}

/// An amount as exact decimal text (`-12.50`), forgiving `$`, spaces, thousands separators and accounting
/// parentheses. At most 12 digits before the point and 2 after (the column is numeric(14, 2)).
pub fn parse_amount(raw: &str) -> Option<String> {
    let mut s: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
    let mut negative = false;
    if s.starts_with('(') && s.ends_with(')') {
        negative = true;
        s = s[1..s.len() - 1].to_owned();
    }
    if let Some(rest) = s.strip_prefix('-') {
        negative = !negative;
        s = rest.to_owned();
    }
    if let Some(rest) = s.strip_prefix('$') {
        s = rest.to_owned();
    }
    if let Some(rest) = s.strip_prefix('-') {
        negative = !negative;
        s = rest.to_owned();
    }
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    // Thousands separators only in groups of three.
    let groups: Vec<&str> = int.split(',').collect();
    let grouped_ok = groups.len() == 1
        || (!groups[0].is_empty()
            && groups[0].len() <= 3
            && groups[1..].iter().all(|g| g.len() == 3));
    let int: String = groups.concat();
    let digits_ok = |t: &str| t.chars().all(|c| c.is_ascii_digit());
    if !grouped_ok
        || (int.is_empty() && frac.is_empty())
        || !digits_ok(&int)
        || !digits_ok(frac)
        || frac.len() > 2
        || int.len() > 12
        || (s.contains('.') && frac.is_empty())
    {
        return None;
    }
    let int = if int.is_empty() { "0" } else { int.as_str() };
    let text = if frac.is_empty() {
        int.to_owned()
    } else {
        format!("{int}.{frac}")
    };
    let zero = text.chars().all(|c| c == '0' || c == '.');
    Some(if negative && !zero {
        format!("-{text}")
    } else {
        text
    })
}

/// A date for SQL: `(instant, wall-clock time)`, exactly one of them set; the wall-clock time is in the client's
/// zone. `None` when the text is no date.
pub fn split_date(raw: &str) -> Option<(Option<String>, Option<String>)> {
    Some(match parse_when(raw)? {
        When::Instant(d) => (Some(d.to_rfc3339()), None),
        When::Local(d) => (None, Some(d.format("%Y-%m-%d %H:%M:%S%.f").to_string())),
    })
}

fn parse_bool(raw: &str) -> Option<bool> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "t" | "true" | "yes" | "y" | "1" => Some(true),
        "f" | "false" | "no" | "n" | "0" => Some(false),
        _ => None,
    }
}

/// `Recurring Total Months`: empty for a one-time gift, a count, or an open-ended series (0).
fn parse_months(raw: &str) -> Option<i32> {
    let raw = raw.trim();
    match raw.to_ascii_lowercase().as_str() {
        "" => None,
        "unlimited" | "infinite" | "indefinite" | "ongoing" => Some(0),
        other => other.parse::<i32>().ok().filter(|n| *n >= 0),
    }
}

/// Why a row was left out, as the result reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Skip {
    Empty,
    NoLineItemId,
    NotAGift,
    ZeroAmount,
}

impl Skip {
    fn key(self) -> &'static str {
        match self {
            Self::Empty => "empty",
            Self::NoLineItemId => "noLineItemId",
            Self::NotAGift => "notAGift",
            Self::ZeroAmount => "zeroAmount",
        }
    }
}

/// At most this many row numbers are listed per reason; the count is always whole.
const LISTED_ROWS: usize = 1000;

#[derive(Debug, Default)]
struct Parsed {
    rows_read: i64,
    skipped: BTreeMap<Skip, (i64, Vec<i64>)>,
}

impl Parsed {
    fn skip(&mut self, reason: Skip, row: i64) {
        let entry = self.skipped.entry(reason).or_default();
        entry.0 += 1;
        if entry.1.len() < LISTED_ROWS {
            entry.1.push(row);
        }
    }
}

const STAGING_COLUMNS: &str = "row_no, line_item_id, receipt_id, paid_local, paid_abs, amount, fee, email, \
     first_name, last_name, zip, state, phone, recurring_months, recurrence_number, refcode, refcode2, \
     fundraising_page, refund_id, refund_local, refund_abs, ab_test_name, ab_variation, mobile, express_signup";

fn when_cells(when: Option<When>) -> (String, String) {
    match when {
        Some(When::Instant(d)) => (String::new(), d.to_rfc3339()),
        Some(When::Local(d)) => (d.format("%Y-%m-%d %H:%M:%S%.f").to_string(), String::new()),
        None => (String::new(), String::new()),
    }
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// One data row checked and turned into a staging record, or the reason it is left out.
fn stage_row(
    platform: Platform,
    columns: &BTreeMap<GiftField, usize>,
    header: &[String],
    row: &[String],
    row_no: i64,
) -> Result<Result<[String; 25], Skip>, JobError> {
    if row.iter().all(|c| c.is_empty()) {
        return Ok(Err(Skip::Empty));
    }
    let cell = |f: GiftField| {
        columns
            .get(&f)
            .and_then(|&i| row.get(i))
            .map(String::as_str)
            .unwrap_or("")
    };
    let column_name = |f: GiftField| {
        columns
            .get(&f)
            .and_then(|&i| header.get(i))
            .map(|h| h.trim_start_matches('\u{feff}').trim().to_owned())
            .unwrap_or_else(|| f.label().to_owned())
    };
    let bad = |f: GiftField, what: String| {
        JobError::BadFile(format!("Row {row_no}, column '{}': {what}", column_name(f)))
    };
    let kind = cell(GiftField::Kind).to_ascii_lowercase();
    if kind == "payout" || kind == "transfer" {
        return Ok(Err(Skip::NotAGift));
    }
    let own_id = cell(GiftField::LineItemId);
    if own_id.is_empty() {
        return Ok(Err(Skip::NoLineItemId));
    }
    let raw_amount = cell(GiftField::Amount);
    let amount = parse_amount(raw_amount).ok_or_else(|| {
        bad(
            GiftField::Amount,
            format!("{raw_amount:?} is not an amount"),
        )
    })?;
    let raw_date = cell(GiftField::Date);
    let paid = parse_when(raw_date)
        .ok_or_else(|| bad(GiftField::Date, format!("{raw_date:?} is not a date")))?;
    let negative = amount.starts_with('-');
    let mut refund_id = cell(GiftField::RefundId).to_owned();
    let mut line_item_id = own_id.to_owned();
    let mut refund_when = match cell(GiftField::RefundDate) {
        "" => None,
        raw => Some(
            parse_when(raw)
                .ok_or_else(|| bad(GiftField::RefundDate, format!("{raw:?} is not a date")))?,
        ),
    };
    if amount.chars().all(|c| c == '0' || c == '.' || c == '-') && platform != Platform::Actblue {
        // WinRed books chargeback fees as zero-amount rows: they are not gifts.
        return Ok(Err(Skip::ZeroAmount));
    }
    if negative {
        if platform == Platform::Actblue && refund_id.is_empty() {
            return Err(bad(
                GiftField::Amount,
                format!("negative amount {raw_amount:?} on a line that is not a refund"),
            ));
        }
        // WinRed and mapped files carry refunds and chargebacks as negative rows of their own.
        if refund_id.is_empty() {
            refund_id = own_id.to_owned();
        }
        let original = cell(GiftField::RefundedLineItemId);
        if !original.is_empty() {
            line_item_id = original.to_owned();
        }
        if refund_when.is_none() {
            refund_when = Some(paid.clone());
        }
    }
    let amount = amount.trim_start_matches('-').to_owned();
    let fee = match cell(GiftField::Fee) {
        "" => String::new(),
        raw => parse_amount(raw)
            .ok_or_else(|| bad(GiftField::Fee, format!("{raw:?} is not an amount")))?,
    };
    let (paid_local, paid_abs) = when_cells(Some(paid));
    let (refund_local, refund_abs) = if refund_id.is_empty() {
        (String::new(), String::new())
    } else {
        when_cells(refund_when)
    };
    let months = parse_months(cell(GiftField::RecurringMonths));
    let number = cell(GiftField::RecurrenceNumber).parse::<i32>().ok();
    Ok(Ok([
        row_no.to_string(),
        truncate(&line_item_id, 200),
        truncate(cell(GiftField::ReceiptId), 200),
        paid_local,
        paid_abs,
        amount,
        fee,
        Email::parse(cell(GiftField::Email))
            .map(Email::into_string)
            .unwrap_or_default(),
        truncate(cell(GiftField::FirstName), 100),
        truncate(cell(GiftField::LastName), 100),
        truncate(cell(GiftField::Zip), 20),
        truncate(cell(GiftField::State), 40),
        truncate(cell(GiftField::Phone), 40),
        opt(months),
        opt(number),
        truncate(cell(GiftField::Refcode), 200),
        truncate(cell(GiftField::Refcode2), 200),
        truncate(cell(GiftField::FundraisingPage), 200),
        truncate(&refund_id, 200),
        refund_local,
        refund_abs,
        truncate(cell(GiftField::AbTestName), 200),
        truncate(cell(GiftField::AbVariation), 200),
        opt(parse_bool(cell(GiftField::Mobile))),
        opt(parse_bool(cell(GiftField::ExpressSignup))),
    ]))
}

/// What the parser thread sends: staging rows, then (once) every distinct reference code with its parts.
enum Batch {
    Lines(Vec<u8>),
    Codes(Vec<u8>),
}

fn code_record(code: &str, parsed: &ParsedCode) -> [String; 6] {
    [
        code.to_owned(),
        parsed.parsed.to_string(),
        parsed.channel.clone().unwrap_or_default(),
        opt(parsed.date),
        parsed.campaign.clone().unwrap_or_default(),
        parsed.variant.clone().unwrap_or_default(),
    ]
}

fn writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new().from_writer(Vec::with_capacity(1 << 20))
}

fn into_bytes(w: csv::Writer<Vec<u8>>) -> Result<Vec<u8>, JobError> {
    w.into_inner().map_err(|e| JobError::Io(e.to_string()))
}

/// Parses on a blocking thread and sends COPY-ready CSV batches of about 1 MB through a bounded channel, so
/// memory stays flat whatever the file's size (only the distinct reference codes are held).
fn spawn_parser(
    path: std::path::PathBuf,
    plan: ContributionPlan,
    pattern: CodePattern,
    batches: tokio::sync::mpsc::Sender<Batch>,
) -> tokio::task::JoinHandle<Result<Parsed, JobError>> {
    tokio::task::spawn_blocking(move || {
        let format = Format::from_filename(&plan.filename, true)
            .ok_or_else(|| JobError::BadFile("Unsupported file type".to_owned()))?;
        let mut rows = table::open(&path, format)?;
        let header = loop {
            match rows.next() {
                Some(h) => {
                    let h = h?;
                    if h.iter().any(|c| !c.is_empty()) {
                        break h;
                    }
                }
                None => return Err(JobError::BadFile("The file is empty".to_owned())),
            }
        };
        let columns = resolve(&plan, &header)?;
        let mut parsed = Parsed::default();
        let mut codes: HashMap<String, ParsedCode> = HashMap::new();
        let mut batch = writer();
        let send = |b: Batch| {
            batches
                .blocking_send(b)
                .map_err(|_| JobError::Io("import stopped".to_owned()))
        };
        for (index, row) in rows.enumerate() {
            // The header is row 1, as a spreadsheet numbers them.
            let row_no = index as i64 + 2;
            let row = row.map_err(|e| match e {
                JobError::BadFile(m) => JobError::BadFile(format!("Row {row_no}: {m}")),
                other => other,
            })?;
            parsed.rows_read += 1;
            let record = match stage_row(plan.platform, &columns, &header, &row, row_no)? {
                Ok(record) => record,
                Err(reason) => {
                    parsed.skip(reason, row_no);
                    continue;
                }
            };
            let code = &record[15];
            if !code.is_empty() && !codes.contains_key(code) {
                codes.insert(code.clone(), pattern.parse(code));
            }
            batch
                .write_record(&record)
                .map_err(|e| JobError::Io(e.to_string()))?;
            if batch.get_ref().len() >= 1 << 20 {
                send(Batch::Lines(into_bytes(std::mem::replace(
                    &mut batch,
                    writer(),
                ))?))?;
            }
        }
        if parsed.rows_read == 0 {
            return Err(JobError::BadFile(
                "The file has a header but no contribution lines".to_owned(),
            ));
        }
        send(Batch::Lines(into_bytes(batch)?))?;
        let mut code_batch = writer();
        for (code, parts) in &codes {
            code_batch
                .write_record(code_record(code, parts))
                .map_err(|e| JobError::Io(e.to_string()))?;
        }
        send(Batch::Codes(into_bytes(code_batch)?))?;
        Ok(parsed)
    })
}

/// The client's revenue settings the import needs.
struct Settings {
    time_zone: String,
    origin_code: String,
    refcode_pattern: String,
    window_days: i32,
}

async fn settings(conn: &mut PgConnection, platform: Platform) -> Result<Settings, JobError> {
    let (time_zone, actblue, winred, refcode_pattern, window_days, zone_known): (
        String,
        String,
        String,
        String,
        i32,
        bool,
    ) = sqlx::query_as(
        "select time_zone, actblue_origin_code, winred_origin_code, refcode_pattern, attribution_window_days,
                exists (select 1 from pg_timezone_names where name = time_zone)
         from app_settings limit 1",
    )
    .fetch_one(&mut *conn)
    .await?;
    if !zone_known {
        return Err(JobError::BadFile(format!(
            "The time zone in the app settings ({time_zone}) is not a known zone"
        )));
    }
    let origin_code = match platform {
        Platform::Winred => winred,
        // A mapped file's donors are still donors from a platform; the ActBlue code is the client's default.
        Platform::Actblue | Platform::Mapped => actblue,
    };
    Ok(Settings {
        time_zone,
        origin_code,
        refcode_pattern,
        window_days,
    })
}

/// Runs a contributions import inside the job's transaction.
pub async fn run(conn: &mut PgConnection, plan: &ContributionPlan) -> Result<JobResult, JobError> {
    let started = std::time::Instant::now();
    let settings = settings(conn, plan.platform).await?;
    let file = download(conn, plan.upload_id).await?;
    sqlx::query(
        "create temp table contrib_staging (
             row_no bigint, line_item_id text, receipt_id text, paid_local timestamp, paid_abs timestamptz,
             amount numeric(14, 2), fee numeric(14, 2), email text, first_name text, last_name text, zip text,
             state text, phone text, recurring_months integer, recurrence_number integer, refcode text,
             refcode2 text, fundraising_page text, refund_id text, refund_local timestamp, refund_abs timestamptz,
             ab_test_name text, ab_variation text, mobile boolean, express_signup boolean
         ) on commit drop",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "create temp table contrib_codes (
             code text, parsed boolean, channel text, code_date date, campaign text, variant text
         ) on commit drop",
    )
    .execute(&mut *conn)
    .await?;

    let (tx, mut rx) = tokio::sync::mpsc::channel::<Batch>(4);
    let parser = spawn_parser(
        file.path().to_path_buf(),
        plan.clone(),
        CodePattern::new(&settings.refcode_pattern),
        tx,
    );
    // Empty unquoted cells are NULL in COPY's CSV format: an absent value stays absent.
    let mut copy = conn
        .copy_in_raw(&format!(
            "copy contrib_staging ({STAGING_COLUMNS}) from stdin with (format csv)"
        ))
        .await?;
    let mut codes = Vec::new();
    while let Some(batch) = rx.recv().await {
        match batch {
            Batch::Lines(bytes) => {
                copy.send(bytes).await?;
            }
            Batch::Codes(bytes) => codes = bytes,
        }
    }
    let parsed = match parser.await.map_err(|e| JobError::Io(e.to_string()))? {
        Ok(parsed) => {
            copy.finish().await?;
            parsed
        }
        Err(e) => {
            let _ = copy.abort("parse failed").await;
            return Err(e);
        }
    };
    drop(file);
    let mut copy = conn
        .copy_in_raw(
            "copy contrib_codes (code, parsed, channel, code_date, campaign, variant) from stdin with (format csv)",
        )
        .await?;
    copy.send(codes).await?;
    copy.finish().await?;
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        rows = parsed.rows_read,
        "contribution rows staged"
    );

    let merged = merge(conn, plan.platform, &settings).await?;
    sqlx::query("delete from uploads where id = $1")
        .bind(plan.upload_id)
        .execute(&mut *conn)
        .await?;
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        "contributions merged"
    );
    Ok(report(parsed, merged))
}

#[derive(Debug, Default)]
struct Merged {
    unique: i64,
    duplicates: i64,
    duplicate_rows: Vec<i64>,
    new_lines: i64,
    refunds_marked: i64,
    contacts_created: i64,
    source_codes_created: i64,
    by_refcode: i64,
    by_click: i64,
}

async fn count(conn: &mut PgConnection, sql: &'static str) -> Result<i64, JobError> {
    Ok(sqlx::query_scalar(sql).fetch_one(&mut *conn).await?)
}

async fn merge(
    conn: &mut PgConnection,
    platform: Platform,
    settings: &Settings,
) -> Result<Merged, JobError> {
    let staged = count(conn, "select count(*) from contrib_staging").await?;
    // One row per line: a refund row wins over the paid row of the same line, else the first row.
    sqlx::query(
        "create temp table contrib_lines on commit drop as
         select distinct on (line_item_id) * from contrib_staging
         order by line_item_id, (refund_id is null), row_no",
    )
    .execute(&mut *conn)
    .await?;
    let unique = count(conn, "select count(*) from contrib_lines").await?;
    let duplicate_rows: Vec<i64> = sqlx::query_scalar(
        "select row_no from contrib_staging except select row_no from contrib_lines order by 1 limit 1000",
    )
    .fetch_all(&mut *conn)
    .await?;
    sqlx::query("analyze contrib_lines")
        .execute(&mut *conn)
        .await?;

    // Donors who are not contacts yet become contacts with the platform's origin code; a known contact's origin
    // code is never touched.
    sqlx::query(
        "insert into origin_codes (name)
         select $1 where exists (
             select 1 from contrib_lines l
             where l.email is not null and not exists (select 1 from contacts c where c.email = l.email))
         on conflict (name) do nothing",
    )
    .bind(&settings.origin_code)
    .execute(&mut *conn)
    .await?;
    let contacts_created = sqlx::query(
        "insert into contacts (email, first_name, last_name, phone, origin_code_id)
         select distinct on (l.email) l.email, coalesce(l.first_name, ''), coalesce(l.last_name, ''), l.phone,
                (select o.id from origin_codes o where o.name = $1)
         from contrib_lines l
         where l.email is not null and not exists (select 1 from contacts c where c.email = l.email)
         order by l.email, l.row_no
         on conflict (email) do nothing",
    )
    .bind(&settings.origin_code)
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;

    let source_codes_created = sqlx::query(
        "insert into source_codes (code, parsed, channel, code_date, campaign, variant)
         select code, parsed, channel, code_date, campaign, variant from contrib_codes
         on conflict (code) do nothing",
    )
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;

    let new_lines = sqlx::query(
        "insert into contributions (
             platform, line_item_id, receipt_id, paid_at, amount, fee, contact_id, email, first_name, last_name,
             zip, state, phone, recurring_months, recurrence_number, refcode, refcode2, source_code_id,
             fundraising_page, refund_id, refunded_at, ab_test_name, ab_variation, mobile, express_signup)
         select $1, l.line_item_id, l.receipt_id, coalesce(l.paid_abs, l.paid_local at time zone $2), l.amount,
                l.fee, c.id, l.email, l.first_name, l.last_name, l.zip, l.state, l.phone, l.recurring_months,
                l.recurrence_number, l.refcode, l.refcode2, sc.id, l.fundraising_page, l.refund_id,
                case when l.refund_id is not null
                     then coalesce(l.refund_abs, l.refund_local at time zone $2, now()) end,
                l.ab_test_name, l.ab_variation, l.mobile, l.express_signup
         from contrib_lines l
         left join contacts c on c.email = l.email
         left join source_codes sc on sc.code = l.refcode
         on conflict (platform, line_item_id) do nothing",
    )
    .bind(platform.stored())
    .bind(&settings.time_zone)
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;

    // A refund row marks the known line refunded; a line already marked stays as it is.
    let refunds_marked = sqlx::query(
        "update contributions k
         set refund_id = l.refund_id,
             refunded_at = coalesce(l.refund_abs, l.refund_local at time zone $2, now())
         from contrib_lines l
         where k.platform = $1 and k.line_item_id = l.line_item_id
           and l.refund_id is not null and k.refund_id is null",
    )
    .bind(platform.stored())
    .bind(&settings.time_zone)
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;

    let (by_refcode, by_click) = attribute(conn, settings.window_days).await?;
    Ok(Merged {
        unique,
        duplicates: staged - unique,
        duplicate_rows,
        new_lines,
        refunds_marked,
        contacts_created,
        source_codes_created,
        by_refcode,
        by_click,
    })
}

/// Attributes the gifts this transaction added (their `imported` is the transaction's `now()`):
/// 1. a gift whose reference code is tied to a mailing belongs to that mailing (`refcode`);
/// 2. otherwise to the mailing whose last human click by the same contact came within the attribution window
///    before the gift (`click`);
/// 3. otherwise to none.
pub async fn attribute(conn: &mut PgConnection, window_days: i32) -> Result<(i64, i64), JobError> {
    let by_refcode = sqlx::query(
        "update contributions c set mailing_id = sc.mailing_id, attribution = 'refcode'
         from source_codes sc
         where c.imported = now() and c.source_code_id = sc.id and sc.mailing_id is not null",
    )
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;
    let by_click = sqlx::query(
        "update contributions c set mailing_id = last_click.mailing_id, attribution = 'click'
         from (
             select g.id,
                    (select e.mailing_id from mailing_events e
                     where e.contact_id = g.contact_id and e.kind = 'click' and not e.machine
                       and e.created <= g.paid_at and e.created >= g.paid_at - make_interval(days => $1)
                     order by e.created desc, e.id desc limit 1) as mailing_id
             from contributions g
             where g.imported = now() and g.attribution = 'none' and g.contact_id is not null
         ) last_click
         where c.id = last_click.id and last_click.mailing_id is not null",
    )
    .bind(window_days)
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;
    Ok((by_refcode, by_click))
}

fn report(parsed: Parsed, m: Merged) -> JobResult {
    let skipped_total: i64 = parsed.skipped.values().map(|(n, _)| n).sum();
    let already_known = m.unique - m.new_lines - m.refunds_marked;
    let mut skipped = serde_json::Map::new();
    for (reason, (n, rows)) in &parsed.skipped {
        skipped.insert(reason.key().to_owned(), json!({ "count": n, "rows": rows }));
    }
    let message = format!(
        "Read {} rows: {} new lines, {} marked refunded, {} already known; {} duplicates in file, {} skipped.",
        parsed.rows_read, m.new_lines, m.refunds_marked, already_known, m.duplicates, skipped_total
    );
    JobResult {
        message,
        link: Some("/revenue/contributions".to_owned()),
        segment_id: None,
        details: json!({
            "rowsRead": parsed.rows_read,
            "newLines": m.new_lines,
            "updated": m.refunds_marked,
            "duplicatesInFile": { "count": m.duplicates, "rows": m.duplicate_rows },
            "alreadyKnown": already_known,
            "contactsCreated": m.contacts_created,
            "sourceCodesCreated": m.source_codes_created,
            "attributed": { "refcode": m.by_refcode, "click": m.by_click },
            "skipped": skipped,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_forgive_dollar_signs_and_thousands_separators_only() {
        for (raw, want) in [
            ("12.5", Some("12.5")),
            ("$1,234.56", Some("1234.56")),
            (" $ 5 ", Some("5")),
            ("-$3.00", Some("-3.00")),
            ("$-3.00", Some("-3.00")),
            ("(7.25)", Some("-7.25")),
            (".99", Some("0.99")),
            ("12.345", None),
            ("1,23", None),
            ("ten", None),
            ("", None),
            ("12.", None),
            ("=1+1", None),
        ] {
            assert_eq!(parse_amount(raw).as_deref(), want, "{raw:?}");
        }
    }

    #[test]
    fn dates_without_an_offset_are_local_and_with_one_are_instants() {
        assert!(matches!(
            parse_when("2026-03-01 10:20:30"),
            Some(When::Local(_))
        ));
        assert!(matches!(
            parse_when("3/1/2026 9:05 PM"),
            Some(When::Local(_))
        ));
        assert!(matches!(
            parse_when("2026-03-01T10:20:30-05:00"),
            Some(When::Instant(_))
        ));
        assert!(matches!(
            parse_when("2026-03-01 10:20:30+00"),
            Some(When::Instant(_))
        ));
        assert_eq!(parse_when("March first"), None);
    }

    #[test]
    fn actblue_headers_are_found_by_name_whatever_else_is_there() {
        let plan = ContributionPlan {
            upload_id: 1,
            filename: "a.csv".into(),
            platform: Platform::Actblue,
            mapping: BTreeMap::new(),
        };
        let header: Vec<String> = [
            "\u{feff}Receipt ID",
            "Reserved",
            "Date",
            "Reserved",
            "Amount",
            "Lineitem ID",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let found = resolve(&plan, &header).unwrap();
        assert_eq!(found[&GiftField::LineItemId], 5);
        assert_eq!(found[&GiftField::Date], 2);
        let err = resolve(&plan, &header[..3]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "This is not an ActBlue contributions export: it has no column 'Lineitem ID', 'Amount'"
        );
    }
}
