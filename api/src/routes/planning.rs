//! Email › Planning: the calendar of sent, scheduled, draft and planned sends, month figures and marked days;
//! planned sends, their conversion to draft mailings, and moving unsent sends to another day (docs/planning.md).

use super::ApiTags;
use crate::auth::ClientAuth;
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::{DateTime, NaiveDate, Utc};
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};
use store::planning::{self, PlanError};

pub use crate::auth::PAGE_PLANNING;

/// The longest calendar range one request may ask for.
const MAX_DAYS: i64 = 400;

pub struct PlanningApi;

/// One calendar entry: a mailing (`sent`, `scheduled`, `draft`) or a planned send (`planned`).
#[derive(Debug, Object)]
pub struct CalendarEntry {
    pub kind: String,
    /// The mailing's id, or the planned send's for `planned`.
    pub id: i64,
    pub name: String,
    /// The client day of the send.
    pub day: NaiveDate,
    #[oai(nullable, rename = "sendTime")]
    pub send_time: Option<DateTime<Utc>>,
    #[oai(nullable, rename = "segmentId")]
    pub segment_id: Option<i64>,
    #[oai(nullable, rename = "segmentName")]
    pub segment_name: Option<String>,
    #[oai(nullable, rename = "plannedSendId")]
    pub planned_send_id: Option<i64>,
    /// Decimal string.
    #[oai(nullable, rename = "revenueGoal")]
    pub revenue_goal: Option<String>,
}

/// A month's revenue: goal (set by a user), planned (goals of its planned sends), actual (the month's e-mail
/// revenue: net of the gifts of mailings whose send started in the month, whenever paid). Decimal strings.
#[derive(Debug, Object)]
pub struct PlanningMonth {
    /// First day of the month.
    pub month: NaiveDate,
    #[oai(nullable)]
    pub goal: Option<String>,
    pub planned: String,
    pub actual: String,
}

/// A marked day: `month_end`, `quarter_end` or `election_day`.
#[derive(Debug, Object)]
pub struct DayMark {
    pub day: NaiveDate,
    pub kind: String,
}

#[derive(Debug, Object)]
pub struct PlanningCalendar {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub entries: Vec<CalendarEntry>,
    pub months: Vec<PlanningMonth>,
    pub marks: Vec<DayMark>,
}

/// A planned send as entered.
#[derive(Debug, Object)]
pub struct PlannedSendInput {
    #[oai(rename = "sendDate")]
    pub send_date: NaiveDate,
    #[oai(validator(min_length = 1, max_length = 200))]
    pub name: String,
    #[oai(nullable, rename = "segmentId")]
    pub segment_id: Option<i64>,
    /// Decimal string, e.g. "2500.00".
    #[oai(rename = "revenueGoal", validator(max_length = 20))]
    pub revenue_goal: String,
}

#[derive(Debug, Object)]
pub struct Created {
    pub id: i64,
}

/// A segment a planned send may name.
#[derive(Debug, Object)]
pub struct PlanningSegment {
    pub id: i64,
    pub name: String,
}

#[derive(Debug, Object)]
pub struct MoveInput {
    pub day: NaiveDate,
}

#[derive(Debug, Object)]
pub struct Moved {
    pub id: i64,
    #[oai(rename = "sendTime")]
    pub send_time: DateTime<Utc>,
}

#[derive(Debug, Object)]
pub struct MonthGoalInput {
    /// Any day of the month.
    pub month: NaiveDate,
    /// Decimal string; null removes the goal.
    #[oai(nullable, validator(max_length = 20))]
    pub goal: Option<String>,
}

#[derive(ApiResponse)]
pub enum Done {
    #[oai(status = 204)]
    Done,
}

impl From<PlanError> for ApiError {
    fn from(e: PlanError) -> Self {
        match e {
            PlanError::NotFound | PlanError::MailingNotFound => ApiError::NotFound(e.to_string()),
            PlanError::UnknownSegment | PlanError::Past => ApiError::BadRequest(e.to_string()),
            PlanError::Sent | PlanError::AlreadyDraft => ApiError::Conflict(e.to_string()),
            PlanError::Db(e) => e.into(),
        }
    }
}

fn checked(input: PlannedSendInput) -> Result<planning::NewPlanned, ApiError> {
    let goal = input.revenue_goal.trim();
    if domain::Money::parse(goal).is_err() {
        return Err(ApiError::BadRequest(
            "The revenue goal must be an amount like 2500.00".to_owned(),
        ));
    }
    if input.name.trim().is_empty() {
        return Err(ApiError::BadRequest("The name is required".to_owned()));
    }
    Ok(planning::NewPlanned {
        send_date: input.send_date,
        name: input.name,
        segment_id: input.segment_id,
        revenue_goal: goal.to_owned(),
    })
}

