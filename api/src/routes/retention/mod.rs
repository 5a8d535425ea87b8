//! Revenue › Retention: donor and dollar retention with the FEP gain/loss report, cohorts by first gift and
//! acquisition source, sustainers, lifetime value per source, the donors behind every figure and a segment from
//! any of them. The definitions live in `store::retention` (docs/retention.md, docs/metrics.md).

mod dto;

use super::ApiTags;
use crate::auth::{ClientAuth, PAGE_CONTRIBUTIONS, PAGE_SEGMENTS};
use crate::error::ApiError;
use crate::schemas::{Job, JobAccepted};
use crate::state::SharedState;
use chrono::{Datelike, NaiveDate};
use dto::*;
use jobs::JobKind;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, OpenApi};
use sqlx::PgConnection;
use store::retention::cohorts::{Grain, SourceBy};
use store::retention::donors::{Cell, SustainerStatus};
use store::retention::{self, Category, PeriodKind, Periods};

pub struct RetentionApi;

#[derive(ApiResponse)]
pub enum CellSegmentAnswer {
    /// The list and segment are saved; the job computing the segment's members is queued.
    #[oai(status = 202)]
    Accepted(Json<CellSegmentCreated>),
}

fn bad(message: &str) -> ApiError {
    ApiError::BadRequest(message.to_owned())
}

fn period_kind(raw: Option<&str>) -> Result<PeriodKind, ApiError> {
    PeriodKind::parse(raw.unwrap_or("year"))
        .ok_or_else(|| bad("period must be month, quarter, year or fiscal_year"))
}

fn grain(raw: Option<&str>) -> Result<Grain, ApiError> {
    Grain::parse(raw.unwrap_or("month")).ok_or_else(|| bad("grain must be month or quarter"))
}

fn source_by(raw: Option<&str>) -> Result<SourceBy, ApiError> {
    SourceBy::parse(raw.unwrap_or("all"))
        .ok_or_else(|| bad("by must be all, origin, channel, campaign or form"))
}

fn checked_day(day: NaiveDate) -> Result<NaiveDate, ApiError> {
    if (2000..=2200).contains(&day.year()) {
        Ok(day)
    } else {
        Err(bad("The date is out of range"))
    }
}

/// `asOf`, or the client's today.
async fn as_of(conn: &mut PgConnection, raw: Option<NaiveDate>) -> Result<NaiveDate, ApiError> {
    match raw {
        Some(day) => checked_day(day),
        None => Ok(retention::client_today(conn).await?),
    }
}

async fn time_zone(conn: &mut PgConnection) -> Result<String, ApiError> {
    Ok(
        sqlx::query_scalar("select time_zone from app_settings limit 1")
            .fetch_one(conn)
            .await?,
    )
}

/// Reads a cell; a retention cell's periods need the client's fiscal year.
async fn cell(conn: &mut PgConnection, c: &RetentionCell) -> Result<Cell, ApiError> {
    match c.kind.as_str() {
        "retention" => {
            let kind = period_kind(c.period.as_deref())?;
            let day = as_of(&mut *conn, c.as_of).await?;
            let category =
                Category::parse(c.category.as_deref().unwrap_or("")).ok_or_else(|| {
                    bad("category must be new, recaptured, upgraded, same, downgraded or lost")
                })?;
            let fy = retention::fiscal_year_start(conn).await?;
            Ok(Cell::Retention {
                periods: Periods::containing(kind, day, fy),
                category,
            })
        }
        "cohort" => {
            let source = c
                .source
                .clone()
                .filter(|s| !s.is_empty() && s.chars().count() <= 500)
                .ok_or_else(|| bad("A cohort cell needs its source"))?;
            if c.age.is_some_and(|a| a > retention::cohorts::MAX_AGE) {
                return Err(bad("age must be 0 to 24"));
            }
            Ok(Cell::Cohort {
                grain: grain(c.grain.as_deref())?,
                by: source_by(c.by.as_deref())?,
                source,
                cohort: c.cohort.map(checked_day).transpose()?,
                age: c.age,
            })
        }
        "sustainers" => Ok(Cell::Sustainers {
            month: c
                .month
                .map(checked_day)
                .transpose()?
                .ok_or_else(|| bad("A sustainers cell needs its month"))?,
            status: SustainerStatus::parse(c.status.as_deref().unwrap_or(""))
                .ok_or_else(|| bad("status must be active, started or ended"))?,
        }),
        _ => Err(bad("kind must be retention, cohort or sustainers")),
    }
}

#[OpenApi(tag = "ApiTags::Revenue")]
impl RetentionApi {
    /// Donor and dollar retention of the period containing asOf (to date) against the previous one, with the
    /// FEP gain/loss report; figures at most 15 minutes old.
    #[oai(path = "/api/retention", method = "get", operation_id = "getRetention")]
    async fn summary(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        /// month, quarter, year (default) or fiscal_year
        period: Query<Option<String>>,
        /// A day of the current period (client zone); default today.
        #[oai(name = "asOf")]
        as_of_day: Query<Option<NaiveDate>>,
    ) -> Result<Json<RetentionView>, ApiError> {
        let kind = period_kind(period.0.as_deref())?;
        let view = auth
            .0
            .tx(&state, PAGE_CONTRIBUTIONS, async |tx| {
                let day = as_of(tx, as_of_day.0).await?;
                let (v, computed) = retention::summary(tx, kind, day).await?;
                Ok(RetentionView::of(v, day, computed, time_zone(tx).await?))
            })
            .await?;
        Ok(Json(view))
    }

