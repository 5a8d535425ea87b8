//! Contribution source codes (refcodes) with their money, and contact origin codes with the value of the people
//! they brought. Figures follow the docs/metrics.md.

use super::range::resolve_range;
use crate::auth::{ClientAuth, PAGE_CONTACT_ORIGIN_CODES};
use crate::error::ApiError;
use crate::routes::ApiTags;
use crate::state::SharedState;
use chrono::{DateTime, NaiveDate, Utc};
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{Enum, Object, OpenApi};

use crate::auth::PAGE_CONTRIBUTION_SOURCE_CODES;

pub struct SourceCodesApi;

/// A source code with its parsed parts and the money of its gifts in the range.
#[derive(Debug, Object)]
pub struct SourceCodeRow {
    pub id: i64,
    pub code: String,
    /// False when the code does not fit the client's pattern (kept whole).
    pub parsed: bool,
    #[oai(nullable)]
    pub channel: Option<String>,
    #[oai(nullable, rename = "codeDate")]
    pub code_date: Option<NaiveDate>,
    #[oai(nullable)]
    pub campaign: Option<String>,
    #[oai(nullable)]
    pub variant: Option<String>,
    pub gifts: i64,
    pub donors: i64,
    pub gross: String,
    pub net: String,
    #[oai(rename = "averageGift")]
    pub average_gift: String,
    #[oai(nullable, rename = "firstGift")]
    pub first_gift: Option<DateTime<Utc>>,
    #[oai(nullable, rename = "lastGift")]
    pub last_gift: Option<DateTime<Utc>>,
    #[oai(nullable, rename = "mailingId")]
    pub mailing_id: Option<i64>,
    #[oai(nullable, rename = "mailingName")]
    pub mailing_name: Option<String>,
    #[oai(nullable, rename = "formId")]
    pub form_id: Option<i64>,
    #[oai(nullable, rename = "formName")]
    pub form_name: Option<String>,
    /// Gifts in the range that carry this code of a mailing but were paid before the mailing reached the giver
    /// ("refcode used before its mailing was sent"): counted in the code's gifts, not in the mailing's.
    #[oai(rename = "giftsBeforeSend")]
    pub gifts_before_send: i64,
}

