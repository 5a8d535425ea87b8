//! Built-in reports. Each report is one module with its columns and one set-based query; this module holds what
//! they share: the catalog ([`ReportKind`]), the date range in the client's zone, the table every report yields,
//! and the CSV and XLSX files made from that table (so the page, the download, the job and the scheduled e-mail
//! show the same numbers). The docs/reports.md section defines every figure.
//!
//! Adding a report: a module here with `COLUMNS` and `rows` (media ROAS and flight performance read their
//! areas' own store functions), a [`ReportKind`] variant, and its arms in `key`/`title`/`description`/`columns`/
//! `build`. The page, the downloads, the job and the schedules pick it up from the catalog.

mod acquisition;
pub mod files;
mod flights;
mod lapsed;
mod mailings;
mod media_roas;
mod monthly;
pub mod schedules;
mod source_codes;

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use sqlx::PgConnection;

/// Every row a page shows at most; downloads carry all rows.
pub const PAGE_ROWS: i64 = 500;
/// A report with more rows than this is built by a job, not in the request.
pub const DIRECT_ROWS: i64 = 20_000;
/// The longest range a report may cover.
const MAX_RANGE_DAYS: i64 = 3660;

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error(transparent)]
    Sql(#[from] sqlx::Error),
    /// The caller's input: the message is for the user.
    #[error("{0}")]
    Invalid(String),
    #[error("could not write the file: {0}")]
    File(String),
}

/// The built-in reports. Serialized (in a job's payload) by the same key as [`ReportKind::key`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReportKind {
    MonthlySummary,
    Lybunt,
    Sybunt,
    SourceCodes,
    Mailings,
    Acquisition,
    Flights,
    MediaRoas,
}

impl ReportKind {
    pub const ALL: [ReportKind; 8] = [
        Self::MonthlySummary,
        Self::Lybunt,
        Self::Sybunt,
        Self::SourceCodes,
        Self::Mailings,
        Self::Flights,
        Self::Acquisition,
        Self::MediaRoas,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Self::MonthlySummary => "monthly-summary",
            Self::Lybunt => "lybunt",
            Self::Sybunt => "sybunt",
            Self::SourceCodes => "source-codes",
            Self::Mailings => "mailings",
            Self::Acquisition => "acquisition",
            Self::Flights => "flights",
            Self::MediaRoas => "media-roas",
        }
    }

    pub fn parse(key: &str) -> Result<Self, ReportError> {
        Self::ALL
            .into_iter()
            .find(|k| k.key() == key)
            .ok_or_else(|| ReportError::Invalid(format!("There is no report named {key:?}")))
    }

    pub fn title(self) -> &'static str {
        match self {
            Self::MonthlySummary => "Monthly summary",
            Self::Lybunt => "LYBUNT donors",
            Self::Sybunt => "SYBUNT donors",
            Self::SourceCodes => "Source-code performance",
            Self::Mailings => "Mailing performance",
            Self::Acquisition => "Acquisition by origin code",
            Self::Flights => "Flight performance",
            Self::MediaRoas => "Media ROAS",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Self::MonthlySummary => "Gifts, money and donors per month of the range, and the range's total.",
            Self::Lybunt => {
                "Donors who gave last fiscal year but nothing this fiscal year, as of the range's end."
            }
            Self::Sybunt => {
                "Donors who gave in some earlier fiscal year but nothing this fiscal year, as of the range's end."
            }
            Self::SourceCodes => "Gifts, donors and money per source code with gifts in the range.",
            Self::Mailings => "Delivery, engagement and revenue of the mailings sent in the range.",
            Self::Acquisition => "Contacts acquired in the range per origin code, and what they gave.",
            Self::Flights => "Every send in the range with its variants and segments: delivery, engagement and revenue.",
            Self::MediaRoas => {
                "Spend, cost per lead and donor, and revenue and ROAS after the touch, per ad campaign."
            }
        }
    }

    /// Whether only the range's end matters (the donor-status lists are "as of" a day).
    pub fn as_of(self) -> bool {
        matches!(self, Self::Lybunt | Self::Sybunt)
    }

    pub fn columns(self) -> &'static [Column] {
        match self {
            Self::MonthlySummary => monthly::COLUMNS,
            Self::Lybunt | Self::Sybunt => lapsed::COLUMNS,
            Self::SourceCodes => source_codes::COLUMNS,
            Self::Mailings => mailings::COLUMNS,
            Self::Acquisition => acquisition::COLUMNS,
            Self::Flights => flights::COLUMNS,
            Self::MediaRoas => media_roas::COLUMNS,
        }
    }
}

pub use crate::tabular::ColumnKind;

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Column {
    pub key: &'static str,
    pub label: &'static str,
    pub kind: ColumnKind,
}

pub(crate) const fn col(key: &'static str, label: &'static str, kind: ColumnKind) -> Column {
    Column { key, label, kind }
}

