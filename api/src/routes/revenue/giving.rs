//! A contact's giving and the revenue selection lists.

use super::gifts::Gift;
use crate::auth::{
    ClientAuth, Needs, PAGE_CONTACTS, PAGE_CONTRIBUTION_SOURCE_CODES, PAGE_SEGMENTS,
};
use crate::error::ApiError;
use crate::routes::ApiTags;
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use store::revenue::gifts;

pub struct RevenueSelectionApi;

/// A contact's giving, by the definitions of docs/metrics.md.
#[derive(Debug, Object)]
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
#[derive(Debug, Object)]
pub struct SelectionRow {
    pub id: i64,
    pub label: String,
}

fn selection_rows(rows: Vec<(i64, String)>) -> Vec<SelectionRow> {
    rows.into_iter()
        .map(|(id, label)| SelectionRow { id, label })
        .collect()
}

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
        let (summary, gifts) = auth
            .0
            .tx(&state, PAGE_CONTACTS, async |tx| {
                let summary = gifts::contact_giving(tx, id.0)
                    .await?
                    .ok_or_else(|| ApiError::NotFound("Contact not found".to_owned()))?;
                let gifts = gifts::of_contact(tx, id.0).await?;
                Ok((summary, gifts))
            })
            .await?;
        let summary = ContactGiving {
            first_gift: summary.first_gift,
            last_gift: summary.last_gift,
            hpc: summary.hpc,
            mrc: summary.mrc,
            total: summary.total,
            count: summary.count,
            sustainer: summary.sustainer,
            category: summary.category,
        };
        let gifts = gifts.into_iter().map(Gift::from).collect();
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
        // Contribution Source Codes lists them; the segment rule builder offers them as a condition.
        let needs = Needs::AnyOf(&[PAGE_CONTRIBUTION_SOURCE_CODES, PAGE_SEGMENTS]);
        let rows = auth
            .0
            .tx(&state, needs, async |tx| {
                Ok(store::revenue::codes::source_code_labels(tx).await?)
            })
            .await?;
        Ok(Json(selection_rows(rows)))
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
        let rows = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                Ok(store::mailings::names(tx).await?)
            })
            .await?;
        Ok(Json(selection_rows(rows)))
    }
}
