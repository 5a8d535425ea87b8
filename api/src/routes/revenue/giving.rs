//! A contact's giving and the revenue selection lists.

use super::gifts::{Gift, GIFT_COLUMNS, GIFT_FROM};
use crate::auth::{ClientAuth, PAGE_CONTACTS};
use crate::error::ApiError;
use crate::routes::ApiTags;
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use store::revenue::{NET, REFUNDED};

pub struct RevenueSelectionApi;

/// A contact's giving, by the README's definitions.
#[derive(Debug, Object, sqlx::FromRow)]
pub struct ContactGiving {
    #[oai(nullable, rename = "firstGift")]
    pub first_gift: Option<DateTime<Utc>>,
    #[oai(nullable, rename = "lastGift")]
    pub last_gift: Option<DateTime<Utc>>,
    /// Highest previous contribution (not refunded).
    #[oai(nullable)]
    pub hpc: Option<String>,
    /// Most recent contribution (not refunded).
    #[oai(nullable)]
    pub mrc: Option<String>,
    /// The contact's net.
    pub total: String,
    pub count: i64,
    pub sustainer: bool,
    /// prospect, first-time donor, repeat donor, sustainer or lapsed
    pub category: String,
}

#[derive(Debug, Object)]
pub struct ContactGivingDetail {
    pub summary: ContactGiving,
    /// The contact's gifts, newest first (at most 500).
    pub gifts: Vec<Gift>,
}

/// An entry of a selection list.
#[derive(Debug, Object, sqlx::FromRow)]
pub struct SelectionOption {
    pub id: String,
    pub label: String,
}

/// An entry of a selection list whose id is a row id.
#[derive(Debug, Object, sqlx::FromRow)]
pub struct SelectionRow {
    pub id: i64,
    pub label: String,
}

/// The contact categories, in the order they are decided (README).
pub(super) const CONTACT_CATEGORY_SQL: &str = "case
      when exists (select 1 from contributions c where c.contact_id = k.id and c.amount > 0
                     and c.recurring_months is not null
                     and not (c.refund_id is not null or c.refunded_at is not null)
                     and c.paid_at >= now() - interval '35 days') then 'sustainer'
      when g.last_gift is null then 'prospect'
      when g.last_gift <= now() - interval '13 months' then 'lapsed'
      when g.count >= 2 then 'repeat donor'
      else 'first-time donor' end";

pub(super) fn options(pairs: &[(&str, &str)]) -> Vec<SelectionOption> {
    pairs
        .iter()
        .map(|(id, label)| SelectionOption {
            id: (*id).to_owned(),
            label: (*label).to_owned(),
        })
        .collect()
}

#[OpenApi(tag = "ApiTags::Revenue")]
impl RevenueSelectionApi {
    /// A contact's giving summary and gift history.
    #[oai(
        path = "/api/contacts/:id/giving",
        method = "get",
        operation_id = "getContactGiving"
    )]
    async fn contact_giving(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<ContactGivingDetail>, ApiError> {
        auth.0.require(PAGE_CONTACTS)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let summary = sqlx::query_as::<_, ContactGiving>(sqlx::AssertSqlSafe(format!(
            "with g as (
                 select min(c.paid_at) filter (where c.amount > 0) as first_gift,
                        max(c.paid_at) filter (where c.amount > 0) as last_gift,
                        max(c.amount) filter (where c.amount > 0 and not {REFUNDED}) as hpc,
                        (array_agg(c.amount order by c.paid_at desc, c.id desc)
                           filter (where c.amount > 0 and not {REFUNDED}))[1] as mrc,
                        coalesce(sum({NET}), 0) as total,
                        count(*) filter (where c.amount > 0) as count
                 from contributions c where c.contact_id = $1
             )
             select g.first_gift, g.last_gift, g.hpc::text as hpc, g.mrc::text as mrc,
                    g.total::numeric(20, 2)::text as total, g.count,
                    ({CONTACT_CATEGORY_SQL}) = 'sustainer' as sustainer,
                    {CONTACT_CATEGORY_SQL} as category
             from contacts k cross join g where k.id = $1"
        )))
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| ApiError::NotFound("Contact not found".to_owned()))?;
        let gifts = sqlx::query_as::<_, Gift>(sqlx::AssertSqlSafe(format!(
            "select {GIFT_COLUMNS} {GIFT_FROM} where c.contact_id = $1 order by c.paid_at desc, c.id desc limit 500"
        )))
        .bind(id.0)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(ContactGivingDetail { summary, gifts }))
    }

    /// Selection data: contribution categories.
    #[oai(
        path = "/api/selection/contribution-categories",
        method = "get",
        operation_id = "listContributionCategories"
    )]
    async fn contribution_categories(
        &self,
        _auth: ClientAuth,
    ) -> Result<Json<Vec<SelectionOption>>, ApiError> {
        Ok(Json(options(&[
            ("one-time", "One-time"),
            ("recurring", "Recurring"),
            ("refunded", "Refunded"),
        ])))
    }

    /// Selection data: the attribution rules a gift can carry.
    #[oai(
        path = "/api/selection/attribution-code-names",
        method = "get",
        operation_id = "listAttributionCodeNames"
    )]
    async fn attribution_codes(
        &self,
        _auth: ClientAuth,
    ) -> Result<Json<Vec<SelectionOption>>, ApiError> {
        Ok(Json(options(&[
            ("refcode", "Refcode"),
            ("click", "Click window"),
            ("none", "None"),
        ])))
    }

    /// Selection data: contact categories from the giving data.
    #[oai(
        path = "/api/selection/contact-categories",
        method = "get",
        operation_id = "listContactCategories"
    )]
    async fn contact_categories(
        &self,
        _auth: ClientAuth,
    ) -> Result<Json<Vec<SelectionOption>>, ApiError> {
        Ok(Json(options(&[
            ("prospect", "Prospect"),
            ("first-time donor", "First-time donor"),
            ("repeat donor", "Repeat donor"),
            ("sustainer", "Sustainer"),
            ("lapsed", "Lapsed"),
        ])))
    }

    /// Selection data: source codes (contribcodes) by name.
    #[oai(
        path = "/api/selection/contribcode-names",
        method = "get",
        operation_id = "listContribcodeNames"
    )]
    async fn contribcode_names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<SelectionRow>>, ApiError> {
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let rows = sqlx::query_as::<_, SelectionRow>(
            "select id, code as label from source_codes order by code limit 10000",
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(rows))
    }

    /// Selection data: mailings by name, newest first.
    #[oai(
        path = "/api/selection/mailing-names",
        method = "get",
        operation_id = "listMailingNames"
    )]
    async fn mailing_names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<SelectionRow>>, ApiError> {
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let rows = sqlx::query_as::<_, SelectionRow>(
            "select id, name as label from mailings order by created desc, id desc limit 10000",
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(rows))
    }
}
