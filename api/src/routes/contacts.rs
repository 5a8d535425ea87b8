use super::ApiTags;
use crate::auth::{ClientAuth, PAGE_CONTACTS};
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

mod search;
use search::Cursor;

pub struct ContactsApi;

#[derive(Debug, Object, sqlx::FromRow)]
pub struct Contact {
    pub id: i64,
    pub email: String,
    #[oai(rename = "firstName")]
    pub first_name: String,
    #[oai(rename = "lastName")]
    pub last_name: String,
    #[oai(nullable)]
    pub phone: Option<String>,
    #[oai(nullable)]
    pub vanid: Option<i64>,
    /// subscribed, unsubscribed or bounced
    pub subscription: String,
    #[oai(nullable, rename = "originCodeId")]
    pub origin_code_id: Option<i64>,
    #[oai(nullable, rename = "originCodeName")]
    pub origin_code_name: Option<String>,
    pub created: DateTime<Utc>,
}

#[derive(Debug, Object)]
pub struct ContactPage {
    pub items: Vec<Contact>,
    /// Contacts matching the search, across all pages: exact up to 10,000, above that an estimate
    /// (`totalEstimated`), shown as "about N".
    pub total: i64,
    /// True when `total` is the planner's estimate rather than a count.
    #[oai(rename = "totalEstimated")]
    pub total_estimated: bool,
    pub page: i64,
    #[oai(rename = "pageSize")]
    pub page_size: i64,
    /// Pass as `after` to get the page after this one (keyset pagination; fast at any depth). Null on the last page.
    #[oai(nullable)]
    pub next: Option<String>,
}

#[derive(Debug, Object, sqlx::FromRow)]
pub struct ListRef {
    pub id: i64,
    pub name: String,
}

#[derive(Debug, Object)]
pub struct ContactDetail {
    pub contact: Contact,
    /// The lists this contact is in (query lists by origin code, upload lists by membership).
    pub lists: Vec<ListRef>,
}

macro_rules! contact_select {
    () => {
        "select c.id, c.email, c.first_name, c.last_name, c.phone, c.vanid, c.subscription, c.origin_code_id,
                o.name as origin_code_name, c.created
         from contacts c left join origin_codes o on o.id = c.origin_code_id "
    };
}

#[OpenApi(tag = "ApiTags::Contacts")]
impl ContactsApi {
    /// Contacts whose e-mail or name contains `q`, newest first, one page at a time. Pass the previous page's
    /// `next` as `after` to read on (keyset pagination); without it, `page` counts from the newest contact.
    #[oai(
        path = "/api/contacts",
        method = "get",
        operation_id = "searchContacts"
    )]
    async fn search(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        q: Query<Option<String>>,
        #[oai(
            default = "default_page",
            validator(minimum(value = "1"), maximum(value = "100000"))
        )]
        page: Query<i64>,
        #[oai(
            name = "pageSize",
            default = "default_page_size",
            validator(minimum(value = "1"), maximum(value = "200"))
        )]
        page_size: Query<i64>,
        /// The `next` of the page before; the answer starts right after that contact.
        #[oai(validator(max_length = 64))]
        after: Query<Option<String>>,
    ) -> Result<Json<ContactPage>, ApiError> {
        auth.0.require(PAGE_CONTACTS)?;
        let term = q.0.as_deref().map(str::trim).unwrap_or("");
        let after = match after.0.as_deref() {
            None | Some("") => None,
            Some(text) => Some(
                Cursor::parse(text)
                    .ok_or_else(|| ApiError::BadRequest("after: not a page cursor".to_owned()))?,
            ),
        };
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let search = search::Search::new(term, after);
        let (total, total_estimated) = search.total(&mut tx).await?;
        let mut items = search
            .page(&mut tx, page_size.0 + 1, (page.0 - 1) * page_size.0)
            .await?;
        tx.commit().await?;
        let next = if items.len() as i64 > page_size.0 {
            items.truncate(page_size.0 as usize);
            items.last().map(|c| Cursor::of(c).to_string())
        } else {
            None
        };
        Ok(Json(ContactPage {
            items,
            total,
            total_estimated,
            page: page.0,
            page_size: page_size.0,
            next,
        }))
    }

    /// One contact and the lists it is in.
    #[oai(
        path = "/api/contacts/:id",
        method = "get",
        operation_id = "getContact"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<ContactDetail>, ApiError> {
        auth.0.require(PAGE_CONTACTS)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let contact = sqlx::query_as::<_, Contact>(concat!(contact_select!(), "where c.id = $1"))
            .bind(id.0)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or_else(|| ApiError::NotFound("Contact not found".to_owned()))?;
        let lists = sqlx::query_as::<_, ListRef>(
            "select l.id, l.name from crm_lists l
             where (l.kind = 'query' and $2::bigint = any (l.origin_code_ids))
                or (l.kind = 'upload' and exists (
                    select 1 from crm_list_members m where m.list_id = l.id and m.contact_id = $1))
             order by l.name",
        )
        .bind(id.0)
        .bind(contact.origin_code_id)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(ContactDetail { contact, lists }))
    }
}

fn default_page() -> i64 {
    1
}

fn default_page_size() -> i64 {
    50
}
