use super::ApiTags;
use crate::auth::{ClientAuth, PAGE_CONTACTS};
use crate::error::ApiError;
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

use store::contacts::{self as search, Cursor};

pub struct ContactsApi;

#[derive(Debug, Object)]
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

#[derive(Debug, Object)]
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

impl From<store::contacts::Contact> for Contact {
    fn from(c: store::contacts::Contact) -> Self {
        Self {
            id: c.id,
            email: c.email,
            first_name: c.first_name,
            last_name: c.last_name,
            phone: c.phone,
            vanid: c.vanid,
            subscription: c.subscription,
            origin_code_id: c.origin_code_id,
            origin_code_name: c.origin_code_name,
            created: c.created,
        }
    }
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
    #[allow(clippy::too_many_arguments)]
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
        /// Only contacts with this origin code.
        #[oai(name = "originCodeId")]
        origin_code_id: Query<Option<i64>>,
        /// Only contacts in this state: subscribed, unsubscribed or bounced.
        subscription: Query<Option<String>>,
        /// Only contacts created on or after this day (client zone).
        #[oai(name = "createdFrom")]
        created_from: Query<Option<chrono::NaiveDate>>,
        /// Only contacts created on or before this day (client zone).
        #[oai(name = "createdTo")]
        created_to: Query<Option<chrono::NaiveDate>>,
    ) -> Result<Json<ContactPage>, ApiError> {
        auth.0.check(PAGE_CONTACTS)?;
        let term = q.0.as_deref().map(str::trim).unwrap_or("");
        let after = match after.0.as_deref() {
            None | Some("") => None,
            Some(text) => Some(
                Cursor::parse(text)
                    .ok_or_else(|| ApiError::BadRequest("after: not a page cursor".to_owned()))?,
            ),
        };
        let subscription = match subscription.0.as_deref() {
            None | Some("") => None,
            Some(word) => Some(
                domain::SubscriptionStatus::parse(word)
                    .ok_or_else(|| {
                        ApiError::BadRequest(
                            "subscription: subscribed, unsubscribed or bounced".to_owned(),
                        )
                    })?
                    .as_str()
                    .to_owned(),
            ),
        };
        let narrow = search::Narrow {
            origin_code_id: origin_code_id.0,
            subscription,
            created_from: created_from.0,
            created_to: created_to.0,
        };
        let search = search::Search::new(term, after, narrow);
        let ((total, total_estimated), mut rows) = auth
            .0
            .tx(&state, PAGE_CONTACTS, async |tx| {
                let total = search.total(tx).await?;
                let rows = search
                    .page(tx, page_size.0 + 1, (page.0 - 1) * page_size.0)
                    .await?;
                Ok((total, rows))
            })
            .await?;
        let next = if rows.len() as i64 > page_size.0 {
            rows.truncate(page_size.0 as usize);
            rows.last().map(|c| Cursor::of(c).to_string())
        } else {
            None
        };
        let items = rows.into_iter().map(Contact::from).collect();
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
        let (contact, lists) = auth
            .0
            .tx(&state, PAGE_CONTACTS, async |tx| {
                let contact = store::contacts::contact(tx, id.0)
                    .await?
                    .ok_or_else(|| ApiError::NotFound("Contact not found".to_owned()))?;
                let lists = store::contacts::lists_of(tx, id.0, contact.origin_code_id).await?;
                Ok((contact, lists))
            })
            .await?;
        let contact = Contact::from(contact);
        let lists = lists
            .into_iter()
            .map(|(id, name)| ListRef { id, name })
            .collect();
        Ok(Json(ContactDetail { contact, lists }))
    }
}

fn default_page() -> i64 {
    1
}

fn default_page_size() -> i64 {
    50
}
