//! Contribution source codes (refcodes) with their money, and contact origin codes with the value of the people
//! they brought. Figures follow the README's "Revenue metrics".

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
use store::revenue::{DONORS, NET};

use crate::auth::PAGE_CONTRIBUTION_SOURCE_CODES;

pub struct SourceCodesApi;

/// A source code with its parsed parts and the money of its gifts in the range.
#[derive(Debug, Object, sqlx::FromRow)]
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
}

#[derive(Debug, Object)]
pub struct SourceCodeTable {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub items: Vec<SourceCodeRow>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum SourceCodeGrouping {
    Channel,
    Campaign,
}

/// The source codes of one channel or campaign together (donors counted once across the group's codes).
#[derive(Debug, Object, sqlx::FromRow)]
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
#[derive(Debug, Object, sqlx::FromRow)]
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
#[derive(Debug, Object, sqlx::FromRow)]
pub struct AcquisitionWeek {
    pub week: NaiveDate,
    #[oai(rename = "originCodeId")]
    pub origin_code_id: i64,
    #[oai(rename = "originCodeName")]
    pub origin_code_name: String,
    pub contacts: i64,
}

const MONEY: &str = "::numeric(20, 2)::text";

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
        auth.0.require(PAGE_CONTRIBUTION_SOURCE_CODES)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let range = resolve_range(&mut tx, from.0, to.0).await?;
        let items = sqlx::query_as::<_, SourceCodeRow>(sqlx::AssertSqlSafe(format!(
            "with a as (
                 select c.source_code_id, count(*) filter (where c.amount > 0) as gifts,
                        {DONORS} as donors,
                        coalesce(sum(c.amount) filter (where c.amount > 0), 0) as gross,
                        coalesce(sum({NET}), 0) as net,
                        min(c.paid_at) filter (where c.amount > 0) as first_gift,
                        max(c.paid_at) filter (where c.amount > 0) as last_gift
                 from contributions c
                 where c.paid_at >= $1 and c.paid_at < $2 and c.source_code_id is not null
                 group by c.source_code_id
             )
             select s.id, s.code, s.parsed, s.channel, s.code_date, s.campaign, s.variant,
                    coalesce(a.gifts, 0) as gifts, coalesce(a.donors, 0) as donors,
                    coalesce(a.gross, 0){MONEY} as gross, coalesce(a.net, 0){MONEY} as net,
                    (case when a.gifts > 0 then round(a.gross / a.gifts, 2) else 0 end){MONEY} as average_gift,
                    a.first_gift, a.last_gift, s.mailing_id, m.name as mailing_name, s.form_id,
                    f.name as form_name
             from source_codes s left join a on a.source_code_id = s.id
             left join mailings m on m.id = s.mailing_id left join forms f on f.id = s.form_id
             order by coalesce(a.gross, 0) desc, s.code"
        )))
        .bind(range.lo)
        .bind(range.hi)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(SourceCodeTable {
            from: range.from,
            to: range.to,
            items,
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
        auth.0.require(PAGE_CONTRIBUTION_SOURCE_CODES)?;
        let key = match by.0 {
            SourceCodeGrouping::Channel => {
                "case when s.parsed then coalesce(s.channel, 'unparsed') else 'unparsed' end"
            }
            SourceCodeGrouping::Campaign => {
                "case when s.parsed then coalesce(s.campaign, 'unparsed') else 'unparsed' end"
            }
        };
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let range = resolve_range(&mut tx, from.0, to.0).await?;
        let groups = sqlx::query_as::<_, SourceCodeGroup>(sqlx::AssertSqlSafe(format!(
            "select {key} as key, count(distinct s.id) as codes,
                    count(*) filter (where c.amount > 0) as gifts,
                    {DONORS} as donors,
                    coalesce(sum(c.amount) filter (where c.amount > 0), 0){MONEY} as gross,
                    coalesce(sum({NET}), 0){MONEY} as net,
                    (case when count(*) filter (where c.amount > 0) > 0
                          then round(sum(c.amount) filter (where c.amount > 0)
                                     / count(*) filter (where c.amount > 0), 2)
                          else 0 end){MONEY} as average_gift
             from contributions c join source_codes s on s.id = c.source_code_id
             where c.paid_at >= $1 and c.paid_at < $2
             group by 1 order by sum(c.amount) filter (where c.amount > 0) desc nulls last, 1"
        )))
        .bind(range.lo)
        .bind(range.hi)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
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
        auth.0.require(PAGE_CONTACT_ORIGIN_CODES)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let range = resolve_range(&mut tx, from.0, to.0).await?;
        let within = |days: i32| {
            format!(
                "coalesce(sum({NET}) filter (where c.paid_at < k.created + interval '{days} days'), 0)"
            )
        };
        let (r30, r90, r365) = (within(30), within(90), within(365));
        let items = sqlx::query_as::<_, OriginCodeValue>(sqlx::AssertSqlSafe(format!(
            "with k as (
                 select id, origin_code_id, created, subscription from contacts
                 where created >= $1 and created < $2 and origin_code_id is not null
             ), per as (
                 select k.id, k.origin_code_id, k.subscription = 'subscribed' as subscribed,
                        bool_or(c.amount > 0) as donor,
                        {r30} as r30, {r90} as r90, {r365} as r365,
                        coalesce(sum({NET}), 0) as rall
                 from k left join contributions c on c.contact_id = k.id
                 group by k.id, k.origin_code_id, k.subscription
             )
             select o.id, o.name, count(*) as acquired, count(*) filter (where subscribed) as still_subscribed,
                    count(*) filter (where donor) as donors,
                    (count(*) filter (where donor))::float8 / count(*) as donor_share,
                    sum(r30){MONEY} as revenue_30, sum(r90){MONEY} as revenue_90,
                    sum(r365){MONEY} as revenue_365, sum(rall){MONEY} as revenue_all,
                    round(sum(rall) / count(*), 2){MONEY} as revenue_per_contact
             from per join origin_codes o on o.id = per.origin_code_id
             group by o.id order by acquired desc, o.name"
        )))
        .bind(range.lo)
        .bind(range.hi)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
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
        auth.0.require(PAGE_CONTACT_ORIGIN_CODES)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let range = resolve_range(&mut tx, from.0, to.0).await?;
        let weeks = sqlx::query_as::<_, AcquisitionWeek>(
            "select date_trunc('week', k.created at time zone $3)::date as week, o.id as origin_code_id,
                    o.name as origin_code_name, count(*) as contacts
             from contacts k join origin_codes o on o.id = k.origin_code_id
             where k.created >= $1 and k.created < $2
             group by 1, 2 order by 1, 4 desc, 3",
        )
        .bind(range.lo)
        .bind(range.hi)
        .bind(&range.tz)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(weeks))
    }
}