#[derive(Debug, Object)]
pub struct SourceCodeTable {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub items: Vec<SourceCodeRow>,
    /// The range's gifts with a refcode used before its mailing was sent, all codes together.
    #[oai(rename = "giftsBeforeSend")]
    pub gifts_before_send: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum SourceCodeGrouping {
    Channel,
    Campaign,
}

/// The source codes of one channel or campaign together (donors counted once across the group's codes).
#[derive(Debug, Object)]
pub struct SourceCodeGroup {
    /// The channel or campaign; "unparsed" for codes that do not fit the pattern.
    pub key: String,
    pub codes: i64,
    pub gifts: i64,
    pub donors: i64,
    pub gross: String,
    pub net: String,
    #[oai(rename = "averageGift")]
    pub average_gift: String,
}

/// What the people an origin code brought in the range are worth.
#[derive(Debug, Object)]
pub struct OriginCodeValue {
    pub id: i64,
    pub name: String,
    pub acquired: i64,
    #[oai(rename = "stillSubscribed")]
    pub still_subscribed: i64,
    pub donors: i64,
    /// donors ÷ acquired
    #[oai(rename = "donorShare")]
    pub donor_share: f64,
    #[oai(rename = "revenue30")]
    pub revenue_30: String,
    #[oai(rename = "revenue90")]
    pub revenue_90: String,
    #[oai(rename = "revenue365")]
    pub revenue_365: String,
    #[oai(rename = "revenueAll")]
    pub revenue_all: String,
    #[oai(rename = "revenuePerContact")]
    pub revenue_per_contact: String,
}

#[derive(Debug, Object)]
pub struct OriginCodeValueTable {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub items: Vec<OriginCodeValue>,
}

/// Contacts acquired through one origin code in one week (weeks start on Monday, client zone).
#[derive(Debug, Object)]
pub struct AcquisitionWeek {
    pub week: NaiveDate,
    #[oai(rename = "originCodeId")]
    pub origin_code_id: i64,
    #[oai(rename = "originCodeName")]
    pub origin_code_name: String,
    pub contacts: i64,
}

use store::revenue::codes;

impl From<codes::SourceCode> for SourceCodeRow {
    fn from(r: codes::SourceCode) -> Self {
        Self {
            id: r.id,
            code: r.code,
            parsed: r.parsed,
            channel: r.channel,
            code_date: r.code_date,
            campaign: r.campaign,
            variant: r.variant,
            gifts: r.gifts,
            donors: r.donors,
            gross: r.gross,
            net: r.net,
            average_gift: r.average_gift,
            first_gift: r.first_gift,
            last_gift: r.last_gift,
            mailing_id: r.mailing_id,
            mailing_name: r.mailing_name,
            form_id: r.form_id,
            form_name: r.form_name,
            gifts_before_send: r.gifts_before_send,
        }
    }
}

impl From<codes::Group> for SourceCodeGroup {
    fn from(g: codes::Group) -> Self {
        Self {
            key: g.key,
            codes: g.codes,
            gifts: g.gifts,
            donors: g.donors,
            gross: g.gross,
            net: g.net,
            average_gift: g.average_gift,
        }
    }
}

impl From<codes::OriginValue> for OriginCodeValue {
    fn from(v: codes::OriginValue) -> Self {
        Self {
            id: v.id,
            name: v.name,
            acquired: v.acquired,
            still_subscribed: v.still_subscribed,
            donors: v.donors,
            donor_share: v.donor_share,
            revenue_30: v.revenue_30,
            revenue_90: v.revenue_90,
            revenue_365: v.revenue_365,
            revenue_all: v.revenue_all,
            revenue_per_contact: v.revenue_per_contact,
        }
    }
}

impl From<codes::AcquisitionWeek> for AcquisitionWeek {
    fn from(w: codes::AcquisitionWeek) -> Self {
        Self {
            week: w.week,
            origin_code_id: w.origin_code_id,
            origin_code_name: w.origin_code_name,
            contacts: w.contacts,
        }
    }
}

#[OpenApi(tag = "ApiTags::Revenue")]
impl SourceCodesApi {
    /// Every source code with its gifts, donors, gross, net, average gift, first and last gift in the range
    /// (client zone; default this month), and what it is tied to; most gross first.
    #[oai(
        path = "/api/contribution-source-codes",
        method = "get",
        operation_id = "listContributionSourceCodes"
    )]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<Json<SourceCodeTable>, ApiError> {
        let (range, rows) = auth
            .0
            .tx(&state, PAGE_CONTRIBUTION_SOURCE_CODES, async |tx| {
                let range = resolve_range(tx, from.0, to.0).await?;
                let rows = codes::source_codes(tx, &range).await?;
                Ok((range, rows))
            })
            .await?;
        let items: Vec<SourceCodeRow> = rows.into_iter().map(Into::into).collect();
        let gifts_before_send = items.iter().map(|r| r.gifts_before_send).sum();
        Ok(Json(SourceCodeTable {
            from: range.from,
            to: range.to,
            items,
            gifts_before_send,
        }))
    }

    /// The range's source codes grouped by channel or campaign, most gross first.
    #[oai(
        path = "/api/contribution-source-codes/groups",
        method = "get",
        operation_id = "listContributionSourceCodeGroups"
    )]
    async fn groups(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        by: Query<SourceCodeGrouping>,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<Json<Vec<SourceCodeGroup>>, ApiError> {
        let by = match by.0 {
            SourceCodeGrouping::Channel => codes::Grouping::Channel,
            SourceCodeGrouping::Campaign => codes::Grouping::Campaign,
        };
        let groups = auth
            .0
            .tx(&state, PAGE_CONTRIBUTION_SOURCE_CODES, async |tx| {
                let range = resolve_range(tx, from.0, to.0).await?;
                Ok(codes::groups(tx, &range, by).await?)
            })
            .await?;
        let groups: Vec<SourceCodeGroup> = groups.into_iter().map(Into::into).collect();
        Ok(Json(groups))
    }

    /// Per origin code, the contacts it brought in the range and what they gave.
    #[oai(
        path = "/api/external-origin-code/value",
        method = "get",
        operation_id = "listOriginCodeValue"
    )]
    async fn origin_value(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<Json<OriginCodeValueTable>, ApiError> {
        let (range, rows) = auth
            .0
            .tx(&state, PAGE_CONTACT_ORIGIN_CODES, async |tx| {
                let range = resolve_range(tx, from.0, to.0).await?;
                let rows = codes::origin_values(tx, &range).await?;
                Ok((range, rows))
            })
            .await?;
        let items = rows.into_iter().map(Into::into).collect();
        Ok(Json(OriginCodeValueTable {
            from: range.from,
            to: range.to,
            items,
        }))
    }

    /// Contacts acquired per week and origin code in the range (weeks start on Monday, client zone).
    #[oai(
        path = "/api/external-origin-code/acquisition",
        method = "get",
        operation_id = "listOriginCodeAcquisition"
    )]
    async fn acquisition(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<Json<Vec<AcquisitionWeek>>, ApiError> {
        let weeks = auth
            .0
            .tx(&state, PAGE_CONTACT_ORIGIN_CODES, async |tx| {
                let range = resolve_range(tx, from.0, to.0).await?;
                Ok(codes::acquisition_weeks(tx, &range).await?)
            })
            .await?;
        let weeks: Vec<AcquisitionWeek> = weeks.into_iter().map(Into::into).collect();
        Ok(Json(weeks))
    }
}
