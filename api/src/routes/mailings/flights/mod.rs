//! Email › Performance (`/flights`): each sent mailing is a flight; its variant × segment figures come from the
//! rollups (see `store::flights` for the definitions). Also a sent mailing's clicks per link and its first 48
//! hours, for the mailing's own page.

mod export;

use crate::auth::{ClientAuth, Needs};
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::NaiveDate;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Binary, Json, PlainText};
use poem_openapi::{ApiResponse, Object, OpenApi};
use store::tabular::Format;
use tenancy::TenantTx;

use super::ApiTags;

pub use crate::auth::PAGE_PERFORMANCE;
const MAX_RANGE_DAYS: i64 = 3660;

pub struct FlightsApi;

/// One variant × segment row of a flight. A flight's total has no variant; the range's total has no flight.
#[derive(Debug, Default, Object)]
pub struct FlightRow {
    #[oai(nullable, rename = "flightId")]
    pub flight_id: Option<i64>,
    #[oai(nullable)]
    pub name: Option<String>,
    /// The day the send started, in the client's time zone.
    #[oai(nullable)]
    pub day: Option<NaiveDate>,
    #[oai(nullable)]
    pub variant: Option<String>,
    #[oai(nullable, rename = "segmentId")]
    pub segment_id: Option<i64>,
    #[oai(nullable, rename = "segmentName")]
    pub segment_name: Option<String>,
    pub recipients: i64,
    pub delivered: i64,
    pub bounces: i64,
    #[oai(rename = "humanOpens")]
    pub human_opens: i64,
    #[oai(rename = "machineOpens")]
    pub machine_opens: i64,
    /// human opens ÷ recipients
    #[oai(rename = "openRate")]
    pub open_rate: f64,
    /// People who clicked at least once (machine clicks apart).
    pub clickers: i64,
    /// Human clicks, every one.
    pub clicks: i64,
    /// clickers ÷ delivered
    #[oai(rename = "clickRate")]
    pub click_rate: f64,
    pub unsubscribes: i64,
    pub gifts: i64,
    /// Net attributed revenue (decimal string).
    pub revenue: String,
    /// revenue ÷ gifts (decimal string)
    #[oai(rename = "averageGift")]
    pub average_gift: String,
    /// gifts ÷ delivered
    #[oai(rename = "responseRate")]
    pub response_rate: f64,
    /// revenue ÷ delivered × 1000 (decimal string)
    pub rpm: String,
}

#[derive(Debug, Object)]
pub struct LinkClicks {
    pub url: String,
    pub clicks: i64,
    pub clickers: i64,
}

/// Human opens and clicks in one hour after the send started.
#[derive(Debug, Object)]
pub struct HourCounts {
    pub hour: i32,
    pub opens: i64,
    pub clicks: i64,
}

#[derive(Debug, Object)]
pub struct FlightOption {
    pub id: String,
    pub label: String,
}

#[derive(ApiResponse)]
pub enum FlightsCsv {
    #[oai(status = 200, content_type = "text/csv; charset=utf-8")]
    Csv(
        PlainText<String>,
        #[oai(header = "Content-Disposition")] String,
    ),
}

#[derive(ApiResponse)]
pub enum FlightsXlsx {
    #[oai(
        status = 200,
        content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )]
    Xlsx(
        Binary<Vec<u8>>,
        #[oai(header = "Content-Disposition")] String,
    ),
}

