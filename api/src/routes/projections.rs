//! Projections: the current year per month and channel against the user's goals, pacing and the month- and
//! quarter-end forecasts with their backtest band, and the inflection markers. The method lives in
//! `store::projections` (docs/projections.md).

use super::ApiTags;
use crate::auth::{ClientAuth, PAGE_PROJECTIONS};
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::{Datelike, NaiveDate};
use domain::Money;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use store::projections::{self, Channel, Forecast};

pub struct ProjectionsApi;

fn cents(v: f64) -> String {
    format!("{:.2}", (v * 100.0).round() / 100.0)
}

/// An amount per channel; decimal strings.
#[derive(Debug, Object)]
pub struct ChannelAmounts {
    pub email: String,
    pub ads: String,
    pub organic: String,
    pub other: String,
    pub total: String,
}

impl ChannelAmounts {
    fn of(v: [f64; 4]) -> Self {
        let at = |c: Channel| cents(v[c as usize]);
        Self {
            email: at(Channel::Email),
            ads: at(Channel::Ads),
            organic: at(Channel::Organic),
            other: at(Channel::Other),
            total: cents(v.iter().sum()),
        }
    }
}

#[derive(Debug, Object)]
pub struct ProjectionMonth {
    pub month: u32,
    pub projection: ChannelAmounts,
    pub actual: ChannelAmounts,
    #[oai(nullable)]
    pub goal: Option<String>,
}

#[derive(Debug, Object)]
pub struct ForecastBand {
    pub value: String,
    #[oai(nullable)]
    pub low: Option<String>,
    #[oai(nullable)]
    pub high: Option<String>,
}

impl From<Forecast> for ForecastBand {
    fn from(f: Forecast) -> Self {
        Self {
            value: cents(f.value),
            low: f.low.map(cents),
            high: f.high.map(cents),
        }
    }
}

#[derive(Debug, Object)]
pub struct InflectionMarker {
    #[oai(nullable)]
    pub id: Option<i64>,
    pub date: NaiveDate,
    pub label: String,
    /// quarter_end, election or event
    pub kind: String,
}

#[derive(Debug, Object)]
pub struct ProjectionView {
    pub year: i32,
    pub today: NaiveDate,
    pub months: Vec<ProjectionMonth>,
    /// Recent growth: the last 3 complete months ÷ the same months a year earlier (4 places).
    pub growth: String,
    /// Year to date through yesterday.
    #[oai(rename = "actualToDate")]
    pub actual_to_date: String,
    #[oai(rename = "projectionToDate")]
    pub projection_to_date: String,
    /// actual to date ÷ projection to date (4 places); null without a projection.
    #[oai(nullable)]
    pub pacing: Option<String>,
    #[oai(rename = "monthToDate")]
    pub month_to_date: String,
    #[oai(rename = "monthProjectionToDate")]
    pub month_projection_to_date: String,
    #[oai(rename = "endOfMonth")]
    pub end_of_month: ForecastBand,
    #[oai(rename = "endOfQuarter")]
    pub end_of_quarter: ForecastBand,
    /// Mean absolute percentage error of the month-end forecast over the last 12 months (a fraction, 4 places).
    #[oai(rename = "forecastMape", nullable)]
    pub forecast_mape: Option<String>,
    /// Mean absolute percentage error of the monthly projection over the last 12 months.
    #[oai(rename = "projectionMape", nullable)]
    pub projection_mape: Option<String>,
    pub markers: Vec<InflectionMarker>,
}

#[derive(Debug, Object)]
pub struct GoalInput {
    /// 1–12, a month of the current year.
    pub month: u32,
    /// A decimal amount ≥ 0; null or empty clears the goal.
    #[oai(nullable)]
    pub amount: Option<String>,
}

#[derive(Debug, Object)]
pub struct EventInput {
    pub date: NaiveDate,
    pub label: String,
    /// event or election
    #[oai(nullable)]
    pub kind: Option<String>,
}

fn marker(m: projections::Marker) -> InflectionMarker {
    InflectionMarker {
        id: m.id,
        date: m.day,
        label: m.label,
        kind: m.kind,
    }
}

