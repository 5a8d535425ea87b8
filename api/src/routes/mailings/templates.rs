//! Mailing templates: reusable bodies for the mailing editor.

use super::{required, Created};
use crate::auth::{ClientAuth, Needs};
use crate::error::ApiError;
use crate::routes::{ApiTags, Deleted};
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct TemplatesApi;

#[derive(Debug, Object)]
pub struct MailingTemplate {
    pub id: i64,
    pub name: String,
    #[oai(rename = "bodyHtml")]
    pub body_html: String,
    pub created: DateTime<Utc>,
    pub updated: DateTime<Utc>,
}

#[derive(Debug, Object)]
pub struct TemplateInput {
    #[oai(nullable, validator(max_length = 200))]
    pub name: Option<String>,
    #[oai(nullable, rename = "bodyHtml", validator(max_length = 500000))]
    pub body_html: Option<String>,
}

impl From<store::templates::Template> for MailingTemplate {
    fn from(t: store::templates::Template) -> Self {
        Self {
            id: t.id,
            name: t.name,
            body_html: t.body_html,
            created: t.created,
            updated: t.updated,
        }
    }
}

#[OpenApi(tag = "ApiTags::Mailings")]
impl TemplatesApi {
    /// Templates, newest first.
    #[oai(
        path = "/api/crm-mailing-template",
        method = "get",
        operation_id = "listMailingTemplates"
    )]
    async fn templates(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<MailingTemplate>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                Ok(store::templates::templates(tx).await?)
            })
            .await?;
        let rows: Vec<MailingTemplate> = rows.into_iter().map(Into::into).collect();
        Ok(Json(rows))
    }

    #[oai(
        path = "/api/crm-mailing-template",
        method = "post",
        operation_id = "createMailingTemplate"
    )]
    async fn create_template(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        input: Json<TemplateInput>,
    ) -> Result<Created<MailingTemplate>, ApiError> {
        let name = required(input.0.name.as_deref().unwrap_or(""), "Template name")?;
        let body_html = input.0.body_html.unwrap_or_default();
        let row = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                Ok(store::templates::insert(tx, &name, &body_html).await?)
            })
            .await?;
        let row = MailingTemplate::from(row);
        Ok(Created::Created(Json(row)))
    }

    #[oai(
        path = "/api/crm-mailing-template/:id",
        method = "get",
        operation_id = "getMailingTemplate"
    )]
    async fn template(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<MailingTemplate>, ApiError> {
        let row = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                Ok(store::templates::template(tx, id.0).await?)
            })
            .await?
            .map(MailingTemplate::from)
            .ok_or_else(|| ApiError::NotFound("Template not found".to_owned()))?;
        Ok(Json(row))
    }

    #[oai(
        path = "/api/crm-mailing-template/:id",
        method = "patch",
        operation_id = "updateMailingTemplate"
    )]
    async fn update_template(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        input: Json<TemplateInput>,
    ) -> Result<Json<MailingTemplate>, ApiError> {
        let name = input
            .0
            .name
            .as_deref()
            .map(|n| required(n, "Template name"))
            .transpose()?;
        let body_html = input.0.body_html;
        let row = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                let name = name.as_deref();
                Ok(store::templates::update(tx, id.0, name, body_html.as_deref()).await?)
            })
            .await?
            .map(MailingTemplate::from)
            .ok_or_else(|| ApiError::NotFound("Template not found".to_owned()))?;
        Ok(Json(row))
    }

    #[oai(
        path = "/api/crm-mailing-template/:id",
        method = "delete",
        operation_id = "deleteMailingTemplate"
    )]
    async fn delete_template(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Deleted, ApiError> {
        crate::routes::delete_by_id(
            &state,
            &auth.0.client,
            "mailing_templates",
            id.0,
            "Template not found",
        )
        .await
    }
}
