//! Uploads that become import jobs: files into new CRM lists, NGP saved lists, and column-mapped contact files.
//! The file is stored in the client's schema in 1 MB chunks, then a job is queued; the answer is the job.

use super::ApiTags;
use crate::auth::{ClientAuth, Needs, PAGE_CONTACTS};
use crate::error::ApiError;
use crate::schemas::JobAccepted;
use crate::state::SharedState;
use jobs::import::{Columns, Field, ImportPlan};
use jobs::JobKind;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::types::multipart::Upload;
use poem_openapi::{Multipart, Object, OpenApi};
use tenancy::TenantTx;

pub struct ImportsApi;

#[derive(Debug, Multipart)]
pub struct FileUpload {
    /// .csv, .xls or .xlsx (NGP imports also take tab-separated .txt)
    pub file: Upload,
}

#[derive(Debug, Multipart)]
pub struct MappedUpload {
    pub file: Upload,
    /// JSON object: file column header → field id (see GET /api/imports/fields/).
    #[oai(validator(pattern = "^[^\\x00]*$"))]
    pub mapping: String,
    /// Origin code name for contacts created by this import.
    #[oai(rename = "originCode", validator(pattern = "^[^\\x00]*$"))]
    pub origin_code: Option<String>,
}

/// A field a file column can be mapped to.
#[derive(Debug, Object)]
pub struct ImportField {
    pub id: String,
    pub label: String,
}

fn flag(value: &Option<String>) -> bool {
    matches!(
        value.as_deref().map(str::trim),
        Some("1" | "true" | "yes" | "on")
    )
}

async fn origin_code_id(tx: &mut TenantTx, name: Option<&str>) -> Result<Option<i64>, ApiError> {
    let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) else {
        return Ok(None);
    };
    if name.chars().count() > 200 {
        return Err(ApiError::BadRequest("Origin code is too long".to_owned()));
    }
    Ok(Some(store::origin_codes::get_or_create(tx, name).await?.id))
}

#[OpenApi(tag = "ApiTags::Lists")]
impl ImportsApi {
    /// Uploads a file into a new CRM list; the import runs as a job, which creates the list when it succeeds.
    #[oai(
        path = "/api/crm-list/upload",
        method = "post",
        operation_id = "uploadCrmList"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn upload_list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        name: Query<String>,
        #[oai(name = "originCode")] origin_code: Query<Option<String>>,
        #[oai(name = "createNewContacts")] create_new_contacts: Query<Option<String>>,
        #[oai(name = "overwriteOriginCode")] overwrite_origin_code: Query<Option<String>>,
        body: FileUpload,
    ) -> Result<JobAccepted, ApiError> {
        // It creates contacts and may overwrite their origin codes, like the other two imports.
        auth.0.check(PAGE_CONTACTS)?;
        let list_name = domain::ListName::parse(&name.0)?.into_string();
        let row = auth
            .0
            .enqueue(&state, Needs::Nothing, async |tx| {
                // Refused now rather than when the job runs: the user is still on the form.
                if store::lists::name_taken(tx, &list_name).await? {
                    return Err(ApiError::Conflict(
                        "A list with this name already exists".to_owned(),
                    ));
                }
                let (upload_id, filename) = crate::uploads::store(tx, body.file, false).await?;
                let code = origin_code_id(tx, origin_code.0.as_deref()).await?;
                Ok(JobKind::ListUpload(ImportPlan {
                    upload_id,
                    filename,
                    columns: Columns::Contacts,
                    list_name: Some(list_name),
                    origin_code_id: code,
                    create_new_contacts: flag(&create_new_contacts.0),
                    overwrite_origin_code: flag(&overwrite_origin_code.0),
                    days: None,
                }))
            })
            .await?;
        Ok(JobAccepted::Accepted(Json(row.into())))
    }

    /// Imports an NGP saved list (VANID, First, Last, Date Created, OriginCodeName, PreferredEmail); with
    /// `days`, only contacts created within that many days.
    #[oai(
        path = "/api/contacts/ngp-import",
        method = "post",
        operation_id = "importNgpList"
    )]
    async fn ngp_import(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        #[oai(validator(minimum(value = "1"), maximum(value = "36500")))] days: Query<Option<i64>>,
        body: FileUpload,
    ) -> Result<JobAccepted, ApiError> {
        let row = auth
            .0
            .enqueue(&state, PAGE_CONTACTS, async |tx| {
                let (upload_id, filename) = crate::uploads::store(tx, body.file, true).await?;
                Ok(JobKind::NgpImport(ImportPlan {
                    upload_id,
                    filename,
                    columns: Columns::Ngp,
                    list_name: None,
                    origin_code_id: None,
                    create_new_contacts: true,
                    overwrite_origin_code: false,
                    days: days.0,
                }))
            })
            .await?;
        Ok(JobAccepted::Accepted(Json(row.into())))
    }

    /// The fields a file column can be mapped to.
    #[oai(
        path = "/api/imports/fields",
        method = "get",
        operation_id = "listImportFields"
    )]
    async fn fields(&self, _auth: ClientAuth) -> Result<Json<Vec<ImportField>>, ApiError> {
        // The answer holds no client data, but the token is checked all the same: its 401 is declared.
        Ok(Json(
            Field::ALL
                .into_iter()
                .map(|f| ImportField {
                    id: f.id().to_owned(),
                    label: f.label().to_owned(),
                })
                .collect(),
        ))
    }

    /// Imports contacts from a file whose columns the user mapped to fields.
    #[oai(
        path = "/api/imports/contacts",
        method = "post",
        operation_id = "importContacts"
    )]
    async fn import_contacts(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: MappedUpload,
    ) -> Result<JobAccepted, ApiError> {
        auth.0.check(PAGE_CONTACTS)?;
        let mapping = crate::uploads::column_mapping(
            &body.mapping,
            Field::from_id,
            Field::label,
            &[Field::Email],
        )?;
        let row = auth
            .0
            .enqueue(&state, Needs::Nothing, async |tx| {
                let (upload_id, filename) = crate::uploads::store(tx, body.file, true).await?;
                let code = origin_code_id(tx, body.origin_code.as_deref()).await?;
                Ok(JobKind::ContactImport(ImportPlan {
                    upload_id,
                    filename,
                    columns: Columns::Mapped { mapping },
                    list_name: None,
                    origin_code_id: code,
                    create_new_contacts: true,
                    overwrite_origin_code: false,
                    days: None,
                }))
            })
            .await?;
        Ok(JobAccepted::Accepted(Json(row.into())))
    }
}
