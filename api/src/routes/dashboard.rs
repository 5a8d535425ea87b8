//! The dashboard: every tile in one request and one transaction (`store::dashboard`, one function per tile).
//! A tile whose page the user may not open is left out (null); running experiments are a slot their area fills
//! once its data exists. Also the US-states GeoJSON the map draws (selection data).

use super::ApiTags;
use crate::auth::{ClientAuth, Needs};
use crate::auth::{
    PAGE_CONTRIBUTIONS, PAGE_CONTRIBUTION_SOURCE_CODES, PAGE_PERFORMANCE, PAGE_PROJECTIONS,
};
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};
use store::dashboard as tiles;

/// Bundled with the web app too (the map draws it without a request); from us-atlas (ISC), 2-decimal degrees.
const US_STATES: &str = include_str!("../../../web/src/features/dashboard/us-states.json");
/// Parsed once: the document declares the answer as JSON, so it is sent as a JSON value.
static US_STATES_JSON: std::sync::LazyLock<serde_json::Value> =
    std::sync::LazyLock::new(|| serde_json::from_str(US_STATES).unwrap_or(serde_json::Value::Null));

pub struct DashboardApi;

/// What the dashboard reads in its one transaction; a tile the user may not open is `None`, not read.
struct TileRows {
    today: NaiveDate,
    time_zone: String,
    /// The periods, this month's donors and the active sustainers.
    revenue: Option<(Vec<tiles::Period>, i64, i64)>,
    size: tiles::ListSize,
    upcoming: Vec<tiles::UpcomingSend>,
    last: Option<Vec<tiles::RecentMailing>>,
    codes: Option<Vec<tiles::TopCode>>,
    states: Option<Vec<tiles::StateFigure>>,
    alerts: Vec<tiles::Alert>,
    pacing: Option<store::projections::PacingSummary>,
    running: Option<Vec<(i64, String)>>,
}

/// Net, gross, gifts, new donors and recurring gross from `from` up to today (client zone).
#[derive(Debug, Object)]
pub struct DashboardPeriod {
    /// today, month, quarter (fiscal) or year (fiscal)
    pub key: String,
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub net: String,
    pub gross: String,
    pub gifts: i64,
    #[oai(rename = "newDonors")]
    pub new_donors: i64,
    #[oai(rename = "recurringGross")]
    pub recurring_gross: String,
}

#[derive(Debug, Object)]
pub struct DashboardRevenue {
    pub periods: Vec<DashboardPeriod>,
    /// Distinct donors this month.
    #[oai(rename = "monthDonors")]
    pub month_donors: i64,
    /// Donors with a recurring gift, not refunded, in the last 35 days.
    #[oai(rename = "activeSustainers")]
    pub active_sustainers: i64,
}

#[derive(Debug, Object)]
pub struct DashboardListSize {
    pub subscribed: i64,
    /// joined − left over the last 30 days.
    #[oai(rename = "change30")]
    pub change_30: i64,
    pub joined: i64,
    pub left: i64,
}

#[derive(Debug, Object)]
pub struct DashboardUpcoming {
    pub id: i64,
    pub name: String,
    #[oai(rename = "sendTime")]
    pub send_time: DateTime<Utc>,
    #[oai(nullable, rename = "listName")]
    pub list_name: Option<String>,
}

#[derive(Debug, Object)]
pub struct DashboardMailing {
    pub id: i64,
    pub name: String,
    pub sent: DateTime<Utc>,
    pub delivered: i64,
    pub revenue: String,
    pub rpm: String,
}

#[derive(Debug, Object)]
pub struct DashboardCode {
    pub id: i64,
    pub code: String,
    pub gifts: i64,
    pub net: String,
}

#[derive(Debug, Object)]
pub struct DashboardState {
    pub state: String,
    pub net: String,
    pub donors: i64,
}

#[derive(Debug, Object)]
pub struct DashboardAlert {
    pub kind: String,
    pub message: String,
    pub link: String,
}

