//! Scheduled reports: a report e-mailed weekly or monthly, with its file attached, to users of the client.

use super::{kind_of, ReportFormat, PAGE_REPORTS};
use crate::auth::ClientAuth;
use crate::error::ApiError;
use crate::routes::{ApiTags, Deleted};
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};
use store::reports::schedules::{self, Frequency, Schedule};
use store::reports::ReportKind;

pub struct ReportSchedulesApi;

#[derive(Debug, Clone, Copy, Enum)]
#[oai(rename_all = "lowercase")]
pub enum ReportFrequency {
    Weekly,
    Monthly,
}

#[derive(Debug, Object)]
pub struct ReportSchedule {
    pub id: i64,
    pub kind: String,
    pub title: String,
    pub format: String,
    /// weekly (the last whole week, Monday to Sunday) or monthly (the last calendar month)
    pub frequency: String,
    pub recipients: Vec<String>,
    #[oai(rename = "nextRun")]
    pub next_run: DateTime<Utc>,
    #[oai(nullable, rename = "lastRun")]
    pub last_run: Option<DateTime<Utc>>,
    pub created: DateTime<Utc>,
}

impl From<Schedule> for ReportSchedule {
    fn from(s: Schedule) -> Self {
        let title = ReportKind::parse(&s.kind)
            .map(|k| k.title().to_owned())
            .unwrap_or_else(|_| s.kind.clone());
        Self {
            id: s.id,
            kind: s.kind,
            title,
            format: s.format,
            frequency: s.frequency,
            recipients: s.recipients,
            next_run: s.next_run,
            last_run: s.last_run,
            created: s.created,
        }
    }
}

#[derive(Debug, Object)]
pub struct NewReportSchedule {
    #[oai(validator(max_length = 100))]
    pub kind: String,
    pub format: ReportFormat,
    pub frequency: ReportFrequency,
    /// E-mail addresses of users of this client (see listReportRecipients); 1 to 50.
    #[oai(validator(min_items = 1, max_items = 50))]
    pub recipients: Vec<String>,
}

/// A user who can receive scheduled reports.
#[derive(Debug, Object)]
pub struct ReportRecipient {
    pub email: String,
    pub name: String,
}

#[derive(ApiResponse)]
pub enum ScheduleCreated {
    #[oai(status = 201)]
    Created(Json<ReportSchedule>),
}

/// The client's own users and the universal users who may use it, enabled ones only.
async fn recipients(
    state: &SharedState,
    auth: &ClientAuth,
) -> Result<Vec<ReportRecipient>, ApiError> {
    let mut pub_tx = state.tenancy.public().await?;
    let mut users = store::users::universal_recipients(&mut pub_tx, auth.0.client.id).await?;
    pub_tx.commit().await?;
    let client_users = auth
        .0
        .tx(state, PAGE_REPORTS, async |tx| {
            Ok(store::users::client_recipients(tx).await?)
        })
        .await?;
    users.extend(client_users);
    let mut users: Vec<ReportRecipient> = users
        .into_iter()
        .map(|(email, name)| ReportRecipient { email, name })
        .collect();
    users.sort_by(|a, b| a.email.cmp(&b.email));
    users.dedup_by(|a, b| a.email == b.email);
    Ok(users)
}

#[OpenApi(tag = "ApiTags::Reports")]
impl ReportSchedulesApi {
    /// The users a scheduled report can go to.
    #[oai(
        path = "/api/report-recipients",
        method = "get",
        operation_id = "listReportRecipients"
    )]
    async fn recipients(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<ReportRecipient>>, ApiError> {
        auth.0.require(PAGE_REPORTS)?;
        Ok(Json(recipients(&state, &auth).await?))
    }

    #[oai(
        path = "/api/report-schedules",
        method = "get",
        operation_id = "listReportSchedules"
    )]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<ReportSchedule>>, ApiError> {
        let list = auth
            .0
            .tx(&state, PAGE_REPORTS, async |tx| {
                Ok(schedules::list(tx).await?)
            })
            .await?;
        Ok(Json(list.into_iter().map(Into::into).collect()))
    }

    /// E-mails a report weekly or monthly to users of this client.
    #[oai(
        path = "/api/report-schedules",
        method = "post",
        operation_id = "createReportSchedule"
    )]
    async fn create(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<NewReportSchedule>,
    ) -> Result<ScheduleCreated, ApiError> {
        auth.0.check(PAGE_REPORTS)?;
        let kind = kind_of(&body.0.kind)?;
        let allowed = recipients(&state, &auth).await?;
        let mut chosen: Vec<String> = body
            .0
            .recipients
            .iter()
            .map(|r| r.trim().to_lowercase())
            .collect();
        chosen.sort();
        chosen.dedup();
        if let Some(stranger) = chosen
            .iter()
            .find(|r| !allowed.iter().any(|u| &u.email == *r))
        {
            return Err(ApiError::BadRequest(format!(
                "{stranger} is not a user of this client"
            )));
        }
        let frequency = match body.0.frequency {
            ReportFrequency::Weekly => Frequency::Weekly,
            ReportFrequency::Monthly => Frequency::Monthly,
        };
        let format = body.0.format.into();
        let creator = Some(auth.0.user_id());
        let schedule = auth
            .0
            .tx(&state, PAGE_REPORTS, async |tx| {
                Ok(schedules::create(tx, kind, format, frequency, &chosen, creator).await?)
            })
            .await?;
        Ok(ScheduleCreated::Created(Json(schedule.into())))
    }

    #[oai(
        path = "/api/report-schedules/:id",
        method = "delete",
        operation_id = "deleteReportSchedule"
    )]
    async fn delete(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Deleted, ApiError> {
        auth.0
            .tx(&state, PAGE_REPORTS, async |tx| {
                if !schedules::delete(tx, id.0).await? {
                    return Err(ApiError::NotFound("No such schedule".to_owned()));
                }
                Ok(())
            })
            .await?;
        Ok(Deleted::Deleted)
    }
}
