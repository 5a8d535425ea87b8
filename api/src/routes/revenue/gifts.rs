//! The gift table: its rows, filters, sort and exports (CSV and XLSX), shared by the contributions page and a
//! contact's giving.

use super::range::{resolve_range, Range};
use crate::auth::ClientAuth;
use crate::auth::PAGE_CONTRIBUTIONS;
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::{DateTime, NaiveDate, Utc};
use poem_openapi::payload::{Binary, PlainText};
use poem_openapi::{ApiResponse, Enum, Object};
use tenancy::TenantTx;

/// One line of the gift table.
#[derive(Debug, Object, sqlx::FromRow)]
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
    pub(super) fn column(self) -> &'static str {
        match self {
            Self::PaidAt => "c.paid_at",
            Self::Amount => "c.amount",
            Self::Refcode => "c.refcode",
            Self::FundraisingPage => "c.fundraising_page",
            Self::Email => "c.email",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum SortOrder {
    Asc,
    Desc,
}

/// The gift table's filters; exports take the same.
pub(super) struct GiftFilter {
    pub(super) source_code_id: Option<i64>,
    pub(super) refunded: Option<bool>,
    pub(super) recurring: Option<bool>,
    /// A LIKE pattern over e-mail, refcode, page and name, already escaped.
    pub(super) text: Option<String>,
}

/// Filters are fixed SQL with nullable parameters ($1, $2 = the range; $3–$6 = the filters), so no input is
/// ever spliced into the statement.
pub(super) const GIFT_WHERE: &str = "where c.paid_at >= $1 and c.paid_at < $2
      and ($3::bigint is null or c.source_code_id = $3)
      and ($4::boolean is null or (c.refund_id is not null or c.refunded_at is not null) = $4)
      and ($5::boolean is null or (c.recurring_months is not null) = $5)
      and ($6::text is null or c.email ilike $6 escape '\\' or c.refcode ilike $6 escape '\\'
           or c.fundraising_page ilike $6 escape '\\'
           or (coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')) ilike $6 escape '\\')";

pub(super) const GIFT_COLUMNS: &str = "c.id, c.platform, c.line_item_id, c.paid_at, c.amount::text as amount,
        c.fee::text as fee, c.refcode, c.source_code_id, c.fundraising_page,
        c.recurring_months is not null as recurring, c.recurring_months,
        (c.refund_id is not null or c.refunded_at is not null) as refunded, c.refunded_at, c.email,
        c.first_name, c.last_name, c.contact_id, c.mailing_id, m.name as mailing_name, c.attribution";
pub(super) const GIFT_FROM: &str =
    "from contributions c left join mailings m on m.id = c.mailing_id";

/// A gift with its time written in the client's zone (Postgres holds the zone database).
#[derive(sqlx::FromRow)]
pub(super) struct ExportRow {
    #[sqlx(flatten)]
    pub(super) gift: Gift,
    pub(super) local_time: String,
}

pub(super) fn like_pattern(raw: Option<&str>) -> Option<String> {
    let term = raw.map(str::trim).filter(|t| !t.is_empty())?;
    Some(format!(
        "%{}%",
        term.replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    ))
}

/// The filtered gifts; `$9` is the client's zone, for the local time of exports.
pub(super) async fn fetch_gifts<T>(
    tx: &mut TenantTx,
    range: &Range,
    filter: &GiftFilter,
    order: &str,
    limit: i64,
    offset: i64,
) -> Result<Vec<T>, ApiError>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
{
    Ok(sqlx::query_as::<_, T>(sqlx::AssertSqlSafe(format!(
        "select {GIFT_COLUMNS}, to_char(c.paid_at at time zone $9, 'YYYY-MM-DD HH24:MI:SS') as local_time
         {GIFT_FROM} {GIFT_WHERE} order by {order} limit $7 offset $8"
    )))
    .bind(range.lo)
    .bind(range.hi)
    .bind(filter.source_code_id)
    .bind(filter.refunded)
    .bind(filter.recurring)
    .bind(&filter.text)
    .bind(limit)
    .bind(offset)
    .bind(&range.tz)
    .fetch_all(&mut **tx)
    .await?)
}

/// The most rows one export holds.
pub(super) const EXPORT_LIMIT: i64 = 1_000_000;

pub(super) const EXPORT_HEADER: [&str; 14] = [
    "Date",
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
    /// The filtered gifts as CSV.
    #[oai(status = 200, content_type = "text/csv; charset=utf-8")]
    Csv(
        PlainText<String>,
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
        Binary<Vec<u8>>,
        #[oai(header = "Content-Disposition")] String,
    ),
}

pub(super) fn default_page() -> i64 {
    1
}

pub(super) fn default_page_size() -> i64 {
    50
}

pub(super) async fn export_rows(
    state: &SharedState,
    auth: &ClientAuth,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    filter: GiftFilter,
) -> Result<(Range, Vec<ExportRow>), ApiError> {
    auth.0.require(PAGE_CONTRIBUTIONS)?;
    let mut tx = state.tenancy.begin(&auth.0.client).await?;
    let range = resolve_range(&mut tx, from, to).await?;
    let gifts = fetch_gifts(&mut tx, &range, &filter, "c.paid_at, c.id", EXPORT_LIMIT, 0).await?;
    tx.commit().await?;
    Ok((range, gifts))
}

pub(super) fn xlsx(gifts: &[ExportRow]) -> Result<Vec<u8>, ApiError> {
    use rust_xlsxwriter::{Format, Workbook};
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let bold = Format::new().set_bold();
    let money = Format::new().set_num_format("#,##0.00");
    let fail = |e: rust_xlsxwriter::XlsxError| ApiError::internal(e);
    for (col, title) in (0u16..).zip(EXPORT_HEADER) {
        sheet
            .write_string_with_format(0, col, title, &bold)
            .map_err(fail)?;
    }
    for (row, gift) in (1u32..).zip(gifts) {
        for (col, cell) in (0u16..).zip(export_cells(gift)) {
            // Amount and fee are numbers so sheets can sum them; the decimal string came from Postgres and a
            // double holds every two-decimal amount below 10^13 to the cent.
            let number = if col == 3 || col == 4 {
                cell.parse::<f64>().ok()
            } else {
                None
            };
            match number {
                Some(n) => sheet.write_number_with_format(row, col, n, &money),
                None => sheet.write_string(row, col, cell),
            }
            .map_err(fail)?;
        }
    }
    book.save_to_buffer().map_err(fail)
}