#[OpenApi(tag = "ApiTags::Mailings")]
impl PlanningApi {
    /// The calendar of `from`–`to` (client days, both included; at most 400 days).
    #[oai(
        path = "/api/planning",
        method = "get",
        operation_id = "getPlanningCalendar"
    )]
    async fn calendar(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<NaiveDate>,
        to: Query<NaiveDate>,
    ) -> Result<Json<PlanningCalendar>, ApiError> {
        auth.0.check(PAGE_PLANNING)?;
        let (from, to) = (from.0, to.0);
        if from > to || (to - from).num_days() >= MAX_DAYS {
            return Err(ApiError::BadRequest(
                "The range must run forwards and span at most 400 days".to_owned(),
            ));
        }
        let (entries, months, marks) = auth
            .0
            .tx(&state, PAGE_PLANNING, async |tx| {
                let entries = planning::entries(tx, from, to).await?;
                let months = planning::months(tx, from, to).await?;
                let marks = planning::marks(tx, from, to).await?;
                Ok((entries, months, marks))
            })
            .await?;
        Ok(Json(PlanningCalendar {
            from,
            to,
            entries: entries
                .into_iter()
                .map(|e| CalendarEntry {
                    kind: e.kind,
                    id: e.id,
                    name: e.name,
                    day: e.day,
                    send_time: e.send_time,
                    segment_id: e.segment_id,
                    segment_name: e.segment_name,
                    planned_send_id: e.planned_send_id,
                    revenue_goal: e.revenue_goal,
                })
                .collect(),
            months: months
                .into_iter()
                .map(|m| PlanningMonth {
                    month: m.month,
                    goal: m.goal,
                    planned: m.planned,
                    actual: m.actual,
                })
                .collect(),
            marks: marks
                .into_iter()
                .map(|m| DayMark {
                    day: m.day,
                    kind: m.kind,
                })
                .collect(),
        }))
    }

    /// The segments a planned send may name.
    #[oai(
        path = "/api/planning/segments",
        method = "get",
        operation_id = "listPlanningSegments"
    )]
    async fn segments(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<PlanningSegment>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, PAGE_PLANNING, async |tx| {
                Ok(planning::segments(tx).await?)
            })
            .await?;
        Ok(Json(
            rows.into_iter()
                .map(|(id, name)| PlanningSegment { id, name })
                .collect(),
        ))
    }

    /// Adds a planned send.
    #[oai(
        path = "/api/planning/planned-sends",
        method = "post",
        operation_id = "createPlannedSend"
    )]
    async fn create(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<PlannedSendInput>,
    ) -> Result<Json<Created>, ApiError> {
        auth.0.check(PAGE_PLANNING)?;
        let new = checked(body.0)?;
        let id = auth
            .0
            .tx(&state, PAGE_PLANNING, async |tx| {
                Ok(planning::create_planned(tx, &new).await?)
            })
            .await?;
        Ok(Json(Created { id }))
    }

    /// Changes a planned send (dragging it to another day sends its new date; past days are refused).
    #[oai(
        path = "/api/planning/planned-sends/:id",
        method = "put",
        operation_id = "updatePlannedSend"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        body: Json<PlannedSendInput>,
    ) -> Result<Done, ApiError> {
        auth.0.check(PAGE_PLANNING)?;
        let new = checked(body.0)?;
        auth.0
            .tx(&state, PAGE_PLANNING, async |tx| {
                Ok(planning::update_planned(tx, id.0, &new).await?)
            })
            .await?;
        Ok(Done::Done)
    }

    /// Removes a planned send (a draft made from it stays).
    #[oai(
        path = "/api/planning/planned-sends/:id",
        method = "delete",
        operation_id = "deletePlannedSend"
    )]
    async fn delete(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Done, ApiError> {
        auth.0
            .tx(&state, PAGE_PLANNING, async |tx| {
                Ok(planning::delete_planned(tx, id.0).await?)
            })
            .await?;
        Ok(Done::Done)
    }

    /// Makes a planned send a draft mailing (409 when it already is one). Answers the mailing's id.
    #[oai(
        path = "/api/planning/planned-sends/:id/draft",
        method = "post",
        operation_id = "makePlannedSendDraft"
    )]
    async fn make_draft(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<Created>, ApiError> {
        let mailing = auth
            .0
            .tx(&state, PAGE_PLANNING, async |tx| {
                Ok(planning::make_draft(tx, id.0).await?)
            })
            .await?;
        Ok(Json(Created { id: mailing }))
    }

    /// Moves an unsent mailing (draft or scheduled) to another day, keeping its time of day; a mailing whose
    /// send has started answers 409, a past day 400.
    #[oai(
        path = "/api/planning/mailings/:id/day",
        method = "put",
        operation_id = "movePlannedMailing"
    )]
    async fn move_mailing(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        body: Json<MoveInput>,
    ) -> Result<Json<Moved>, ApiError> {
        let send_time = auth
            .0
            .tx(&state, PAGE_PLANNING, async |tx| {
                Ok(planning::move_mailing(tx, id.0, body.0.day).await?)
            })
            .await?;
        Ok(Json(Moved {
            id: id.0,
            send_time,
        }))
    }

    /// Sets or removes the revenue goal of a month (any day of it).
    #[oai(
        path = "/api/planning/month-goal",
        method = "put",
        operation_id = "setPlanningMonthGoal"
    )]
    async fn set_goal(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<MonthGoalInput>,
    ) -> Result<Done, ApiError> {
        auth.0.check(PAGE_PLANNING)?;
        let goal = body.0.goal.as_deref().map(str::trim);
        if goal.is_some_and(|g| domain::Money::parse(g).is_err()) {
            return Err(ApiError::BadRequest(
                "The goal must be an amount like 25000.00".to_owned(),
            ));
        }
        auth.0
            .tx(&state, PAGE_PLANNING, async |tx| {
                Ok(planning::set_month_goal(tx, body.0.month, goal).await?)
            })
            .await?;
        Ok(Done::Done)
    }
}
