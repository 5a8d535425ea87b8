//! Rows checked and turned into COPY-ready staging records on a blocking thread.

use super::*;
use domain::Money;

/// Why a row was left out, as the result reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Skip {
    Empty,
    NulByte,
    NoLineItemId,
    NotAGift,
    ZeroAmount,
}

impl Skip {
    pub(super) fn key(self) -> &'static str {
        match self {
            Self::Empty => "empty",
            Self::NulByte => "nulByte",
            Self::NoLineItemId => "noLineItemId",
            Self::NotAGift => "notAGift",
            Self::ZeroAmount => "zeroAmount",
        }
    }
}

/// At most this many row numbers are listed per reason; the count is always whole.
pub(super) const LISTED_ROWS: usize = 1000;

#[derive(Debug, Default)]
pub(super) struct Parsed {
    pub(super) rows_read: i64,
    pub(super) skipped: BTreeMap<Skip, (i64, Vec<i64>)>,
}

impl Parsed {
    pub(super) fn skip(&mut self, reason: Skip, row: i64) {
        let entry = self.skipped.entry(reason).or_default();
        entry.0 += 1;
        if entry.1.len() < LISTED_ROWS {
            entry.1.push(row);
        }
    }
}

pub(super) fn when_cells(when: Option<When>) -> (String, String) {
    match when {
        Some(When::Instant(d)) => (String::new(), d.to_rfc3339()),
        Some(When::Local(d)) => (d.format("%Y-%m-%d %H:%M:%S%.f").to_string(), String::new()),
        None => (String::new(), String::new()),
    }
}

pub(super) fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// One data row checked and turned into a staging record, or the reason it is left out.
pub(super) fn stage_row(
    platform: Platform,
    columns: &BTreeMap<GiftField, usize>,
    header: &[String],
    row: &[String],
    row_no: i64,
) -> Result<Result<[String; 25], Skip>, JobError> {
    if row.iter().all(|c| c.is_empty()) {
        return Ok(Err(Skip::Empty));
    }
    // Postgres text cannot hold a NUL: the row is skipped and named, the rest imported.
    if table::has_nul(row) {
        return Ok(Err(Skip::NulByte));
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
    let amount =
        Money::parse_written(raw_amount).map_err(|e| bad(GiftField::Amount, e.to_string()))?;
    let raw_date = cell(GiftField::Date);
    let paid = parse_when(raw_date)
        .ok_or_else(|| bad(GiftField::Date, format!("{raw_date:?} is not a date")))?;
    let negative = amount.is_negative();
    let mut refund_id = cell(GiftField::RefundId).to_owned();
    let mut line_item_id = own_id.to_owned();
    let mut refund_when = match cell(GiftField::RefundDate) {
        "" => None,
        raw => Some(
            parse_when(raw)
                .ok_or_else(|| bad(GiftField::RefundDate, format!("{raw:?} is not a date")))?,
        ),
    };
    if amount.is_zero() && platform != Platform::Actblue {
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
    let amount = amount.abs().to_string();
    let fee = match cell(GiftField::Fee) {
        "" => String::new(),
        raw => Money::parse_written(raw)
            .map_err(|e| bad(GiftField::Fee, e.to_string()))?
            .to_string(),
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
pub(super) enum Batch {
    Lines(Vec<u8>),
    Codes(Vec<u8>),
}

pub(super) fn code_record(code: &str, parsed: &ParsedCode) -> [String; 6] {
    [
        code.to_owned(),
        parsed.parsed.to_string(),
        parsed.channel.clone().unwrap_or_default(),
        opt(parsed.date),
        parsed.campaign.clone().unwrap_or_default(),
        parsed.variant.clone().unwrap_or_default(),
    ]
}

pub(super) fn writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new().from_writer(Vec::with_capacity(1 << 20))
}

pub(super) fn into_bytes(w: csv::Writer<Vec<u8>>) -> Result<Vec<u8>, JobError> {
    w.into_inner().map_err(|e| JobError::file(e.into_error()))
}

/// Parses on a blocking thread and sends COPY-ready CSV batches of about 1 MB through a bounded channel, so
/// memory stays flat whatever the file's size (only the distinct reference codes are held).
pub(super) fn spawn_parser(
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
                .map_err(|_| JobError::Stopped("the file reader stopped".into()))
        };
        for (index, row) in rows.enumerate() {
            // The header is row 1, as a spreadsheet numbers them.
            let row_no = index as i64 + 2;
            // The reader's own errors name their row (or line) already.
            let row = row?;
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
            batch.write_record(&record).map_err(JobError::file)?;
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
                .map_err(JobError::file)?;
        }
        send(Batch::Codes(into_bytes(code_batch)?))?;
        Ok(parsed)
    })
}
