//! The read half of revenue: totals, the daily series, breakdowns, the gift table and its exports, a contact's
//! giving and the selection lists. Every figure follows the README's "Revenue metrics" definitions; the SQL
//! fragments below are those definitions, written once.

use super::ApiTags;
use crate::auth::{ClientAuth, PAGE_CONTACTS};
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::{DateTime, NaiveDate, Utc};
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Binary, Json, PlainText};
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};
use tenancy::TenantTx;

pub const PAGE_CONTRIBUTIONS: &str = "pageContributions";

/// The metric definitions as SQL over the contributions alias `c`, written once; macros so that the mailings'
/// statement (built with `concat!`) shares them.
macro_rules! refunded_sql {
    () => {
        "(c.refund_id is not null or c.refunded_at is not null)"
    };
}
/// A line's share of net: a refunded gift keeps nothing; a negative line (a refund row) takes its amount away.
macro_rules! net_sql {
    () => {
        "(case when c.amount > 0 and (c.refund_id is not null or c.refunded_at is not null) then 0 else c.amount end)"
    };
}
/// The donor a line belongs to: its contact, or its e-mail when it has none.
macro_rules! donor_sql {
    () => {
        "coalesce(c.contact_id::text, 'e:' || c.email)"
    };
}
pub(crate) use {donor_sql, net_sql};

pub(crate) const REFUNDED: &str = refunded_sql!();
pub(crate) const NET: &str = net_sql!();
pub(crate) const DONOR: &str = donor_sql!();

/// The longest range a page may ask for; longer ones would scan years of facts per request.
const MAX_RANGE_DAYS: i64 = 3660;

pub struct ContributionsApi;

/// A date range in the client's time zone, resolved to the instants that bound it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct Range {
    pub tz: String,
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// Start of `from` and end of `to` (exclusive) in the client's zone.
    pub lo: DateTime<Utc>,
    pub hi: DateTime<Utc>,
    /// First day of the previous period of the same length.
    pub prev_from: NaiveDate,
}

