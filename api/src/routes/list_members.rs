//! A list's members on its page: searched, a page at a time, with each contact's subscription; and taking a
//! contact off an upload list. Membership is the tenant view `crm_list_contacts` (see `store::lists`).
use super::ApiTags;
use crate::auth::{ClientAuth, PAGE_CONTACTS};
use crate::error::ApiError;
use crate::state::SharedState;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct ListMembersApi;

/// Members shown per page.
pub const MEMBERS_PAGE_SIZE: i64 = 25;

#[derive(Debug, Object)]
pub struct ListMember {
    #[oai(rename = "contactId")]
    pub contact_id: i64,
    pub email: String,
    #[oai(rename = "firstName")]
    pub first_name: String,
    #[oai(rename = "lastName")]
    pub last_name: String,
    /// subscribed, unsubscribed or bounced.
    pub subscription: String,
}

#[derive(Debug, Object)]
pub struct ListMembersPage {
    pub members: Vec<ListMember>,
    /// How many members match the search in all.
    pub total: i64,
    /// 1-based.
    pub page: i64,
    #[oai(rename = "pageSize")]
    pub page_size: i64,
}

#[derive(poem_openapi::ApiResponse)]
pub enum Removed {
    #[oai(status = 204)]
    Removed,
}

async fn list_kind(tx: &mut tenancy::TenantTx, id: i64) -> Result<String, ApiError> {
    store::lists::kind(tx, id)
        .await?
        .ok_or_else(|| ApiError::NotFound("List not found".to_owned()))
}

#[OpenApi(tag = "ApiTags::Lists")]
impl ListMembersApi {
    /// A page of the list's members by e-mail; `q` matches e-mail or name.
    #[oai(
        path = "/api/crm-list/:id/members",
        method = "get",
        operation_id = "listCrmListMembers"
    )]
    async fn members(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        q: Query<Option<String>>,
        page: Query<Option<i64>>,
    ) -> Result<Json<ListMembersPage>, ApiError> {
        // A list's members are contacts: the contacts permission, as for the export.
        auth.0.check(PAGE_CONTACTS)?;
        let search = q.0.unwrap_or_default();
        if search.chars().count() > 200 {
            return Err(ApiError::BadRequest(
                "Search must be at most 200 characters".to_owned(),
            ));
        }
        let page = page.0.unwrap_or(1).clamp(1, 1_000_000);
        let (rows, total) = auth
            .0
            .tx(&state, PAGE_CONTACTS, async |tx| {
                list_kind(tx, id.0).await?;
                let offset = (page - 1) * MEMBERS_PAGE_SIZE;
                Ok(store::lists::members(tx, id.0, &search, offset, MEMBERS_PAGE_SIZE).await?)
            })
            .await?;
        Ok(Json(ListMembersPage {
            members: rows
                .into_iter()
                .map(|m| ListMember {
                    contact_id: m.contact_id,
                    email: m.email,
                    first_name: m.first_name,
                    last_name: m.last_name,
                    subscription: m.subscription.to_string(),
                })
                .collect(),
            total,
            page,
            page_size: MEMBERS_PAGE_SIZE,
        }))
    }

    /// Takes a contact off an upload list (the contact stays). A query list's members follow from its origin
    /// codes, so they cannot be removed one by one.
    #[oai(
        path = "/api/crm-list/:id/members/:contact_id",
        method = "delete",
        operation_id = "removeCrmListMember"
    )]
    async fn remove(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        contact_id: Path<i64>,
    ) -> Result<Removed, ApiError> {
        auth.0
            .tx(&state, PAGE_CONTACTS, async |tx| {
                if list_kind(tx, id.0).await? != "upload" {
                    return Err(ApiError::BadRequest(
                        "Members of a query list follow from its origin codes; change the codes instead"
                            .to_owned(),
                    ));
                }
                if !store::lists::remove_member(tx, id.0, contact_id.0).await? {
                    return Err(ApiError::NotFound("Not a member of this list".to_owned()));
                }
                Ok(())
            })
            .await?;
        Ok(Removed::Removed)
    }
}
