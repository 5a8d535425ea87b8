//! Addresses typed by hand or read from a file: the valid ones normalised, the others named with their row.

use super::objects::RejectedAddress;
use super::MAX_ADDRESSES;
use crate::error::ApiError;

pub(super) fn sort_addresses<'a>(
    values: impl Iterator<Item = (i64, &'a str)>,
) -> (Vec<String>, Vec<RejectedAddress>) {
    let mut valid = Vec::new();
    let mut rejected = Vec::new();
    for (row, raw) in values {
        let trimmed = raw.trim();
        match domain::Email::parse(trimmed) {
            Ok(email) => valid.push(email.as_str().to_lowercase()),
            Err(_) => rejected.push(RejectedAddress {
                row,
                value: trimmed.chars().take(200).collect(),
                reason: if trimmed.is_empty() {
                    "No address".to_owned()
                } else {
                    "Not an e-mail address".to_owned()
                },
            }),
        }
    }
    valid.sort();
    valid.dedup();
    (valid, rejected)
}

/// The first column of each row of a CSV file; a first row that is not an address but names one (a header) is
/// left out.
pub(super) fn file_addresses(
    bytes: &[u8],
) -> Result<(Vec<String>, Vec<RejectedAddress>), ApiError> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim_start_matches('\u{feff}');
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut cells: Vec<(i64, String)> = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record
            .map_err(|e| ApiError::BadRequest(format!("The file is not a readable CSV: {e}")))?;
        let first = record.get(0).unwrap_or("").to_owned();
        // Blank lines hold nothing to lose.
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        cells.push((i as i64 + 1, first));
        if cells.len() > MAX_ADDRESSES {
            return Err(ApiError::BadRequest(format!(
                "A file may hold at most {MAX_ADDRESSES} addresses"
            )));
        }
    }
    if let Some((_, first)) = cells.first() {
        let header = first.trim().to_lowercase();
        if domain::Email::parse(first.trim()).is_err()
            && (header.contains("mail") || header.contains("address"))
        {
            cells.remove(0);
        }
    }
    Ok(sort_addresses(
        cells.iter().map(|(row, v)| (*row, v.as_str())),
    ))
}
