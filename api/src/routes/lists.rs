use super::{ApiTags, Deleted};
use crate::auth::{ClientAuth, Needs, PAGE_CONTACTS};
use crate::error::ApiError;
use crate::schemas::OriginCode;
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use futures_util::TryStreamExt;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};
use tenancy::TenantTx;

pub struct ListsApi;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum ListKind {
    /// Members are the contacts whose origin code is one of the list's codes.
    Query,
    /// Members were uploaded from a file.
    Upload,
}

#[derive(Debug, Object)]
pub struct CrmList {
    pub id: i64,
    pub name: String,
    pub count: i32,
    pub created: DateTime<Utc>,
    pub kind: ListKind,
    #[oai(rename = "originCodes")]
    pub origin_codes: Vec<OriginCode>,
}

#[derive(Debug, Object)]
pub struct CreateCrmList {
    /// 1 to 200 characters.
    pub name: String,
    /// Origin code ids; the list holds the contacts with any of them.
    #[oai(rename = "originCodes", validator(max_items = 500))]
    pub origin_codes: Vec<i64>,
}

#[derive(ApiResponse)]
pub enum Created {
    #[oai(status = 201)]
    Created(Json<CrmList>),
}

#[derive(ApiResponse)]
pub enum CsvDownload {
    /// The members as CSV: Email, First, Last, Origin code. Streamed as the rows are read.
    #[oai(status = 200, content_type = "text/csv; charset=utf-8")]
    Csv(
        crate::csv_stream::StreamedText,
        #[oai(header = "Content-Disposition")] String,
    ),
}

impl From<store::lists::List> for CrmList {
    fn from(row: store::lists::List) -> Self {
        Self {
            id: row.id,
            name: row.name,
            count: row.count,
            created: row.created,
            kind: if row.kind == "upload" {
                ListKind::Upload
            } else {
                ListKind::Query
            },
            origin_codes: row
                .origin_codes
                .0
                .into_iter()
                .map(|(id, name)| OriginCode {
                    id,
                    label: name.clone(),
                    name,
                })
                .collect(),
        }
    }
}

/// Lists with their origin codes; `id` filters to one list when given.
async fn fetch_lists(tx: &mut TenantTx, id: Option<i64>) -> Result<Vec<CrmList>, ApiError> {
    let rows = store::lists::lists(tx, id).await?;
    Ok(rows.into_iter().map(CrmList::from).collect())
}

async fn fetch_list(tx: &mut TenantTx, id: i64) -> Result<CrmList, ApiError> {
    fetch_lists(tx, Some(id))
        .await?
        .pop()
        .ok_or_else(|| ApiError::NotFound("List not found".to_owned()))
}

#[OpenApi(tag = "ApiTags::Lists")]
impl ListsApi {
    /// All CRM lists of the current client, newest first.
    #[oai(path = "/api/crm-list", method = "get", operation_id = "listCrmLists")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<CrmList>>, ApiError> {
        let lists = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                fetch_lists(tx, None).await
            })
            .await?;
        Ok(Json(lists))
    }

    /// Creates a query list: the contacts whose origin code is one of `originCodes`. Its count is computed now.
    #[oai(
        path = "/api/crm-list",
        method = "post",
        operation_id = "createCrmList"
    )]
    async fn create(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: Json<CreateCrmList>,
    ) -> Result<Created, ApiError> {
        let name = domain::ListName::parse(&body.0.name)?;
        let name = name.as_str();
        if body.0.origin_codes.is_empty() {
            return Err(ApiError::BadRequest(
                "Choose at least one origin code".to_owned(),
            ));
        }
        let list = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                let mut wanted = body.0.origin_codes.clone();
                wanted.sort_unstable();
                wanted.dedup();
                let known = store::origin_codes::known(tx, &body.0.origin_codes).await?;
                if known != wanted.len() as i64 {
                    return Err(ApiError::BadRequest("Unknown origin code".to_owned()));
                }
                let id = store::lists::insert_query_list(tx, name, &wanted).await?;
                store::lists::refresh_count(tx, id).await?;
                fetch_list(tx, id).await
            })
            .await?;
        Ok(Created::Created(Json(list)))
    }

    /// One list.
    #[oai(
        path = "/api/crm-list/:id",
        method = "get",
        operation_id = "getCrmList"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<CrmList>, ApiError> {
        let list = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                fetch_list(tx, id.0).await
            })
            .await?;
        Ok(Json(list))
    }

    /// Deletes a list (its contacts stay).
    #[oai(
        path = "/api/crm-list/:id",
        method = "delete",
        operation_id = "deleteCrmList"
    )]
    async fn delete(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Deleted, ApiError> {
        super::delete_by_id(&state, &auth.0.client, "crm_lists", id.0, "List not found").await
    }

    /// The list's members as CSV.
    #[oai(
        path = "/api/crm-list/:id/download",
        method = "get",
        operation_id = "downloadCrmList"
    )]
    async fn download(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<CsvDownload, ApiError> {
        // CRM pages need no permission, but a list's members are contacts in bulk.
        auth.0.require(PAGE_CONTACTS)?;
        // By hand: the members are read while the body is sent, so the transaction outlives the handler.
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let list = fetch_list(&mut tx, id.0).await?;
        let body = crate::csv_stream::body(
            ["Email", "First", "Last", "Origin code"],
            move |mut sender| async move {
                let mut rows = store::lists::export_rows(&mut tx, id.0);
                while let Some((email, first, last, code)) = rows.try_next().await? {
                    let cells = [email.as_str(), &first, &last, code.as_deref().unwrap_or("")]
                        .map(crate::csv_stream::neutralise_formula);
                    if !sender.row(&cells).await {
                        break;
                    }
                }
                drop(rows);
                tx.commit().await?;
                Ok::<_, ApiError>(sender)
            },
        );
        let file: String = list
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == ' ' || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        Ok(CsvDownload::Csv(
            crate::csv_stream::StreamedText(body),
            format!("attachment; filename=\"{file}.csv\""),
        ))
    }
}