/// The range asked for, or the last 90 days up to the client's today; refused when reversed or too long.
async fn range(
    tx: &mut TenantTx,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<(NaiveDate, NaiveDate), ApiError> {
    let today = store::flights::today(tx).await?;
    let to = to.unwrap_or(today);
    let from = from.unwrap_or(to - chrono::Duration::days(89));
    if from > to {
        return Err(ApiError::BadRequest(
            "The range ends before it starts".to_owned(),
        ));
    }
    if (to - from).num_days() > MAX_RANGE_DAYS {
        return Err(ApiError::BadRequest(
            "The range is longer than ten years".to_owned(),
        ));
    }
    Ok((from, to))
}

async fn rows(
    state: &SharedState,
    auth: &ClientAuth,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<((NaiveDate, NaiveDate), Vec<FlightRow>, String), ApiError> {
    let (range, rows, tz) = auth
        .0
        .tx(state, PAGE_PERFORMANCE, async |tx| {
            let range = range(tx, from, to).await?;
            let rows = store::flights::flights(tx, range.0, range.1, None).await?;
            // The zone the flights' days are counted in, named in the exports.
            let tz = store::flights::time_zone(tx).await?;
            Ok((range, rows, tz))
        })
        .await?;
    Ok((
        range,
        rows.into_iter()
            .map(|r| FlightRow {
                flight_id: r.mailing_id,
                name: r.name,
                day: r.day,
                variant: r.variant,
                segment_id: r.segment_id,
                segment_name: r.segment_name,
                recipients: r.recipients,
                delivered: r.delivered,
                bounces: r.bounces,
                human_opens: r.human_opens,
                machine_opens: r.machine_opens,
                open_rate: r.open_rate,
                clickers: r.clickers,
                clicks: r.clicks,
                click_rate: r.click_rate,
                unsubscribes: r.unsubscribes,
                gifts: r.gifts,
                revenue: r.revenue,
                average_gift: r.average_gift,
                response_rate: r.response_rate,
                rpm: r.rpm,
            })
            .collect(),
        tz,
    ))
}

async fn sent_mailing(tx: &mut TenantTx, id: i64) -> Result<(), ApiError> {
    match store::flights::is_sent(tx, id).await? {
        None => Err(ApiError::NotFound("Mailing not found".to_owned())),
        Some(_) => Ok(()),
    }
}

async fn links(
    state: &SharedState,
    auth: &ClientAuth,
    id: i64,
) -> Result<Vec<LinkClicks>, ApiError> {
    let rows = auth
        .0
        .tx(state, Needs::Nothing, async |tx| {
            sent_mailing(tx, id).await?;
            Ok(store::flights::link_clicks(tx, id).await?)
        })
        .await?;
    Ok(rows
        .into_iter()
        .map(|l| LinkClicks {
            url: l.url,
            clicks: l.clicks,
            clickers: l.clickers,
        })
        .collect())
}

#[OpenApi(tag = "ApiTags::Performance")]
impl FlightsApi {
    /// Flights sent in the range (client days, inclusive; the last 90 days by default): variant × segment rows,
    /// each flight's total and the range's total.
    #[oai(path = "/api/flights", method = "get", operation_id = "listFlights")]
    async fn flights(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<Json<Vec<FlightRow>>, ApiError> {
        Ok(Json(rows(&state, &auth, from.0, to.0).await?.1))
    }

    /// The flights table as CSV.
    #[oai(
        path = "/api/flights/export/csv",
        method = "get",
        operation_id = "exportFlightsCsv"
    )]
    async fn export_csv(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<FlightsCsv, ApiError> {
        let ((from, to), rows, tz) = rows(&state, &auth, from.0, to.0).await?;
        let bytes = tokio::task::spawn_blocking(move || export::file(&rows, &tz, Format::Csv))
            .await
            .map_err(ApiError::internal)??;
        Ok(FlightsCsv::Csv(
            PlainText(String::from_utf8(bytes).map_err(ApiError::internal)?),
            format!("attachment; filename=\"flights-{from}-{to}.csv\""),
        ))
    }

    /// The flights table as an Excel workbook (rates as percentages, money with two decimals).
    #[oai(
        path = "/api/flights/export/xlsx",
        method = "get",
        operation_id = "exportFlightsXlsx"
    )]
    async fn export_xlsx(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<FlightsXlsx, ApiError> {
        let ((from, to), rows, tz) = rows(&state, &auth, from.0, to.0).await?;
        let bytes = tokio::task::spawn_blocking(move || export::file(&rows, &tz, Format::Xlsx))
            .await
            .map_err(ApiError::internal)??;
        Ok(FlightsXlsx::Xlsx(
            Binary(bytes),
            format!("attachment; filename=\"flights-{from}-{to}.xlsx\""),
        ))
    }

    /// Human clicks per link of a flight.
    #[oai(
        path = "/api/flights/:id/links",
        method = "get",
        operation_id = "getFlightLinks"
    )]
    async fn flight_links(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<Vec<LinkClicks>>, ApiError> {
        auth.0.require(PAGE_PERFORMANCE)?;
        Ok(Json(links(&state, &auth, id.0).await?))
    }

    /// Human clicks per link of a mailing, for its own page.
    #[oai(
        path = "/api/crm-mailing/:id/links",
        method = "get",
        operation_id = "getMailingLinks"
    )]
    async fn mailing_links(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<Vec<LinkClicks>>, ApiError> {
        Ok(Json(links(&state, &auth, id.0).await?))
    }

    /// Human opens and clicks per hour over the first 48 hours after the send started (empty before).
    #[oai(
        path = "/api/crm-mailing/:id/first-48-hours",
        method = "get",
        operation_id = "getMailingFirst48Hours"
    )]
    async fn first_48_hours(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<Vec<HourCounts>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                sent_mailing(tx, id.0).await?;
                Ok(store::flights::first_48_hours(tx, id.0).await?)
            })
            .await?;
        Ok(Json(
            rows.into_iter()
                .map(|h| HourCounts {
                    hour: h.hour,
                    opens: h.opens,
                    clicks: h.clicks,
                })
                .collect(),
        ))
    }

    /// Selection data: the names of flights (sent mailings), newest first.
    #[oai(
        path = "/api/selection/flight-names",
        method = "get",
        operation_id = "listFlightNames"
    )]
    async fn flight_names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<FlightOption>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, PAGE_PERFORMANCE, async |tx| {
                Ok(store::flights::flight_names(tx).await?)
            })
            .await?;
        Ok(Json(
            rows.into_iter()
                .map(|(id, label)| FlightOption {
                    id: id.to_string(),
                    label,
                })
                .collect(),
        ))
    }

    /// Selection data: the types of flights — one version for everyone, or split into variants.
    #[oai(
        path = "/api/selection/flight-types",
        method = "get",
        operation_id = "listFlightTypes"
    )]
    async fn flight_types(&self, _auth: ClientAuth) -> Result<Json<Vec<FlightOption>>, ApiError> {
        // The answer holds no client data, but the token is checked all the same: its 401 is declared.
        Ok(Json(vec![
            FlightOption {
                id: "single".to_owned(),
                label: "One version".to_owned(),
            },
            FlightOption {
                id: "variants".to_owned(),
                label: "Variants".to_owned(),
            },
        ]))
    }
}