#[OpenApi(tag = "ApiTags::Projections")]
impl ProjectionsApi {
    /// The current year's projection per month and channel, goals, pacing and forecasts (docs/projections.md).
    #[oai(
        path = "/api/projections",
        method = "get",
        operation_id = "getProjections"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<ProjectionView>, ApiError> {
        let (p, markers) = auth
            .0
            .tx(&state, PAGE_PROJECTIONS, async |tx| {
                let p = projections::projection(tx, None).await?;
                let markers = projections::markers(tx, p.year).await?;
                Ok((p, markers))
            })
            .await?;
        Ok(Json(ProjectionView {
            year: p.year,
            today: p.today,
            months: p
                .months
                .into_iter()
                .map(|m| ProjectionMonth {
                    month: m.month,
                    projection: ChannelAmounts::of(m.projection),
                    actual: ChannelAmounts::of(m.actual),
                    goal: m.goal,
                })
                .collect(),
            growth: format!("{:.4}", p.growth),
            actual_to_date: cents(p.actual_to_date),
            projection_to_date: cents(p.projection_to_date),
            pacing: (p.projection_to_date > 0.0)
                .then(|| format!("{:.4}", p.actual_to_date / p.projection_to_date)),
            month_to_date: cents(p.month_to_date),
            month_projection_to_date: cents(p.month_projection_to_date),
            end_of_month: p.end_of_month.into(),
            end_of_quarter: p.end_of_quarter.into(),
            forecast_mape: p.forecast_mape.map(|v| format!("{v:.4}")),
            projection_mape: p.projection_mape.map(|v| format!("{v:.4}")),
            markers: markers.into_iter().map(marker).collect(),
        }))
    }

    /// Sets or clears the goal of a month of the current year.
    #[oai(
        path = "/api/projections/goals",
        method = "put",
        operation_id = "setProjectionGoal"
    )]
    async fn set_goal(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<GoalInput>,
    ) -> Result<Json<ProjectionMonthGoal>, ApiError> {
        auth.0.check(PAGE_PROJECTIONS)?;
        let month = body.0.month;
        if !(1..=12).contains(&month) {
            return Err(ApiError::BadRequest("month must be 1 to 12".to_owned()));
        }
        let value = match body.0.amount.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(raw) => Some(
                Money::parse_written(raw)
                    .ok()
                    .filter(|m| !m.is_negative())
                    .ok_or_else(|| {
                        ApiError::BadRequest(
                            "The goal must be an amount like 25000 or 25000.00".to_owned(),
                        )
                    })?
                    .to_string(),
            ),
        };
        let year = auth
            .0
            .tx(&state, PAGE_PROJECTIONS, async |tx| {
                let year = projections::client_today(tx).await?.year();
                projections::set_goal(tx, year, month, value.as_deref()).await?;
                Ok(year)
            })
            .await?;
        Ok(Json(ProjectionMonthGoal {
            year,
            month,
            goal: value,
        }))
    }

    /// Adds an inflection marker (a user event or the election day).
    #[oai(
        path = "/api/projections/events",
        method = "post",
        operation_id = "addInflectionEvent"
    )]
    async fn add_event(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<EventInput>,
    ) -> Result<Json<InflectionMarker>, ApiError> {
        auth.0.check(PAGE_PROJECTIONS)?;
        let label = body.0.label.trim().to_owned();
        if label.is_empty() || label.chars().count() > 200 {
            return Err(ApiError::BadRequest(
                "A marker needs a label of at most 200 characters".to_owned(),
            ));
        }
        let kind = body.0.kind.as_deref().unwrap_or("event");
        if kind != "event" && kind != "election" {
            return Err(ApiError::BadRequest(
                "kind must be event or election".to_owned(),
            ));
        }
        if !(2000..=2200).contains(&body.0.date.year()) {
            return Err(ApiError::BadRequest("The date is out of range".to_owned()));
        }
        let id = auth
            .0
            .tx(&state, PAGE_PROJECTIONS, async |tx| {
                Ok(projections::add_event(tx, body.0.date, &label, kind).await?)
            })
            .await?;
        Ok(Json(InflectionMarker {
            id: Some(id),
            date: body.0.date,
            label,
            kind: kind.to_owned(),
        }))
    }

    /// Deletes a user-added inflection marker.
    #[oai(
        path = "/api/projections/events/:id",
        method = "delete",
        operation_id = "deleteInflectionEvent"
    )]
    async fn delete_event(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<super::Deleted, ApiError> {
        auth.0
            .tx(&state, PAGE_PROJECTIONS, async |tx| {
                if !projections::delete_event(tx, id.0).await? {
                    return Err(ApiError::NotFound("No such marker".to_owned()));
                }
                Ok(())
            })
            .await?;
        Ok(super::Deleted::Deleted)
    }

    /// Selection data: the current year's inflection markers (quarter ends, election day, user events).
    #[oai(
        path = "/api/selection/inflection-markers",
        method = "get",
        operation_id = "listInflectionMarkers"
    )]
    async fn markers(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<InflectionMarker>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, crate::auth::PAGE_PROJECTIONS, async |tx| {
                let year = projections::client_today(tx).await?.year();
                Ok(projections::markers(tx, year).await?)
            })
            .await?;
        Ok(Json(rows.into_iter().map(marker).collect()))
    }
}

#[derive(Debug, Object)]
pub struct ProjectionMonthGoal {
    pub year: i32,
    pub month: u32,
    #[oai(nullable)]
    pub goal: Option<String>,
}
