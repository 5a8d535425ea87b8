//! One data row of an ads file turned into a day of one ad.

use super::*;

/// One ad's day as a file row gives it. Money and conversions are exact decimal text.
#[derive(Debug, Clone, PartialEq)]
pub struct AdDay {
    pub campaign_key: String,
    pub campaign: String,
    pub group_key: String,
    pub group: String,
    pub ad_key: String,
    pub ad: String,
    pub day: NaiveDate,
    pub spend: String,
    pub impressions: i64,
    pub clicks: i64,
    pub conversions: String,
    pub refcode: Option<String>,
}

/// Why a row was left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skip {
    Empty,
    /// A totals line ("Total: Account"), as Google appends.
    Total,
}

pub fn parse_day(raw: &str) -> Option<NaiveDate> {
    let raw = raw.trim();
    let date_part = raw.split([' ', 'T']).next().unwrap_or(raw);
    for f in ["%Y-%m-%d", "%m/%d/%Y", "%Y/%m/%d"] {
        if let Ok(d) = NaiveDate::parse_from_str(date_part, f) {
            return Some(d);
        }
    }
    for f in ["%b %d, %Y", "%a, %b %d, %Y", "%B %d, %Y", "%d %b %Y"] {
        if let Ok(d) = NaiveDate::parse_from_str(raw, f) {
            return Some(d);
        }
    }
    None
}

/// A non-negative decimal as text (`1234.5`), forgiving `$`, spaces, thousands separators and `--` (none).
pub fn parse_decimal(raw: &str) -> Option<String> {
    let cleaned: String = raw
        .trim()
        .chars()
        .filter(|c| !matches!(c, '$' | ',' | ' ' | '\u{a0}'))
        .collect();
    if cleaned.is_empty() || cleaned == "--" || cleaned == "-" {
        return Some("0".to_owned());
    }
    let (whole, frac) = cleaned.split_once('.').unwrap_or((&cleaned, ""));
    let ok = !whole.is_empty()
        && whole.len() <= 12
        && whole.chars().all(|c| c.is_ascii_digit())
        && frac.len() <= 6
        && frac.chars().all(|c| c.is_ascii_digit());
    ok.then_some(cleaned)
}

pub fn parse_count(raw: &str) -> Option<i64> {
    let d = parse_decimal(raw)?;
    let (whole, frac) = d.split_once('.').unwrap_or((&d, ""));
    if frac.chars().any(|c| c != '0') {
        return None;
    }
    whole.parse().ok()
}

/// The refcode a cell names: `refcode=…` inside a URL or its parameters, or the cell itself when it is a bare
/// code (letters, digits, underscores and dashes).
pub fn refcode_of(cell: &str) -> Option<String> {
    let cell = cell.trim();
    let valid = |s: &str| {
        !s.is_empty()
            && s.len() <= 200
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    if let Some(pos) = cell.to_ascii_lowercase().find("refcode=") {
        let before = cell[..pos].chars().last();
        if pos == 0 || matches!(before, Some('?' | '&' | ' ')) {
            let value: String = cell[pos + 8..]
                .chars()
                .take_while(|c| !matches!(c, '&' | '#' | ' '))
                .collect();
            return valid(&value).then_some(value);
        }
    }
    valid(cell).then(|| cell.to_owned())
}

pub(super) fn clip(s: &str, max: usize) -> String {
    s.trim().chars().take(max).collect()
}

/// One data row turned into an ad's day, a reason to leave it out, or an error naming the row and column.
pub fn parse_row(
    columns: &BTreeMap<AdField, usize>,
    header: &[String],
    row: &[String],
    row_no: i64,
) -> Result<Result<AdDay, Skip>, String> {
    if row.iter().all(|c| c.trim().is_empty()) {
        return Ok(Err(Skip::Empty));
    }
    if row
        .iter()
        .find(|c| !c.trim().is_empty())
        .is_some_and(|c| c.trim().to_ascii_lowercase().starts_with("total"))
    {
        return Ok(Err(Skip::Total));
    }
    let cell = |f: AdField| {
        columns
            .get(&f)
            .and_then(|&i| row.get(i))
            .map(|c| c.trim())
            .unwrap_or("")
    };
    let bad = |f: AdField, what: String| {
        let name = columns
            .get(&f)
            .and_then(|&i| header.get(i))
            .map(|h| h.trim_start_matches('\u{feff}').trim().to_owned())
            .unwrap_or_else(|| f.label().to_owned());
        format!("Row {row_no}, column '{name}': {what}")
    };
    let raw_day = cell(AdField::Day);
    let day = parse_day(raw_day)
        .ok_or_else(|| bad(AdField::Day, format!("{raw_day:?} is not a date")))?;
    let campaign = clip(cell(AdField::Campaign), 300);
    if campaign.is_empty() {
        return Err(bad(AdField::Campaign, "no campaign name".to_owned()));
    }
    let ad = clip(cell(AdField::Ad), 300);
    let ad_id = clip(cell(AdField::AdId), 100);
    if ad.is_empty() && ad_id.is_empty() {
        return Err(bad(AdField::Ad, "no ad name".to_owned()));
    }
    let ad = if ad.is_empty() { ad_id.clone() } else { ad };
    let group = match clip(cell(AdField::AdGroup), 300) {
        g if g.is_empty() => "(no ad group)".to_owned(),
        g => g,
    };
    let or_name = |id: String, name: &str| if id.is_empty() { name.to_owned() } else { id };
    let campaign_key = or_name(clip(cell(AdField::CampaignId), 100), &campaign);
    let group_key = or_name(clip(cell(AdField::AdGroupId), 100), &group);
    let ad_key = if ad_id.is_empty() {
        format!("{campaign_key}\u{203a}{group_key}\u{203a}{ad}")
    } else {
        ad_id
    };
    let decimal = |f: AdField| {
        let raw = cell(f);
        parse_decimal(raw).ok_or_else(|| bad(f, format!("{raw:?} is not a number")))
    };
    let count = |f: AdField| {
        let raw = cell(f);
        parse_count(raw).ok_or_else(|| bad(f, format!("{raw:?} is not a whole number")))
    };
    Ok(Ok(AdDay {
        campaign_key,
        campaign,
        group_key,
        group,
        ad_key,
        ad,
        day,
        spend: decimal(AdField::Spend)?,
        impressions: count(AdField::Impressions)?,
        clicks: count(AdField::Clicks)?,
        conversions: decimal(AdField::Conversions)?,
        refcode: refcode_of(cell(AdField::Refcode)),
    }))
}