/// Revenue against the projection (`store::projections`): year and month to date, and the forecasts.
#[derive(Debug, Object)]
pub struct DashboardPacing {
    /// The year's projection up to today.
    pub projected: String,
    /// The year's net revenue up to today.
    pub actual: String,
    #[oai(rename = "monthProjected")]
    pub month_projected: String,
    #[oai(rename = "monthActual")]
    pub month_actual: String,
    #[oai(rename = "endOfMonth")]
    pub end_of_month: String,
    #[oai(nullable, rename = "endOfMonthLow")]
    pub end_of_month_low: Option<String>,
    #[oai(nullable, rename = "endOfMonthHigh")]
    pub end_of_month_high: Option<String>,
    #[oai(rename = "endOfQuarter")]
    pub end_of_quarter: String,
}

/// Slot: a running experiment (the experiments area fills it).
#[derive(Debug, Object)]
pub struct DashboardExperiment {
    pub id: i64,
    pub name: String,
}

#[derive(Debug, Object)]
pub struct Dashboard {
    pub today: NaiveDate,
    #[oai(rename = "timeZone")]
    pub time_zone: String,
    /// Null without pageContributions.
    #[oai(nullable)]
    pub revenue: Option<DashboardRevenue>,
    #[oai(rename = "listSize")]
    pub list_size: DashboardListSize,
    pub upcoming: Vec<DashboardUpcoming>,
    /// Null without pageContributions or pagePerformance (the tile shows what mailings raised).
    #[oai(nullable, rename = "lastMailings")]
    pub last_mailings: Option<Vec<DashboardMailing>>,
    /// Null without pageContributionSourceCodes.
    #[oai(nullable, rename = "topSourceCodes")]
    pub top_source_codes: Option<Vec<DashboardCode>>,
    /// Null without pageContributions.
    #[oai(nullable)]
    pub states: Option<Vec<DashboardState>>,
    pub alerts: Vec<DashboardAlert>,
    /// Null until the projections area has a projection for this period.
    #[oai(nullable)]
    pub pacing: Option<DashboardPacing>,
    /// Null until the experiments area has running experiments.
    #[oai(nullable)]
    pub experiments: Option<Vec<DashboardExperiment>>,
}

#[derive(ApiResponse)]
pub enum GeoJson {
    #[oai(status = 200, content_type = "application/geo+json")]
    Ok(
        Json<serde_json::Value>,
        #[oai(header = "Cache-Control")] String,
    ),
}

