//! Segments: rule-based, always current sets of contacts (docs/segments.md). The SQL lives in
//! `store::segments`; these handlers parse, check pageSegments, call the store and shape the answer.

mod dto;

use super::{ApiTags, Deleted};
use crate::auth::ClientAuth;
use crate::error::ApiError;
use crate::schemas::{Job, JobAccepted};
use crate::state::SharedState;
use dto::*;
use jobs::JobKind;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Json, PlainText};
use poem_openapi::{Object, OpenApi};
use store::segments::{self, SegmentError};
use store::tabular::{self, ColumnKind, Format};

pub use crate::auth::PAGE_SEGMENTS;

pub struct SegmentsApi;

impl From<SegmentError> for ApiError {
    fn from(e: SegmentError) -> Self {
        match e {
            SegmentError::Invalid(e) => ApiError::BadRequest(e.to_string()),
            SegmentError::NotFound => ApiError::NotFound("Segment not found".to_owned()),
            SegmentError::Conflict(m) => ApiError::Conflict(m),
            SegmentError::Db(e) => e.into(),
        }
    }
}

/// An entry of the segment names selection list.
#[derive(Debug, Object)]
pub struct SegmentName {
    pub id: i64,
    pub label: String,
}

#[OpenApi(tag = "ApiTags::Segments")]
impl SegmentsApi {
    /// Every segment of the current client, standard ones first.
    #[oai(path = "/api/segments", method = "get", operation_id = "listSegments")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<SegmentView>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, PAGE_SEGMENTS, async |tx| {
                Ok(segments::list(tx).await?)
            })
            .await?;
        Ok(Json(rows.into_iter().map(SegmentView::from).collect()))
    }

    /// Saves a new segment; its members are computed by an "Update Segment" job (see computeSegment). An invalid
    /// rule answers 400 naming the place in the rule.
    #[oai(
        path = "/api/segments",
        method = "post",
        operation_id = "createSegment"
    )]
    async fn create(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<SaveSegment>,
    ) -> Result<SegmentCreated, ApiError> {
        let seg = auth
            .0
            .tx(&state, PAGE_SEGMENTS, async |tx| {
                let id = segments::create(tx, &body.0.name, &body.0.rule).await?;
                Ok(segments::get(tx, id).await?)
            })
            .await?;
        Ok(SegmentCreated::Created(Json(seg.into())))
    }

    /// How many contacts a rule selects now; nothing is saved.
    #[oai(
        path = "/api/segments/preview",
        method = "post",
        operation_id = "previewSegmentCount"
    )]
    async fn preview(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<PreviewRequest>,
    ) -> Result<Json<PreviewCount>, ApiError> {
        let count = auth
            .0
            .tx(&state, PAGE_SEGMENTS, async |tx| {
                Ok(segments::preview_count(tx, &body.0.rule).await?)
            })
            .await?;
        Ok(Json(PreviewCount { count }))
    }

    /// One segment.
    #[oai(
        path = "/api/segments/:id",
        method = "get",
        operation_id = "getSegment"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<SegmentView>, ApiError> {
        let seg = auth
            .0
            .tx(&state, PAGE_SEGMENTS, async |tx| {
                Ok(segments::get(tx, id.0).await?)
            })
            .await?;
        Ok(Json(seg.into()))
    }

    /// Renames a segment and replaces its rule (a standard segment keeps its rule).
    #[oai(
        path = "/api/segments/:id",
        method = "put",
        operation_id = "updateSegment"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        body: Json<SaveSegment>,
    ) -> Result<Json<SegmentView>, ApiError> {
        let seg = auth
            .0
            .tx(&state, PAGE_SEGMENTS, async |tx| {
                segments::update(tx, id.0, &body.0.name, &body.0.rule).await?;
                Ok(segments::get(tx, id.0).await?)
            })
            .await?;
        Ok(Json(seg.into()))
    }

    /// Deletes a user's segment; standard segments answer 409.
    #[oai(
        path = "/api/segments/:id",
        method = "delete",
        operation_id = "deleteSegment"
    )]
    async fn delete(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Deleted, ApiError> {
        auth.0
            .tx(&state, PAGE_SEGMENTS, async |tx| {
                Ok(segments::delete(tx, id.0).await?)
            })
            .await?;
        Ok(Deleted::Deleted)
    }

    /// Queues an "Update Segment" job that materialises the segment's members.
    #[oai(
        path = "/api/segments/:id/compute",
        method = "post",
        operation_id = "computeSegment"
    )]
    async fn compute(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<JobAccepted, ApiError> {
        let row = auth
            .0
            .enqueue(&state, PAGE_SEGMENTS, async |tx| {
                segments::get(tx, id.0).await?;
                Ok(JobKind::UpdateSegment {
                    segment_id: Some(id.0),
                })
            })
            .await?;
        Ok(JobAccepted::Accepted(Json(Job::from(row))))
    }

    /// A page of the segment's members (as last computed), by e-mail.
    #[oai(
        path = "/api/segments/:id/members",
        method = "get",
        operation_id = "listSegmentMembers"
    )]
    async fn members(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        /// 1-based page number.
        page: Query<Option<i64>>,
        /// Rows per page, 1 to 200 (default 25).
        #[oai(name = "pageSize")]
        page_size: Query<Option<i64>>,
    ) -> Result<Json<SegmentMembersPage>, ApiError> {
        let page = page.0.unwrap_or(1).clamp(1, 1_000_000);
        let page_size = page_size.0.unwrap_or(25).clamp(1, 200);
        let (rows, total) = auth
            .0
            .tx(&state, PAGE_SEGMENTS, async |tx| {
                Ok(segments::members_page(tx, id.0, page, page_size).await?)
            })
            .await?;
        Ok(Json(SegmentMembersPage {
            total,
            page,
            page_size,
            members: rows
                .into_iter()
                .map(|m| SegmentMember {
                    contact_id: m.contact_id,
                    email: m.email,
                    first_name: m.first_name,
                    last_name: m.last_name,
                    hpc: m.hpc,
                    last_gift_at: m.last_gift_at,
                })
                .collect(),
        }))
    }

    /// Every member as CSV (needs pageContacts too: contacts in bulk).
    #[oai(
        path = "/api/segments/:id/export",
        method = "get",
        operation_id = "exportSegment"
    )]
    async fn export(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<SegmentCsv, ApiError> {
        let (seg, rows) = auth
            .0
            .tx(&state, PAGE_SEGMENTS, async |tx| {
                let seg = segments::get(tx, id.0).await?;
                let rows = segments::members_all(tx, id.0).await?;
                Ok((seg, rows))
            })
            .await?;
        let header = ["Contact ID", "Email", "First", "Last"].map(str::to_owned);
        let kinds = [
            ColumnKind::Integer,
            ColumnKind::Text,
            ColumnKind::Text,
            ColumnKind::Text,
        ];
        let cells = rows.iter().map(|(cid, email, first, last)| {
            [cid.to_string(), email.clone(), first.clone(), last.clone()]
        });
        let bytes = tabular::to_bytes(Format::Csv, "Members", &header, &kinds, cells)
            .map_err(ApiError::internal)?;
        let body = String::from_utf8(bytes).map_err(ApiError::internal)?;
        let file: String = seg
            .name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        Ok(SegmentCsv::Csv(
            PlainText(body),
            format!("attachment; filename=\"{file}.csv\""),
        ))
    }

    /// "Save as list": a new upload CRM list holding the segment's members now.
    #[oai(
        path = "/api/segments/:id/save-as-list",
        method = "post",
        operation_id = "saveSegmentAsList"
    )]
    async fn save_as_list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        body: Json<SaveAsListRequest>,
    ) -> Result<Json<SavedList>, ApiError> {
        let list_id = auth
            .0
            .tx(&state, PAGE_SEGMENTS, async |tx| {
                Ok(segments::save_as_list(tx, id.0, &body.0.name).await?)
            })
            .await?;
        Ok(Json(SavedList { list_id }))
    }

    /// The saved segment's figures: size, members' revenue and average gift in the last 12 months, the R×F
    /// heat map and the HPC distribution with suggested asks (docs/segments.md).
    #[oai(
        path = "/api/segments/:id/analytics",
        method = "get",
        operation_id = "getSegmentAnalytics"
    )]
    async fn analytics(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<SegmentAnalytics>, ApiError> {
        let f = auth
            .0
            .tx(&state, PAGE_SEGMENTS, async |tx| {
                Ok(segments::analytics::figures(tx, id.0).await?)
            })
            .await?;
        Ok(Json(SegmentAnalytics {
            size: f.size,
            revenue_12m: f.revenue_12m,
            gifts_12m: f.gifts_12m,
            average_gift: f.average_gift,
            rf_cells: f
                .rf_cells
                .into_iter()
                .map(|(recency, frequency, members)| RfCell {
                    recency,
                    frequency,
                    members,
                })
                .collect(),
            hpc_bands: f
                .hpc_bands
                .into_iter()
                .map(|b| HpcBandView {
                    min: b.min,
                    max: b.max,
                    donors: b.donors,
                    median_hpc: b.median_hpc,
                    asks: vec![b.ask_1, b.ask_2, b.ask_3],
                })
                .collect(),
        }))
    }

    /// Selection data: segment names.
    #[oai(
        path = "/api/selection/segment-names",
        method = "get",
        operation_id = "listSegmentNames"
    )]
    async fn names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<SegmentName>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, PAGE_SEGMENTS, async |tx| {
                Ok(segments::names(tx).await?)
            })
            .await?;
        Ok(Json(
            rows.into_iter()
                .map(|(id, label)| SegmentName { id, label })
                .collect(),
        ))
    }
}