/// Resolves `from`–`to` (both included, client zone; default the current month up to today).
pub(crate) async fn resolve_range(
    tx: &mut TenantTx,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<Range, ApiError> {
    let range = sqlx::query_as::<_, Range>(
        "select tz, f as \"from\", t as \"to\", f::timestamp at time zone tz as lo,
                (t + 1)::timestamp at time zone tz as hi,
                f - (t - f + 1) as prev_from
         from (select time_zone as tz,
                      coalesce($1::date, date_trunc('month', now() at time zone time_zone)::date) as f,
                      coalesce($2::date, (now() at time zone time_zone)::date) as t
               from app_settings) s",
    )
    .bind(from)
    .bind(to)
    .fetch_one(&mut **tx)
    .await?;
    if range.from > range.to {
        return Err(ApiError::BadRequest(
            "The start of the range is after its end".to_owned(),
        ));
    }
    if (range.to - range.from).num_days() >= MAX_RANGE_DAYS {
        return Err(ApiError::BadRequest(
            "The range may span at most ten years".to_owned(),
        ));
    }
    Ok(range)
}

/// Totals of a date range. Money is a decimal string with two places.
#[derive(Debug, Object, sqlx::FromRow)]
pub struct ContributionSummary {
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// All gifts in range, refunded ones included.
    pub gross: String,
    pub refunds: String,
    /// gross − refunds
    pub net: String,
    pub fees: String,
    pub gifts: i64,
    #[oai(rename = "refundedGifts")]
    pub refunded_gifts: i64,
    pub donors: i64,
    /// Donors whose first gift ever is in the range.
    #[oai(rename = "newDonors")]
    pub new_donors: i64,
    #[oai(rename = "averageGift")]
    pub average_gift: String,
    #[oai(rename = "medianGift")]
    pub median_gift: String,
    #[oai(rename = "recurringGross")]
    pub recurring_gross: String,
    /// recurring gross ÷ gross (0 when there is no gross).
    #[oai(rename = "recurringShare")]
    pub recurring_share: f64,
}

/// One day of the range, beside the same day of the previous period.
#[derive(Debug, Object)]
pub struct RevenueDay {
    pub date: NaiveDate,
    pub gross: String,
    pub net: String,
    pub gifts: i64,
    #[oai(rename = "previousDate")]
    pub previous_date: NaiveDate,
    #[oai(rename = "previousNet")]
    pub previous_net: String,
    #[oai(rename = "previousGifts")]
    pub previous_gifts: i64,
}

#[derive(sqlx::FromRow)]
struct DayRow {
    day: NaiveDate,
    gross: String,
    net: String,
    gifts: i64,
}

#[derive(Debug, Object)]
pub struct RevenueSeries {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub days: Vec<RevenueDay>,
}

/// A row of a breakdown: a channel, source code, fundraising page or amount band.
#[derive(Debug, Object, sqlx::FromRow)]
pub struct BreakdownRow {
    pub key: String,
    /// The source code's id (source-code breakdown only).
    #[oai(nullable, rename = "sourceCodeId")]
    pub source_code_id: Option<i64>,
    pub gifts: i64,
    pub donors: i64,
    pub gross: String,
    pub net: String,
}

#[derive(Debug, Object)]
pub struct Breakdowns {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub channels: Vec<BreakdownRow>,
    /// The 100 codes with the most gross.
    #[oai(rename = "sourceCodes")]
    pub source_codes: Vec<BreakdownRow>,
    /// The 100 pages with the most gross.
    pub pages: Vec<BreakdownRow>,
    /// Under 25, 25–49.99, 50–99.99, 100–249.99, 250–999.99, 1000 and over; only bands with gifts.
    pub bands: Vec<BreakdownRow>,
}

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
    fn column(self) -> &'static str {
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
struct GiftFilter {
    source_code_id: Option<i64>,
    refunded: Option<bool>,
    recurring: Option<bool>,
    /// A LIKE pattern over e-mail, refcode, page and name, already escaped.
    text: Option<String>,
}

/// Filters are fixed SQL with nullable parameters ($1, $2 = the range; $3–$6 = the filters), so no input is
/// ever spliced into the statement.
const GIFT_WHERE: &str = "where c.paid_at >= $1 and c.paid_at < $2
      and ($3::bigint is null or c.source_code_id = $3)
      and ($4::boolean is null or (c.refund_id is not null or c.refunded_at is not null) = $4)
      and ($5::boolean is null or (c.recurring_months is not null) = $5)
      and ($6::text is null or c.email ilike $6 escape '\\' or c.refcode ilike $6 escape '\\'
           or c.fundraising_page ilike $6 escape '\\'
           or (coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')) ilike $6 escape '\\')";

const GIFT_COLUMNS: &str = "c.id, c.platform, c.line_item_id, c.paid_at, c.amount::text as amount,
        c.fee::text as fee, c.refcode, c.source_code_id, c.fundraising_page,
        c.recurring_months is not null as recurring, c.recurring_months,
        (c.refund_id is not null or c.refunded_at is not null) as refunded, c.refunded_at, c.email,
        c.first_name, c.last_name, c.contact_id, c.mailing_id, m.name as mailing_name, c.attribution";
const GIFT_FROM: &str = "from contributions c left join mailings m on m.id = c.mailing_id";

/// A gift with its time written in the client's zone (Postgres holds the zone database).
#[derive(sqlx::FromRow)]
struct ExportRow {
    #[sqlx(flatten)]
    gift: Gift,
    local_time: String,
}

fn like_pattern(raw: Option<&str>) -> Option<String> {
    let term = raw.map(str::trim).filter(|t| !t.is_empty())?;
    Some(format!(
        "%{}%",
        term.replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    ))
}

/// The filtered gifts; `$9` is the client's zone, for the local time of exports.
async fn fetch_gifts<T>(
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
const EXPORT_LIMIT: i64 = 1_000_000;

const EXPORT_HEADER: [&str; 14] = [
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
fn export_cells(row: &ExportRow) -> [String; 14] {
    let gift = &row.gift;
    let text = |v: &Option<String>| super::lists::neutralise_formula(v.as_deref().unwrap_or(""));
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_owned();
    [
        row.local_time.clone(),
        gift.platform.clone(),
        super::lists::neutralise_formula(&gift.line_item_id),
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

/// A contact's giving, by the README's definitions.
#[derive(Debug, Object, sqlx::FromRow)]
pub struct ContactGiving {
    #[oai(nullable, rename = "firstGift")]
    pub first_gift: Option<DateTime<Utc>>,
    #[oai(nullable, rename = "lastGift")]
    pub last_gift: Option<DateTime<Utc>>,
    /// Highest previous contribution (not refunded).
    #[oai(nullable)]
    pub hpc: Option<String>,
    /// Most recent contribution (not refunded).
    #[oai(nullable)]
    pub mrc: Option<String>,
    /// The contact's net.
    pub total: String,
    pub count: i64,
    pub sustainer: bool,
    /// prospect, first-time donor, repeat donor, sustainer or lapsed
    pub category: String,
}

#[derive(Debug, Object)]
pub struct ContactGivingDetail {
    pub summary: ContactGiving,
    /// The contact's gifts, newest first (at most 500).
    pub gifts: Vec<Gift>,
}

/// An entry of a selection list.
#[derive(Debug, Object, sqlx::FromRow)]
pub struct SelectionOption {
    pub id: String,
    pub label: String,
}

/// An entry of a selection list whose id is a row id.
#[derive(Debug, Object, sqlx::FromRow)]
pub struct SelectionRow {
    pub id: i64,
    pub label: String,
}

/// The contact categories, in the order they are decided (README).
pub(crate) const CONTACT_CATEGORY_SQL: &str = "case
      when exists (select 1 from contributions c where c.contact_id = k.id and c.amount > 0
                     and c.recurring_months is not null
                     and not (c.refund_id is not null or c.refunded_at is not null)
                     and c.paid_at >= now() - interval '35 days') then 'sustainer'
      when g.last_gift is null then 'prospect'
      when g.last_gift <= now() - interval '13 months' then 'lapsed'
      when g.count >= 2 then 'repeat donor'
      else 'first-time donor' end";

fn options(pairs: &[(&str, &str)]) -> Vec<SelectionOption> {
    pairs
        .iter()
        .map(|(id, label)| SelectionOption {
            id: (*id).to_owned(),
            label: (*label).to_owned(),
        })
        .collect()
}

fn default_page() -> i64 {
    1
}

fn default_page_size() -> i64 {
    50
}

#[OpenApi(tag = "ApiTags::Revenue")]
impl ContributionsApi {
    /// Totals of a date range (client zone; default this month).
    #[oai(
        path = "/api/contributions/summary",
        method = "get",
        operation_id = "getContributionSummary"
    )]
    async fn summary(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<Json<ContributionSummary>, ApiError> {
        auth.0.require(PAGE_CONTRIBUTIONS)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let range = resolve_range(&mut tx, from.0, to.0).await?;
        let summary = sqlx::query_as::<_, ContributionSummary>(
            // Whole days come from the rollup; only distinct donors and the median read the facts, from the
            // covering index on paid_at.
            "with t as (
                 select coalesce(sum(gross), 0) as gross, coalesce(sum(refunds), 0) as refunds,
                        coalesce(sum(fees), 0) as fees, coalesce(sum(gifts), 0)::bigint as gifts,
                        coalesce(sum(refunded_gifts), 0)::bigint as refunded_gifts,
                        coalesce(sum(recurring_gross), 0) as recurring_gross
                 from contribution_days where day between $3 and $4
             ), g as (
                 -- Hashed, not sorted: distinct donors by their key's two parts, the median from the count
                 -- of each amount (the lower and the upper middle value: their mean is the median, exactly).
                 select (select count(*) from (
                             select distinct c.contact_id, case when c.contact_id is null then c.email end
                             from contributions c
                             where c.paid_at >= $1 and c.paid_at < $2 and c.amount > 0
                               and (c.contact_id is not null or c.email is not null)) d) as donors,
                        min(amount) filter (where cum >= (total + 1) / 2) as mid_low,
                        min(amount) filter (where cum >= total / 2 + 1) as mid_high
                 from (select amount, sum(n) over (order by amount) as cum, (sum(n) over ())::bigint as total
                       from (select c.amount, count(*) as n from contributions c
                             where c.paid_at >= $1 and c.paid_at < $2 and c.amount > 0
                             group by c.amount) a) m
             )
             select $3::date as \"from\", $4::date as \"to\",
                    gross::numeric(20, 2)::text as gross, refunds::numeric(20, 2)::text as refunds,
                    (gross - refunds)::numeric(20, 2)::text as net, fees::numeric(20, 2)::text as fees,
                    gifts, refunded_gifts, donors,
                    -- A donor is new when their first gift ever falls in the range.
                    (select count(*) from donor_firsts f
                     where f.first_paid_at >= $1 and f.first_paid_at < $2) as new_donors,
                    (case when gifts > 0 then round(gross / gifts, 2) else 0 end)::numeric(20, 2)::text
                      as average_gift,
                    coalesce(round((mid_low + mid_high) / 2, 2), 0)::numeric(20, 2)::text as median_gift,
                    recurring_gross::numeric(20, 2)::text as recurring_gross,
                    (case when gross > 0 then recurring_gross / gross else 0 end)::float8 as recurring_share
             from t cross join g",
        )
        .bind(range.lo)
        .bind(range.hi)
        .bind(range.from)
        .bind(range.to)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(summary))
    }

    /// Net, gross and gifts per day of the range, each beside the same day of the previous period of equal
    /// length.
    #[oai(
        path = "/api/contributions/series",
        method = "get",
        operation_id = "getContributionSeries"
    )]
    async fn series(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<Json<RevenueSeries>, ApiError> {
        auth.0.require(PAGE_CONTRIBUTIONS)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let range = resolve_range(&mut tx, from.0, to.0).await?;
        let rows = sqlx::query_as::<_, DayRow>(
            "with agg as (
                 select day, sum(gross) as gross, sum(net) as net, sum(gifts)::bigint as gifts
                 from contribution_days where day between $1 and $2 group by day
             )
             select d.day::date as day, coalesce(a.gross, 0)::numeric(20, 2)::text as gross,
                    coalesce(a.net, 0)::numeric(20, 2)::text as net, coalesce(a.gifts, 0) as gifts
             from generate_series($1::date, $2::date, interval '1 day') d (day)
             left join agg a on a.day = d.day::date
             order by d.day",
        )
        .bind(range.prev_from)
        .bind(range.to)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        let half = rows.len() / 2;
        let (previous, current) = rows.split_at(half);
        let days = current
            .iter()
            .zip(previous)
            .map(|(day, prev)| RevenueDay {
                date: day.day,
                gross: day.gross.clone(),
                net: day.net.clone(),
                gifts: day.gifts,
                previous_date: prev.day,
                previous_net: prev.net.clone(),
                previous_gifts: prev.gifts,
            })
            .collect();
        Ok(Json(RevenueSeries {
            from: range.from,
            to: range.to,
            days,
        }))
    }

    /// Gifts, donors, gross and net by channel, source code, fundraising page and amount band.
    #[oai(
        path = "/api/contributions/breakdowns",
        method = "get",
        operation_id = "getContributionBreakdowns"
    )]
    async fn breakdowns(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<Json<Breakdowns>, ApiError> {
        auth.0.require(PAGE_CONTRIBUTIONS)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let range = resolve_range(&mut tx, from.0, to.0).await?;
        let channel = "case when c.refcode is null and c.source_code_id is null then 'none'
                            when s.parsed and s.channel is not null then s.channel else 'unparsed' end";
        let channels = breakdown(
            &mut tx,
            &range,
            channel,
            "null::bigint",
            "sum(c.amount) filter (where c.amount > 0) desc nulls last, 1",
            1000,
        )
        .await?;
        let source_codes = breakdown(
            &mut tx,
            &range,
            "coalesce(s.code, c.refcode, 'none')",
            "s.id",
            "sum(c.amount) filter (where c.amount > 0) desc nulls last, 1",
            100,
        )
        .await?;
        let pages = breakdown(
            &mut tx,
            &range,
            "coalesce(c.fundraising_page, 'none')",
            "null::bigint",
            "sum(c.amount) filter (where c.amount > 0) desc nulls last, 1",
            100,
        )
        .await?;
        let band = "case when c.amount <= 0 then 'Refunds and adjustments' when c.amount < 25 then 'Under $25' when c.amount < 50 then '$25–49.99'
                         when c.amount < 100 then '$50–99.99' when c.amount < 250 then '$100–249.99'
                         when c.amount < 1000 then '$250–999.99' else '$1,000 and over' end";
        let bands = breakdown(&mut tx, &range, band, "null::bigint", "min(c.amount)", 10).await?;
        tx.commit().await?;
        Ok(Json(Breakdowns {
            from: range.from,
            to: range.to,
            channels,
            source_codes,
            pages,
            bands,
        }))
    }

    /// One page of the range's gifts, sorted and filtered (`q` searches e-mail, refcode, page and name).
    #[oai(
        path = "/api/contributions",
        method = "get",
        operation_id = "listContributions"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
        #[oai(name = "sourceCodeId")] source_code_id: Query<Option<i64>>,
        refunded: Query<Option<bool>>,
        recurring: Query<Option<bool>>,
        q: Query<Option<String>>,
        sort: Query<Option<GiftSort>>,
        order: Query<Option<SortOrder>>,
        #[oai(
            default = "default_page",
            validator(minimum(value = "1"), maximum(value = "100000"))
        )]
        page: Query<i64>,
        #[oai(
            name = "pageSize",
            default = "default_page_size",
            validator(minimum(value = "1"), maximum(value = "500"))
        )]
        page_size: Query<i64>,
    ) -> Result<Json<GiftPage>, ApiError> {
        auth.0.require(PAGE_CONTRIBUTIONS)?;
        let filter = GiftFilter {
            source_code_id: source_code_id.0,
            refunded: refunded.0,
            recurring: recurring.0,
            text: like_pattern(q.0.as_deref()),
        };
        let (direction, tie) = match order.0.unwrap_or(SortOrder::Desc) {
            SortOrder::Asc => ("asc nulls first", "asc"),
            SortOrder::Desc => ("desc nulls last", "desc"),
        };
        let column = sort.0.unwrap_or(GiftSort::PaidAt).column();
        let order_by = format!("{column} {direction}, c.id {tie}");
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let range = resolve_range(&mut tx, from.0, to.0).await?;
        let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "select count(*) from contributions c {GIFT_WHERE}"
        )))
        .bind(range.lo)
        .bind(range.hi)
        .bind(filter.source_code_id)
        .bind(filter.refunded)
        .bind(filter.recurring)
        .bind(&filter.text)
        .fetch_one(&mut *tx)
        .await?;
        let items = fetch_gifts(
            &mut tx,
            &range,
            &filter,
            &order_by,
            page_size.0,
            (page.0 - 1) * page_size.0,
        )
        .await?;
        tx.commit().await?;
        Ok(Json(GiftPage {
            items,
            total,
            page: page.0,
            page_size: page_size.0,
        }))
    }

    /// The filtered gifts of the range as CSV (dates in the client's zone; formula-like cells made text).
    #[oai(
        path = "/api/contributions/export/csv",
        method = "get",
        operation_id = "exportContributionsCsv"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn export_csv(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
        #[oai(name = "sourceCodeId")] source_code_id: Query<Option<i64>>,
        refunded: Query<Option<bool>>,
        recurring: Query<Option<bool>>,
        q: Query<Option<String>>,
    ) -> Result<GiftCsv, ApiError> {
        let (range, gifts) = export_rows(
            &state,
            &auth,
            from.0,
            to.0,
            GiftFilter {
                source_code_id: source_code_id.0,
                refunded: refunded.0,
                recurring: recurring.0,
                text: like_pattern(q.0.as_deref()),
            },
        )
        .await?;
        let mut out = csv::Writer::from_writer(Vec::new());
        out.write_record(EXPORT_HEADER)
            .map_err(ApiError::internal)?;
        for gift in &gifts {
            out.write_record(export_cells(gift))
                .map_err(ApiError::internal)?;
        }
        let bytes = out.into_inner().map_err(ApiError::internal)?;
        let body = String::from_utf8(bytes).map_err(ApiError::internal)?;
        Ok(GiftCsv::Csv(
            PlainText(body),
            format!(
                "attachment; filename=\"contributions-{}-{}.csv\"",
                range.from, range.to
            ),
        ))
    }

    /// The filtered gifts of the range as an Excel workbook (amounts as numbers with two decimals).
    #[oai(
        path = "/api/contributions/export/xlsx",
        method = "get",
        operation_id = "exportContributionsXlsx"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn export_xlsx(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
        #[oai(name = "sourceCodeId")] source_code_id: Query<Option<i64>>,
        refunded: Query<Option<bool>>,
        recurring: Query<Option<bool>>,
        q: Query<Option<String>>,
    ) -> Result<GiftXlsx, ApiError> {
        let (range, gifts) = export_rows(
            &state,
            &auth,
            from.0,
            to.0,
            GiftFilter {
                source_code_id: source_code_id.0,
                refunded: refunded.0,
                recurring: recurring.0,
                text: like_pattern(q.0.as_deref()),
            },
        )
        .await?;
        let bytes = tokio::task::spawn_blocking(move || xlsx(&gifts))
            .await
            .map_err(ApiError::internal)??;
        Ok(GiftXlsx::Xlsx(
            Binary(bytes),
            format!(
                "attachment; filename=\"contributions-{}-{}.xlsx\"",
                range.from, range.to
            ),
        ))
    }

    /// A contact's giving summary and gift history.
    #[oai(
        path = "/api/contacts/:id/giving",
        method = "get",
        operation_id = "getContactGiving"
    )]
    async fn contact_giving(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<ContactGivingDetail>, ApiError> {
        auth.0.require(PAGE_CONTACTS)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let summary = sqlx::query_as::<_, ContactGiving>(sqlx::AssertSqlSafe(format!(
            "with g as (
                 select min(c.paid_at) filter (where c.amount > 0) as first_gift,
                        max(c.paid_at) filter (where c.amount > 0) as last_gift,
                        max(c.amount) filter (where c.amount > 0 and not {REFUNDED}) as hpc,
                        (array_agg(c.amount order by c.paid_at desc, c.id desc)
                           filter (where c.amount > 0 and not {REFUNDED}))[1] as mrc,
                        coalesce(sum({NET}), 0) as total,
                        count(*) filter (where c.amount > 0) as count
                 from contributions c where c.contact_id = $1
             )
             select g.first_gift, g.last_gift, g.hpc::text as hpc, g.mrc::text as mrc,
                    g.total::numeric(20, 2)::text as total, g.count,
                    ({CONTACT_CATEGORY_SQL}) = 'sustainer' as sustainer,
                    {CONTACT_CATEGORY_SQL} as category
             from contacts k cross join g where k.id = $1"
        )))
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| ApiError::NotFound("Contact not found".to_owned()))?;
        let gifts = sqlx::query_as::<_, Gift>(sqlx::AssertSqlSafe(format!(
            "select {GIFT_COLUMNS} {GIFT_FROM} where c.contact_id = $1 order by c.paid_at desc, c.id desc limit 500"
        )))
        .bind(id.0)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(ContactGivingDetail { summary, gifts }))
    }

    /// Selection data: contribution categories.
    #[oai(
        path = "/api/selection/contribution-categories",
        method = "get",
        operation_id = "listContributionCategories"
    )]
    async fn contribution_categories(
        &self,
        _auth: ClientAuth,
    ) -> Result<Json<Vec<SelectionOption>>, ApiError> {
        Ok(Json(options(&[
            ("one-time", "One-time"),
            ("recurring", "Recurring"),
            ("refunded", "Refunded"),
        ])))
    }

    /// Selection data: the attribution rules a gift can carry.
    #[oai(
        path = "/api/selection/attribution-code-names",
        method = "get",
        operation_id = "listAttributionCodeNames"
    )]
    async fn attribution_codes(
        &self,
        _auth: ClientAuth,
    ) -> Result<Json<Vec<SelectionOption>>, ApiError> {
        Ok(Json(options(&[
            ("refcode", "Refcode"),
            ("click", "Click window"),
            ("none", "None"),
        ])))
    }

    /// Selection data: contact categories from the giving data.
    #[oai(
        path = "/api/selection/contact-categories",
        method = "get",
        operation_id = "listContactCategories"
    )]
    async fn contact_categories(
        &self,
        _auth: ClientAuth,
    ) -> Result<Json<Vec<SelectionOption>>, ApiError> {
        Ok(Json(options(&[
            ("prospect", "Prospect"),
            ("first-time donor", "First-time donor"),
            ("repeat donor", "Repeat donor"),
            ("sustainer", "Sustainer"),
            ("lapsed", "Lapsed"),
        ])))
    }

    /// Selection data: source codes (contribcodes) by name.
    #[oai(
        path = "/api/selection/contribcode-names",
        method = "get",
        operation_id = "listContribcodeNames"
    )]
    async fn contribcode_names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<SelectionRow>>, ApiError> {
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let rows = sqlx::query_as::<_, SelectionRow>(
            "select id, code as label from source_codes order by code limit 10000",
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(rows))
    }

    /// Selection data: mailings by name, newest first.
    #[oai(
        path = "/api/selection/mailing-names",
        method = "get",
        operation_id = "listMailingNames"
    )]
    async fn mailing_names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<SelectionRow>>, ApiError> {
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let rows = sqlx::query_as::<_, SelectionRow>(
            "select id, name as label from mailings order by created desc, id desc limit 10000",
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(rows))
    }
}

/// Groups the range's lines by `key` (SQL over `c` and the source code `s`, always a literal of this module).
async fn breakdown(
    tx: &mut TenantTx,
    range: &Range,
    key: &str,
    id: &str,
    order: &str,
    limit: i64,
) -> Result<Vec<BreakdownRow>, ApiError> {
    Ok(sqlx::query_as::<_, BreakdownRow>(sqlx::AssertSqlSafe(format!(
        "select {key} as key, {id} as source_code_id, count(*) filter (where c.amount > 0) as gifts,
                count(distinct {DONOR}) filter (where c.amount > 0) as donors,
                coalesce(sum(c.amount) filter (where c.amount > 0), 0)::numeric(20, 2)::text as gross,
                coalesce(sum({NET}), 0)::numeric(20, 2)::text as net
         from contributions c left join source_codes s on s.id = c.source_code_id
         where c.paid_at >= $1 and c.paid_at < $2
         group by 1, 2 order by {order} limit $3"
    )))
    .bind(range.lo)
    .bind(range.hi)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await?)
}

async fn export_rows(
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

fn xlsx(gifts: &[ExportRow]) -> Result<Vec<u8>, ApiError> {
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