#[OpenApi(tag = "ApiTags::Reports")]
impl DashboardApi {
    /// Every dashboard tile in one answer (client zone and fiscal year).
    #[oai(path = "/api/dashboard", method = "get", operation_id = "getDashboard")]
    async fn dashboard(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Dashboard>, ApiError> {
        let may = |p: &str| auth.0.may(&[p]);
        let (revenue_ok, codes_ok) = (may(PAGE_CONTRIBUTIONS), may(PAGE_CONTRIBUTION_SOURCE_CODES));
        let pacing_ok = may(PAGE_PROJECTIONS);
        // Failed-job alerts follow the jobs list: a client user hears of their own jobs only.
        let owner = (!auth.0.sees_every_job()).then(|| auth.0.job_owner());
        let rows = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                let (today, time_zone) = tiles::today(tx).await?;
                // The first of the client's month: the month tiles read its rollup rows.
                let month = today - chrono::Days::new(u64::from(today.day0()));
                let revenue = if revenue_ok {
                    let periods = tiles::revenue_periods(tx).await?;
                    let month_donors = tiles::month_donors(tx, month).await?;
                    let active_sustainers = tiles::active_sustainers(tx).await?;
                    Some((periods, month_donors, active_sustainers))
                } else {
                    None
                };
                Ok(TileRows {
                    today,
                    time_zone,
                    revenue,
                    size: tiles::list_size(tx).await?,
                    upcoming: tiles::upcoming_sends(tx).await?,
                    last: if may(PAGE_CONTRIBUTIONS) || may(PAGE_PERFORMANCE) {
                        Some(tiles::last_mailings(tx).await?)
                    } else {
                        None
                    },
                    codes: if codes_ok {
                        Some(tiles::top_source_codes(tx).await?)
                    } else {
                        None
                    },
                    states: if revenue_ok {
                        Some(tiles::by_state(tx, month).await?)
                    } else {
                        None
                    },
                    alerts: tiles::alerts(tx, owner.map(|o| (o.id, o.kind.as_str()))).await?,
                    pacing: if pacing_ok {
                        Some(store::projections::pacing_summary(tx).await?)
                    } else {
                        None
                    },
                    running: if may(PAGE_PERFORMANCE) {
                        Some(store::experiments::running(tx).await?)
                    } else {
                        None
                    },
                })
            })
            .await?;
        let TileRows {
            today,
            time_zone,
            revenue,
            size,
            upcoming,
            last,
            codes,
            states,
            alerts,
            pacing,
            running,
        } = rows;
        let revenue = revenue.map(
            |(periods, month_donors, active_sustainers)| DashboardRevenue {
                month_donors,
                active_sustainers,
                periods: periods
                    .into_iter()
                    .map(|p| DashboardPeriod {
                        key: p.key,
                        from: p.from,
                        to: p.to,
                        net: p.net,
                        gross: p.gross,
                        gifts: p.gifts,
                        new_donors: p.new_donors,
                        recurring_gross: p.recurring_gross,
                    })
                    .collect(),
            },
        );
        // Running experiments, for those who may open their page; none is the tile's empty slot.
        let experiments = running.and_then(|running| {
            (!running.is_empty()).then(|| {
                running
                    .into_iter()
                    .map(|(id, name)| DashboardExperiment { id, name })
                    .collect()
            })
        });
        Ok(Json(Dashboard {
            today,
            time_zone,
            revenue,
            list_size: DashboardListSize {
                subscribed: size.subscribed,
                change_30: size.joined - size.left,
                joined: size.joined,
                left: size.left,
            },
            upcoming: upcoming
                .into_iter()
                .map(|u| DashboardUpcoming {
                    id: u.id,
                    name: u.name,
                    send_time: u.send_time,
                    list_name: u.list_name,
                })
                .collect(),
            last_mailings: last.map(|last| {
                last.into_iter()
                    .map(|m| DashboardMailing {
                        id: m.id,
                        name: m.name,
                        sent: m.sent,
                        delivered: m.delivered,
                        revenue: m.revenue,
                        rpm: m.rpm,
                    })
                    .collect()
            }),
            top_source_codes: codes.map(|codes| {
                codes
                    .into_iter()
                    .map(|c| DashboardCode {
                        id: c.id,
                        code: c.code,
                        gifts: c.gifts,
                        net: c.net,
                    })
                    .collect()
            }),
            states: states.map(|states| {
                states
                    .into_iter()
                    .map(|s| DashboardState {
                        state: s.state,
                        net: s.net,
                        donors: s.donors,
                    })
                    .collect()
            }),
            alerts: alerts
                .into_iter()
                .map(|a| DashboardAlert {
                    kind: a.kind,
                    message: a.message,
                    link: a.link,
                })
                .collect(),
            pacing: pacing.map(|p| {
                // The projection works in floats; the tile shows cents.
                let money = |v: f64| format!("{v:.2}");
                DashboardPacing {
                    projected: money(p.projection_to_date),
                    actual: money(p.actual_to_date),
                    month_projected: money(p.month_projection_to_date),
                    month_actual: money(p.month_to_date),
                    end_of_month: money(p.end_of_month.value),
                    end_of_month_low: p.end_of_month.low.map(money),
                    end_of_month_high: p.end_of_month.high.map(money),
                    end_of_quarter: money(p.end_of_quarter.value),
                }
            }),
            experiments,
        }))
    }

    /// Selection data: the US states as GeoJSON (a FeatureCollection; each feature's `name` and `postal`).
    #[oai(
        path = "/api/selection/us-states-geojson",
        method = "get",
        operation_id = "getUsStatesGeojson"
    )]
    async fn us_states(&self, _auth: ClientAuth) -> Result<GeoJson, ApiError> {
        Ok(GeoJson::Ok(
            Json(US_STATES_JSON.clone()),
            "private, max-age=86400".to_owned(),
        ))
    }
}
