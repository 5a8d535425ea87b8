//! The gift table: its rows, filters, sort and exports (CSV and XLSX), shared by the contributions page and a
//! contact's giving.

use super::range::{resolve_range, Range};
use crate::auth::ClientAuth;
use crate::auth::PAGE_CONTRIBUTIONS;
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::{DateTime, NaiveDate, Utc};
use futures_util::TryStreamExt;
use poem_openapi::payload::Binary;
use poem_openapi::{ApiResponse, Enum, Object};
use store::revenue::gifts::{self, ExportRow, GiftFilter, GiftRow, SortColumn};
use store::tabular::{ColumnKind, Format, TableWriter};
use tenancy::TenantTx;

/// One line of the gift table.
#[derive(Debug, Object)]
pub struct Gift {
    pub id: i64,
    pub platform: String,
    #[oai(rename = "lineItemId")]
    pub line_item_id: String,
    #[oai(rename = "paidAt")]
    pub paid_at: DateTime<Utc>,
    pub amount: String,
    #[oai(nullable)]
    pub fee: Option<String>,
    #[oai(nullable)]
    pub refcode: Option<String>,
    #[oai(nullable, rename = "sourceCodeId")]
    pub source_code_id: Option<i64>,
    #[oai(nullable, rename = "fundraisingPage")]
    pub fundraising_page: Option<String>,
    pub recurring: bool,
    #[oai(nullable, rename = "recurringMonths")]
    pub recurring_months: Option<i32>,
    pub refunded: bool,
    #[oai(nullable, rename = "refundedAt")]
    pub refunded_at: Option<DateTime<Utc>>,
    #[oai(nullable)]
    pub email: Option<String>,
    #[oai(nullable, rename = "firstName")]
    pub first_name: Option<String>,
    #[oai(nullable, rename = "lastName")]
    pub last_name: Option<String>,
    #[oai(nullable, rename = "contactId")]
    pub contact_id: Option<i64>,
    #[oai(nullable, rename = "mailingId")]
    pub mailing_id: Option<i64>,
    #[oai(nullable, rename = "mailingName")]
    pub mailing_name: Option<String>,
    /// refcode, click or none: the rule that credited the gift to its mailing.
    pub attribution: String,
}

impl From<GiftRow> for Gift {
    fn from(g: GiftRow) -> Self {
        Self {
            id: g.id,
            platform: g.platform,
            line_item_id: g.line_item_id,
            paid_at: g.paid_at,
            amount: g.amount,
            fee: g.fee,
            refcode: g.refcode,
            source_code_id: g.source_code_id,
            fundraising_page: g.fundraising_page,
            recurring: g.recurring,
            recurring_months: g.recurring_months,
            refunded: g.refunded,
            refunded_at: g.refunded_at,
            email: g.email,
            first_name: g.first_name,
            last_name: g.last_name,
            contact_id: g.contact_id,
            mailing_id: g.mailing_id,
            mailing_name: g.mailing_name,
            attribution: g.attribution,
        }
    }
}