    /// Cohorts by month or quarter of first gift and acquisition source, their curves and each source's
    /// lifetime value with its backtest.
    #[oai(
        path = "/api/retention/cohorts",
        method = "get",
        operation_id = "getRetentionCohorts"
    )]
    async fn cohorts(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        /// month (default) or quarter
        grain: Query<Option<String>>,
        /// all (default), origin, channel, campaign or form
        by: Query<Option<String>>,
    ) -> Result<Json<CohortsView>, ApiError> {
        let (g, b) = (
            self::grain(grain.0.as_deref())?,
            source_by(by.0.as_deref())?,
        );
        let view = auth
            .0
            .tx(&state, PAGE_CONTRIBUTIONS, async |tx| {
                let (v, computed) = retention::cohorts::cohorts(tx, g, b).await?;
                Ok(CohortsView::of(
                    v,
                    computed,
                    retention::refreshed(tx).await?,
                ))
            })
            .await?;
        Ok(Json(view))
    }

    /// Sustainers month by month (active, started, ended, churn, average amount) and EARN 3, 6 and 12.
    #[oai(
        path = "/api/retention/sustainers",
        method = "get",
        operation_id = "getRetentionSustainers"
    )]
    async fn sustainers(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<SustainersView>, ApiError> {
        let view = auth
            .0
            .tx(&state, PAGE_CONTRIBUTIONS, async |tx| {
                let (v, computed) = retention::sustainers::sustainers(tx).await?;
                Ok(SustainersView::of(v, computed))
            })
            .await?;
        Ok(Json(view))
    }

    /// The donors behind a figure (a page of them, by e-mail).
    #[oai(
        path = "/api/retention/donors",
        method = "post",
        operation_id = "listRetentionDonors"
    )]
    async fn donors(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<RetentionCell>,
        /// 1-based
        page: Query<Option<i64>>,
        /// 1–200, default 50
        #[oai(name = "pageSize")]
        page_size: Query<Option<i64>>,
    ) -> Result<Json<RetentionDonorPage>, ApiError> {
        let page = page.0.unwrap_or(1);
        let size = page_size.0.unwrap_or(50);
        if !(1..=1_000_000).contains(&page) || !(1..=200).contains(&size) {
            return Err(bad("page must be 1 or more and pageSize 1 to 200"));
        }
        let (rows, total) = auth
            .0
            .tx(&state, PAGE_CONTRIBUTIONS, async |tx| {
                let c = cell(tx, &body.0).await?;
                Ok(retention::donors::donors(tx, &c, page, size).await?)
            })
            .await?;
        Ok(Json(RetentionDonorPage {
            rows: rows
                .into_iter()
                .map(|d| RetentionDonor {
                    contact_id: d.contact_id,
                    email: d.email,
                    name: d.name,
                    previous: d.previous,
                    current: d.current,
                })
                .collect(),
            total,
            page,
            page_size: size,
        }))
    }

    /// Saves a figure's donors as an upload list and a segment of that list, and queues the job computing the
    /// segment's members. Needs the segments page, whose rules already select donors by their giving.
    #[oai(
        path = "/api/retention/segments",
        method = "post",
        operation_id = "createRetentionSegment"
    )]
    async fn segment(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<CellSegmentRequest>,
    ) -> Result<CellSegmentAnswer, ApiError> {
        let name = body.0.name.trim().to_owned();
        if name.is_empty() || name.chars().count() > 200 {
            return Err(bad("The name must be 1 to 200 characters"));
        }
        let mut saved = None;
        let job = auth
            .0
            .enqueue(&state, PAGE_SEGMENTS, async |tx| {
                let c = cell(tx, &body.0.cell).await?;
                let (list_id, contacts) = retention::donors::save_list(tx, &c, &name)
                    .await
                    .map_err(|e| match &e {
                        sqlx::Error::Database(d) if d.is_unique_violation() => {
                            ApiError::Conflict("A list with this name exists".to_owned())
                        }
                        _ => e.into(),
                    })?;
                let rule = serde_json::json!({
                    "conditions": [{ "field": "list", "op": "in", "value": [list_id] }]
                });
                let segment_id = store::segments::create(tx, &name, &rule).await?;
                saved = Some((segment_id, list_id, contacts));
                Ok(JobKind::UpdateSegment {
                    segment_id: Some(segment_id),
                })
            })
            .await?;
        let (segment_id, list_id, contacts) =
            saved.ok_or_else(|| ApiError::Internal("the segment was not saved".into()))?;
        Ok(CellSegmentAnswer::Accepted(Json(CellSegmentCreated {
            segment_id,
            list_id,
            contacts,
            job_id: Job::from(job).id,
        })))
    }

    /// Queues the "Refresh Retention" job: donors' acquisition is rebuilt and the figures computed again.
    #[oai(
        path = "/api/retention/refresh",
        method = "post",
        operation_id = "refreshRetention"
    )]
    async fn refresh(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<JobAccepted, ApiError> {
        let row = auth
            .0
            .enqueue(&state, PAGE_CONTRIBUTIONS, async |_tx| {
                Ok(JobKind::RefreshRetention {})
            })
            .await?;
        Ok(JobAccepted::Accepted(Json(Job::from(row))))
    }
}
