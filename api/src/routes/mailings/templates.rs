//! Mailing templates: reusable bodies for the mailing editor.

use super::{required, Created};
use crate::auth::ClientAuth;
use crate::error::ApiError;
use crate::routes::{ApiTags, Deleted};
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

pub struct TemplatesApi;

#[derive(Debug, Object, sqlx::FromRow)]
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
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let rows = sqlx::query_as::<_, MailingTemplate>(
            "select id, name, body_html, created, updated from mailing_templates order by created desc, id desc",
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
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
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let row = sqlx::query_as::<_, MailingTemplate>(
            "insert into mailing_templates (name, body_html) values ($1, $2)
             returning id, name, body_html, created, updated",
        )
        .bind(name)
        .bind(input.0.body_html.unwrap_or_default())
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
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
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let row = sqlx::query_as::<_, MailingTemplate>(
            "select id, name, body_html, created, updated from mailing_templates where id = $1",
        )
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| ApiError::NotFound("Template not found".to_owned()))?;
        tx.commit().await?;
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
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let row = sqlx::query_as::<_, MailingTemplate>(
            "update mailing_templates set name = coalesce($2, name), body_html = coalesce($3, body_html),
                    updated = now()
             where id = $1 returning id, name, body_html, created, updated",
        )
        .bind(id.0)
        .bind(name)
        .bind(input.0.body_html)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| ApiError::NotFound("Template not found".to_owned()))?;
        tx.commit().await?;
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