#[derive(Debug, Object)]
pub struct GiftPage {
    pub items: Vec<Gift>,
    /// Gifts matching the filters, across all pages.
    pub total: i64,
    pub page: i64,
    #[oai(rename = "pageSize")]
    pub page_size: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
pub enum GiftSort {
    #[oai(rename = "paidAt")]
    PaidAt,
    #[oai(rename = "amount")]
    Amount,
    #[oai(rename = "refcode")]
    Refcode,
    #[oai(rename = "fundraisingPage")]
    FundraisingPage,
    #[oai(rename = "email")]
    Email,
}

impl GiftSort {
    pub(super) fn column(self) -> SortColumn {
        match self {
            Self::PaidAt => SortColumn::PaidAt,
            Self::Amount => SortColumn::Amount,
            Self::Refcode => SortColumn::Refcode,
            Self::FundraisingPage => SortColumn::FundraisingPage,
            Self::Email => SortColumn::Email,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum SortOrder {
    Asc,
    Desc,
}

pub(super) fn like_pattern(raw: Option<&str>) -> Option<String> {
    let term = raw.map(str::trim).filter(|t| !t.is_empty())?;
    Some(store::like::containing(term))
}

/// The export's header; the first column names the zone its times are written in.
pub(super) fn export_header(tz: &str) -> [String; 14] {
    let mut header = EXPORT_HEADER.map(str::to_owned);
    header[0] = format!("Paid at ({tz})");
    header
}

const EXPORT_HEADER: [&str; 14] = [
    "Paid at",
    "Platform",
    "Lineitem ID",
    "Amount",
    "Fee",
    "Reference Code",
    "Fundraising Page",
    "Recurring",
    "Refunded",
    "Email",
    "First Name",
    "Last Name",
    "Mailing",
    "Attribution",
];

/// What each export column holds (`store::tabular`): the time is a date-time cell, amount and fee money.
const EXPORT_KINDS: [ColumnKind; 14] = {
    use ColumnKind::*;
    [
        DateTime, Text, Text, Money, Money, Text, Text, Text, Text, Text, Text, Text, Text, Text,
    ]
};

/// A gift's export cells; texts that came from outside are neutralised against formula injection.
pub(super) fn export_cells(row: &ExportRow) -> [String; 14] {
    let gift = &row.gift;
    let text =
        |v: &Option<String>| crate::csv_stream::neutralise_formula(v.as_deref().unwrap_or(""));
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_owned();
    [
        row.local_time.clone(),
        gift.platform.clone(),
        crate::csv_stream::neutralise_formula(&gift.line_item_id),
        gift.amount.clone(),
        gift.fee.clone().unwrap_or_default(),
        text(&gift.refcode),
        text(&gift.fundraising_page),
        yes_no(gift.recurring),
        yes_no(gift.refunded),
        text(&gift.email),
        text(&gift.first_name),
        text(&gift.last_name),
        text(&gift.mailing_name),
        gift.attribution.clone(),
    ]
}

#[derive(ApiResponse)]
pub enum GiftCsv {
    /// The filtered gifts as CSV, streamed as they are read.
    #[oai(status = 200, content_type = "text/csv; charset=utf-8")]
    Csv(
        crate::csv_stream::StreamedText,
        #[oai(header = "Content-Disposition")] String,
    ),
}

#[derive(ApiResponse)]
pub enum GiftXlsx {
    /// The filtered gifts as an Excel workbook.
    #[oai(
        status = 200,
        content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )]
    Xlsx(
        Binary<poem::Body>,
        #[oai(header = "Content-Disposition")] String,
    ),
}

pub(super) fn default_page() -> i64 {
    1
}

pub(super) fn default_page_size() -> i64 {
    50
}

/// An export's transaction and filters: its rows are read by a cursor while the file is written, so the api
/// holds a few rows at a time, not the export.
pub(super) struct Export {
    tx: TenantTx,
    pub(super) range: Range,
    filter: GiftFilter,
}

pub(super) async fn open_export(
    state: &SharedState,
    auth: &ClientAuth,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    filter: GiftFilter,
) -> Result<Export, ApiError> {
    auth.0.require(PAGE_CONTRIBUTIONS)?;
    // By hand: the export's rows are read while its body is sent, so the transaction outlives the handler.
    let mut tx = state.tenancy.begin(&auth.0.client).await?;
    let range = resolve_range(&mut tx, from, to).await?;
    Ok(Export { tx, range, filter })
}

impl Export {
    /// The gifts as CSV, streamed as they are read.
    pub(super) fn csv(mut self) -> poem::Body {
        let header = export_header(&self.range.tz);
        crate::csv_stream::body(
            header.each_ref().map(String::as_str),
            move |mut out| async move {
                let mut rows = gifts::export(&mut self.tx, &self.range, &self.filter);
                while let Some(gift) = rows.try_next().await? {
                    if !out.row(&export_cells(&gift)).await {
                        break;
                    }
                }
                drop(rows);
                self.tx.commit().await?;
                Ok::<_, ApiError>(out)
            },
        )
    }

    /// The gifts as an Excel workbook. The sheet is written in constant-memory mode (each row goes to a temporary
    /// file as it is written) and the workbook is put together in an unnamed temporary file, which the body then
    /// streams: a million gifts cost the api a few MB, not the workbook.
    pub(super) async fn xlsx(mut self) -> Result<poem::Body, ApiError> {
        let (sender, mut receiver) = tokio::sync::mpsc::channel::<ExportRow>(1024);
        let header = export_header(&self.range.tz);
        let writer = tokio::task::spawn_blocking(move || -> Result<std::fs::File, ApiError> {
            let mut out = TableWriter::new(Format::Xlsx, "Contributions", &header, &EXPORT_KINDS)
                .map_err(ApiError::internal)?;
            while let Some(gift) = receiver.blocking_recv() {
                out.row(&export_cells(&gift)).map_err(ApiError::internal)?;
            }
            out.finish().map_err(ApiError::internal)
        });
        let mut rows = gifts::export(&mut self.tx, &self.range, &self.filter);
        while let Some(gift) = rows.try_next().await? {
            // The writer stopped early: its error is the answer.
            if sender.send(gift).await.is_err() {
                break;
            }
        }
        drop(rows);
        drop(sender);
        self.tx.commit().await?;
        let file = writer.await.map_err(ApiError::internal)??;
        Ok(poem::Body::from_async_read(tokio::fs::File::from_std(file)))
    }
}
