//! Revenue › Contributions: totals, the daily series, breakdowns and the gift table with its exports. Every
//! figure follows the README's "Revenue metrics"; the SQL fragments that define them live in `store::revenue`.

use super::figures::*;
use super::gifts::*;
use super::range::{resolve_range, Range};
use crate::auth::ClientAuth;
use crate::error::ApiError;
use crate::routes::ApiTags;
use crate::state::SharedState;
use chrono::NaiveDate;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::{Binary, Json, PlainText};
use poem_openapi::OpenApi;
use store::revenue::{DONORS, NET};
use tenancy::TenantTx;

use crate::auth::PAGE_CONTRIBUTIONS;

pub struct ContributionsApi;

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
}

/// Groups the range's lines by `key` (SQL over `c` and the source code `s`, always a literal of this module).
pub(super) async fn breakdown(
    tx: &mut TenantTx,
    range: &Range,
    key: &str,
    id: &str,
    order: &str,
    limit: i64,
) -> Result<Vec<BreakdownRow>, ApiError> {
    Ok(sqlx::query_as::<_, BreakdownRow>(sqlx::AssertSqlSafe(format!(
        "select {key} as key, {id} as source_code_id, count(*) filter (where c.amount > 0) as gifts,
                {DONORS} as donors,
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
