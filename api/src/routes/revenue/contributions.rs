//! Revenue › Contributions: totals, the daily series, breakdowns and the gift table with its exports. Every
//! figure follows the docs/metrics.md; the SQL fragments that define them live in `store::revenue`.

use super::figures::*;
use super::gifts::*;
use super::range::resolve_range;
use crate::auth::ClientAuth;
use crate::error::ApiError;
use crate::routes::ApiTags;
use crate::state::SharedState;
use chrono::NaiveDate;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::{Binary, Json};
use poem_openapi::OpenApi;
use store::revenue::contributions::{self, PageFilter};
use store::revenue::gifts::{self, GiftFilter, Sort};

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
    #[allow(clippy::too_many_arguments)]
    async fn summary(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
        #[oai(name = "sourceCodeId")] source_code_id: Query<Option<i64>>,
        refunded: Query<Option<bool>>,
        recurring: Query<Option<bool>>,
    ) -> Result<Json<ContributionSummary>, ApiError> {
        let filter = PageFilter {
            source_code_id: source_code_id.0,
            refunded: refunded.0,
            recurring: recurring.0,
        };
        let summary = auth
            .0
            .tx(&state, PAGE_CONTRIBUTIONS, async |tx| {
                let range = resolve_range(tx, from.0, to.0).await?;
                Ok(contributions::summary(tx, &range, &filter).await?)
            })
            .await?;
        Ok(Json(summary.into()))
    }

    /// Net, gross and gifts per day of the range, each beside the same day of the previous period of equal
    /// length.
    #[oai(
        path = "/api/contributions/series",
        method = "get",
        operation_id = "getContributionSeries"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn series(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
        #[oai(name = "sourceCodeId")] source_code_id: Query<Option<i64>>,
        refunded: Query<Option<bool>>,
        recurring: Query<Option<bool>>,
    ) -> Result<Json<RevenueSeries>, ApiError> {
        let filter = PageFilter {
            source_code_id: source_code_id.0,
            refunded: refunded.0,
            recurring: recurring.0,
        };
        let (range, rows) = auth
            .0
            .tx(&state, PAGE_CONTRIBUTIONS, async |tx| {
                let range = resolve_range(tx, from.0, to.0).await?;
                let rows = contributions::days(tx, &range, &filter).await?;
                Ok((range, rows))
            })
            .await?;
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
    #[allow(clippy::too_many_arguments)]
    async fn breakdowns(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
        #[oai(name = "sourceCodeId")] source_code_id: Query<Option<i64>>,
        refunded: Query<Option<bool>>,
        recurring: Query<Option<bool>>,
    ) -> Result<Json<Breakdowns>, ApiError> {
        let filter = PageFilter {
            source_code_id: source_code_id.0,
            refunded: refunded.0,
            recurring: recurring.0,
        };
        let (range, found) = auth
            .0
            .tx(&state, PAGE_CONTRIBUTIONS, async |tx| {
                let range = resolve_range(tx, from.0, to.0).await?;
                let found = contributions::breakdowns(tx, &range, &filter).await?;
                Ok((range, found))
            })
            .await?;
        let rows = |found: Vec<contributions::Breakdown>| -> Vec<BreakdownRow> {
            found.into_iter().map(BreakdownRow::from).collect()
        };
        Ok(Json(Breakdowns {
            from: range.from,
            to: range.to,
            channels: rows(found.channels),
            source_codes: rows(found.source_codes),
            pages: rows(found.pages),
            bands: rows(found.bands),
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
        let filter = GiftFilter {
            source_code_id: source_code_id.0,
            refunded: refunded.0,
            recurring: recurring.0,
            text: like_pattern(q.0.as_deref()),
        };
        let sort = Sort {
            column: sort.0.unwrap_or(GiftSort::PaidAt).column(),
            descending: order.0.unwrap_or(SortOrder::Desc) == SortOrder::Desc,
        };
        let (total, rows) = auth
            .0
            .tx(&state, PAGE_CONTRIBUTIONS, async |tx| {
                let range = resolve_range(tx, from.0, to.0).await?;
                let total = gifts::count(tx, &range, &filter).await?;
                let rows = gifts::page(
                    tx,
                    &range,
                    &filter,
                    sort,
                    page_size.0,
                    (page.0 - 1) * page_size.0,
                )
                .await?;
                Ok((total, rows))
            })
            .await?;
        Ok(Json(GiftPage {
            items: rows.into_iter().map(Gift::from).collect(),
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
        let export = open_export(
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
        let name = format!(
            "attachment; filename=\"contributions-{}-{}.csv\"",
            export.range.from, export.range.to
        );
        Ok(GiftCsv::Csv(
            crate::csv_stream::StreamedText(export.csv()),
            name,
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
        let export = open_export(
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
        let name = format!(
            "attachment; filename=\"contributions-{}-{}.xlsx\"",
            export.range.from, export.range.to
        );
        Ok(GiftXlsx::Xlsx(Binary(export.xlsx().await?), name))
    }
}