/// A date range in the client's time zone, both days included, with the instants that bound it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReportRange {
    pub tz: String,
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// Start of `from` and end of `to` (exclusive) in the client's zone.
    pub lo: DateTime<Utc>,
    pub hi: DateTime<Utc>,
}

/// Resolves `from`–`to` (client zone; default the current month up to today).
pub async fn resolve_range(
    conn: &mut PgConnection,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<ReportRange, ReportError> {
    let range = sqlx::query_as::<_, ReportRange>(
        "select tz, f as \"from\", t as \"to\", f::timestamp at time zone tz as lo,
                (t + 1)::timestamp at time zone tz as hi
         from (select time_zone as tz,
                      coalesce($1::date, date_trunc('month', now() at time zone time_zone)::date) as f,
                      coalesce($2::date, (now() at time zone time_zone)::date) as t
               from app_settings) s",
    )
    .bind(from)
    .bind(to)
    .fetch_one(conn)
    .await?;
    if range.from > range.to {
        return Err(ReportError::Invalid(
            "The start of the range is after its end".to_owned(),
        ));
    }
    if (range.to - range.from).num_days() >= MAX_RANGE_DAYS {
        return Err(ReportError::Invalid(
            "The range may span at most ten years".to_owned(),
        ));
    }
    Ok(range)
}

/// A report's answer: its columns and rows (at most the limit asked for) and how many rows it has in all.
#[derive(Debug, Clone)]
pub struct Table {
    pub kind: ReportKind,
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub columns: &'static [Column],
    pub rows: Vec<Vec<String>>,
    pub total_rows: i64,
}

/// How many rows the report has over the range (the donor lists count their set; the others are small).
pub async fn count(
    conn: &mut PgConnection,
    kind: ReportKind,
    range: &ReportRange,
) -> Result<i64, ReportError> {
    match kind {
        ReportKind::Lybunt | ReportKind::Sybunt => lapsed::count(conn, kind, range).await,
        _ => Ok(build(conn, kind, range, None).await?.total_rows),
    }
}

/// Builds the report over the range; `limit` caps the rows returned (not `total_rows`).
pub async fn build(
    conn: &mut PgConnection,
    kind: ReportKind,
    range: &ReportRange,
    limit: Option<i64>,
) -> Result<Table, ReportError> {
    let (rows, total_rows) = match kind {
        ReportKind::Lybunt | ReportKind::Sybunt => {
            let total = lapsed::count(conn, kind, range).await?;
            (lapsed::rows(conn, kind, range, limit).await?, total)
        }
        other => {
            let mut rows = match other {
                ReportKind::MonthlySummary => monthly::rows(conn, range).await?,
                ReportKind::SourceCodes => source_codes::rows(conn, range).await?,
                ReportKind::Mailings => mailings::rows(conn, range).await?,
                ReportKind::Flights => flights::rows(conn, range).await?,
                ReportKind::MediaRoas => media_roas::rows(conn, range).await?,
                _ => acquisition::rows(conn, range).await?,
            };
            let total = rows.len() as i64;
            if let Some(limit) = limit {
                rows.truncate(usize::try_from(limit).unwrap_or(0));
            }
            (rows, total)
        }
    };
    Ok(Table {
        kind,
        from: range.from,
        to: range.to,
        columns: kind.columns(),
        rows,
        total_rows,
    })
}

/// Sends every row of the report over the range to `sender`, in the page's order, and returns how many were
/// sent. The donor lists are read as the database sends them; the other reports are small and built whole.
/// Stops early (and returns what was sent) when the receiver goes away.
pub async fn send_rows(
    conn: &mut PgConnection,
    kind: ReportKind,
    range: &ReportRange,
    sender: tokio::sync::mpsc::Sender<Vec<String>>,
) -> Result<i64, ReportError> {
    let mut sent = 0;
    if matches!(kind, ReportKind::Lybunt | ReportKind::Sybunt) {
        use futures_util::TryStreamExt;
        let mut rows = lapsed::stream(conn, kind, range);
        while let Some(row) = rows.try_next().await? {
            if sender.send(row).await.is_err() {
                break;
            }
            sent += 1;
        }
        return Ok(sent);
    }
    for row in build(conn, kind, range, None).await?.rows {
        if sender.send(row).await.is_err() {
            break;
        }
        sent += 1;
    }
    Ok(sent)
}

/// The revenue rules of docs/metrics.md, written once in `crate::revenue`.
pub(crate) use crate::revenue::{DONORS, NET};
/// Money out of SQL: a decimal string with two places.
pub(crate) const MONEY: &str = "::numeric(20, 2)::text";

/// Rows of `text[]` cells as read by `query_scalar`; nulls become empty cells.
pub(crate) fn cells(rows: Vec<Vec<Option<String>>>) -> Vec<Vec<String>> {
    rows.into_iter()
        .map(|row| row.into_iter().map(Option::unwrap_or_default).collect())
        .collect()
}
