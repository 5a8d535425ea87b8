//! External mailings: sends made elsewhere, imported from column-mapped CSV files as jobs, listed on the
//! E-mail Analytics page and named in the selection data.

use super::ApiTags;
use crate::auth::{ClientAuth, PAGE_PERFORMANCE};
use crate::date_range::check_range;
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::NaiveDate;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use store::external_mailings;

pub struct ExternalMailingsApi;

/// One external send. Money is a decimal string.
#[derive(Debug, Object)]
pub struct ExternalMailingRow {
    pub id: i64,
    /// `esp` (another e-mail platform) or `lemlist`.
    pub source: String,
    pub name: String,
    #[oai(rename = "sentOn")]
    pub sent_on: NaiveDate,
    pub recipients: i64,
    pub delivered: i64,
    pub bounces: i64,
    pub opens: i64,
    pub clicks: i64,
    pub unsubscribes: i64,
    pub revenue: String,
}

/// An entry of a selection list.
#[derive(Debug, Object)]
pub struct ExternalName {
    pub id: i64,
    pub label: String,
}

async fn names(
    state: &SharedState,
    auth: &ClientAuth,
    source: &str,
) -> Result<Json<Vec<ExternalName>>, ApiError> {
    let mut tx = state.tenancy.begin(&auth.0.client).await?;
    let rows = external_mailings::names(&mut tx, source).await?;
    tx.commit().await?;
    Ok(Json(
        rows.into_iter()
            .map(|(id, label)| ExternalName { id, label })
            .collect(),
    ))
}

#[OpenApi(tag = "ApiTags::Mailings")]
impl ExternalMailingsApi {
    /// External sends of `from`–`to` (both included), newest first.
    #[oai(
        path = "/api/external-mailings",
        method = "get",
        operation_id = "listExternalMailings"
    )]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<NaiveDate>,
        to: Query<NaiveDate>,
    ) -> Result<Json<Vec<ExternalMailingRow>>, ApiError> {
        auth.0.require(PAGE_PERFORMANCE)?;
        check_range(from.0, to.0)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let rows = external_mailings::list(&mut tx, from.0, to.0).await?;
        tx.commit().await?;
        Ok(Json(
            rows.into_iter()
                .map(|r| ExternalMailingRow {
                    id: r.id,
                    source: r.source,
                    name: r.name,
                    sent_on: r.sent_on,
                    recipients: r.recipients,
                    delivered: r.delivered,
                    bounces: r.bounces,
                    opens: r.opens,
                    clicks: r.clicks,
                    unsubscribes: r.unsubscribes,
                    revenue: r.revenue,
                })
                .collect(),
        ))
    }

    /// Selection data: the names of external mailings made on another e-mail platform.
    #[oai(
        path = "/api/selection/external-mailing-names",
        method = "get",
        operation_id = "listExternalMailingNames"
    )]
    async fn external_names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<ExternalName>>, ApiError> {
        names(&state, &auth, "esp").await
    }

    /// Selection data: the names of lemlist campaigns.
    #[oai(
        path = "/api/selection/lemlist-campaign-names",
        method = "get",
        operation_id = "listLemlistCampaignNames"
    )]
    async fn lemlist_names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<ExternalName>>, ApiError> {
        names(&state, &auth, "lemlist").await
    }
}
