//! Media: ads imports (Meta Ads Manager, Google Ads, or any file with a column mapping) as jobs, the figures per
//! campaign, ad group and ad, the spend-versus-revenue series, each ad's refcodes and origin codes, and the ad
//! names for the selection lists. Figures and their definitions live in `store::media` (docs/media.md).

mod dto;

pub use dto::*;

use super::ApiTags;
use crate::auth::{ClientAuth, Needs};
use crate::error::ApiError;
use crate::schemas::JobAccepted;
use crate::state::SharedState;
use chrono::NaiveDate;
use jobs::import::media::MediaPlan;
use jobs::JobKind;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;
use std::collections::BTreeMap;
use store::media::import::{AdField, AdPlatform};
use store::media::{self, CodesError, Level};
use tenancy::TenantTx;

pub use crate::auth::PAGE_MEDIA;
/// The longest range the page may ask for.
const MAX_RANGE_DAYS: i64 = 3660;

pub struct MediaApi;

fn parse_mapping(raw: Option<&str>) -> Result<BTreeMap<String, AdField>, ApiError> {
    crate::uploads::column_mapping(
        crate::uploads::required_mapping(raw)?,
        AdField::from_id,
        AdField::label,
        &AdField::REQUIRED,
    )
}

/// `from`–`to` in the client's calendar; by default the last 30 days up to today.
async fn range(
    tx: &mut TenantTx,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<(NaiveDate, NaiveDate), ApiError> {
    let (from, to) = store::media::range(tx, from, to).await?;
    if from > to {
        return Err(ApiError::BadRequest(
            "The start of the range is after its end".to_owned(),
        ));
    }
    if (to - from).num_days() >= MAX_RANGE_DAYS {
        return Err(ApiError::BadRequest(
            "The range may span at most ten years".to_owned(),
        ));
    }
    Ok((from, to))
}

#[OpenApi(tag = "ApiTags::Media")]
impl MediaApi {
    /// Imports ad days from a Meta Ads Manager or Google Ads export, or any file with a column mapping; the
    /// import runs as a job. A day imported again replaces the stored one.
    #[oai(
        path = "/api/media/import",
        method = "post",
        operation_id = "importMedia"
    )]
    async fn import(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: MediaUpload,
    ) -> Result<JobAccepted, ApiError> {
        auth.0.check(PAGE_MEDIA)?;
        let platform = AdPlatform::from_id(&body.platform).ok_or_else(|| {
            ApiError::BadRequest("platform must be meta, google or other".to_owned())
        })?;
        let mapping = match platform {
            AdPlatform::Other => parse_mapping(body.mapping.as_deref())?,
            AdPlatform::Meta | AdPlatform::Google => BTreeMap::new(),
        };
        let row = auth
            .0
            .enqueue(&state, Needs::Nothing, async |tx| {
                let (upload_id, filename) = crate::uploads::store(tx, body.file, false).await?;
                Ok(JobKind::MediaImport(MediaPlan {
                    upload_id,
                    filename,
                    platform,
                    mapping,
                }))
            })
            .await?;
        Ok(JobAccepted::Accepted(Json(row.into())))
    }

    /// The fields an ads file column can be mapped to.
    #[oai(
        path = "/api/media/import/fields",
        method = "get",
        operation_id = "listMediaImportFields"
    )]
    async fn fields(&self, auth: ClientAuth) -> Result<Json<Vec<MediaField>>, ApiError> {
        auth.0.require(PAGE_MEDIA)?;
        Ok(Json(
            AdField::ALL
                .into_iter()
                .map(|f| MediaField {
                    id: f.id().to_owned(),
                    label: f.label().to_owned(),
                    required: AdField::REQUIRED.contains(&f),
                })
                .collect(),
        ))
    }

    /// The media figures per campaign, ad group or ad over a date range (docs/media.md).
    #[oai(
        path = "/api/media/performance",
        method = "get",
        operation_id = "getMediaPerformance"
    )]
    async fn performance(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
        level: Query<Option<MediaLevel>>,
        #[oai(name = "campaignId")] campaign_id: Query<Option<i64>>,
    ) -> Result<Json<MediaPerformance>, ApiError> {
        let level = match level.0.unwrap_or(MediaLevel::Campaign) {
            MediaLevel::Campaign => Level::Campaign,
            MediaLevel::Group => Level::Group,
            MediaLevel::Ad => Level::Ad,
        };
        let ((from, to), rows, total) = auth
            .0
            .tx(&state, PAGE_MEDIA, async |tx| {
                let (from, to) = range(tx, from.0, to.0).await?;
                let (rows, total) =
                    media::performance_with_total(tx, level, from, to, campaign_id.0).await?;
                Ok(((from, to), rows, total))
            })
            .await?;
        let total = total.map(MediaRow::from).unwrap_or_else(empty_total);
        Ok(Json(MediaPerformance {
            from,
            to,
            rows: rows.into_iter().map(MediaRow::from).collect(),
            total,
        }))
    }

    /// Spend and direct ad revenue per day of a date range, for the spend-versus-revenue chart.
    #[oai(
        path = "/api/media/series",
        method = "get",
        operation_id = "getMediaSeries"
    )]
    async fn series(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
        #[oai(name = "campaignId")] campaign_id: Query<Option<i64>>,
    ) -> Result<Json<Vec<MediaDay>>, ApiError> {
        let days = auth
            .0
            .tx(&state, PAGE_MEDIA, async |tx| {
                let (from, to) = range(tx, from.0, to.0).await?;
                Ok(media::series(tx, from, to, campaign_id.0).await?)
            })
            .await?;
        Ok(Json(
            days.into_iter()
                .map(|d| MediaDay {
                    day: d.day,
                    spend: d.spend,
                    revenue: d.revenue,
                })
                .collect(),
        ))
    }

    /// Every ad with the refcodes and origin codes that tie it to money and people.
    #[oai(path = "/api/media/ads", method = "get", operation_id = "listMediaAds")]
    async fn ads(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<MediaAd>>, ApiError> {
        let ads = auth
            .0
            .tx(
                &state,
                PAGE_MEDIA,
                async |tx| Ok(media::ad_codes(tx).await?),
            )
            .await?;
        Ok(Json(
            ads.into_iter()
                .map(|a| MediaAd {
                    id: a.id,
                    name: a.name,
                    ad_group: a.ad_group,
                    campaign: a.campaign,
                    platform: a.platform,
                    refcodes: a.refcodes,
                    origin_code_ids: a.origin_code_ids,
                })
                .collect(),
        ))
    }

    /// Replaces an ad's refcodes and origin codes. A code already tied to another ad is refused.
    #[oai(
        path = "/api/media/ads/:id/codes",
        method = "put",
        operation_id = "setMediaAdCodes"
    )]
    async fn set_codes(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        body: Json<AdCodesInput>,
    ) -> Result<Json<MediaAd>, ApiError> {
        auth.0.check(PAGE_MEDIA)?;
        let refcodes: Vec<String> = body
            .0
            .refcodes
            .iter()
            .map(|r| r.trim().to_owned())
            .collect();
        if refcodes.len() > 100 || body.0.origin_code_ids.len() > 100 {
            return Err(ApiError::BadRequest(
                "An ad takes at most 100 codes of each kind".to_owned(),
            ));
        }
        if let Some(bad) = refcodes.iter().find(|r| {
            r.is_empty()
                || r.len() > 200
                || !r
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        }) {
            return Err(ApiError::BadRequest(format!(
                "{bad:?} is not a refcode: use letters, digits, underscores and dashes"
            )));
        }
        let ad = auth
            .0
            .tx(&state, PAGE_MEDIA, async |tx| {
                media::set_codes(tx, id.0, &refcodes, &body.0.origin_code_ids)
                    .await
                    .map_err(|e| match e {
                        CodesError::NoAd => ApiError::NotFound("No such ad".to_owned()),
                        CodesError::Db(e) => ApiError::from(e),
                        other => ApiError::Conflict(other.to_string()),
                    })?;
                media::ad_codes(tx)
                    .await?
                    .into_iter()
                    .find(|a| a.id == id.0)
                    .ok_or_else(|| ApiError::NotFound("No such ad".to_owned()))
            })
            .await?;
        Ok(Json(MediaAd {
            id: ad.id,
            name: ad.name,
            ad_group: ad.ad_group,
            campaign: ad.campaign,
            platform: ad.platform,
            refcodes: ad.refcodes,
            origin_code_ids: ad.origin_code_ids,
        }))
    }

    /// Selection data: ad campaign names.
    #[oai(
        path = "/api/selection/ad-campaign-names",
        method = "get",
        operation_id = "listAdCampaignNames"
    )]
    async fn campaign_names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<AdName>>, ApiError> {
        names(&state, &auth, Level::Campaign).await
    }

    /// Selection data: ad group names, with their campaign.
    #[oai(
        path = "/api/selection/ad-group-names",
        method = "get",
        operation_id = "listAdGroupNames"
    )]
    async fn group_names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<AdName>>, ApiError> {
        names(&state, &auth, Level::Group).await
    }

    /// Selection data: ad names, with their campaign and group.
    #[oai(
        path = "/api/selection/ad-names",
        method = "get",
        operation_id = "listAdNames"
    )]
    async fn ad_names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<AdName>>, ApiError> {
        names(&state, &auth, Level::Ad).await
    }
}

/// Selection lists of the Media page: its permission, like the page's other data.
async fn names(
    state: &SharedState,
    auth: &ClientAuth,
    level: Level,
) -> Result<Json<Vec<AdName>>, ApiError> {
    let rows = auth
        .0
        .tx(state, PAGE_MEDIA, async |tx| {
            Ok(media::names(tx, level).await?)
        })
        .await?;
    Ok(Json(
        rows.into_iter()
            .map(|n| AdName {
                id: n.id,
                label: n.label,
            })
            .collect(),
    ))
}
