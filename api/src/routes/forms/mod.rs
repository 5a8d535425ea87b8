//! Lead-capture forms: staff edit them under `/api/crm-form`; visitors load, view and submit them through the
//! public endpoints, which resolve the client from the `client-short` header and need no sign-in.

mod dto;
mod edit;
mod public;

pub use dto::{
    ExternalSignup, Form, FormCreated, FormInput, FormStyle, FormView, NoContent, Submission,
    SubmissionResult,
};

use super::{ApiTags, Deleted};
use crate::auth::{ClientAuth, PAGE_CONTACTS};
use crate::error::ApiError;
use crate::sanitize::{clean_html, DEFAULT_FORM_BODY};
use crate::state::SharedState;
use dto::SignupFilter;
use edit::{body, fetch_form, origin_choice, origin_code_id, redirect};
use poem::web::Data;
use poem::Request;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;

pub struct FormsApi;

macro_rules! signup_select {
    () => {
        "select s.id, s.form_id, f.name as form_name, s.contact_id, s.email, s.origin_code_id,
                o.name as origin_code_name, s.referrer, s.created
         from external_signups s left join forms f on f.id = s.form_id
         left join origin_codes o on o.id = s.origin_code_id "
    };
}

#[OpenApi(tag = "ApiTags::Forms")]
impl FormsApi {
    /// All forms of the current client, newest first.
    #[oai(path = "/api/crm-form", method = "get", operation_id = "listCrmForms")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<Form>>, ApiError> {
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let forms = edit::list_forms(&mut tx).await?;
        tx.commit().await?;
        Ok(Json(forms))
    }

    /// Creates a form. Without a body it starts with an e-mail field and a submit button.
    #[oai(
        path = "/api/crm-form",
        method = "post",
        operation_id = "createCrmForm"
    )]
    async fn create(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        input: Json<FormInput>,
    ) -> Result<FormCreated, ApiError> {
        let name = input.0.name.as_deref().map(str::trim).unwrap_or("");
        if name.is_empty() {
            return Err(ApiError::BadRequest("Form name is required".to_owned()));
        }
        let redirect_url = redirect(&input.0.redirect_url)?.flatten();
        let body_html = body(&input.0.body_html)?
            .filter(|b| !b.trim().is_empty())
            .unwrap_or_else(|| clean_html(DEFAULT_FORM_BODY));
        let style = edit::style(&input.0.style.clone().unwrap_or_default())?;
        let choice = origin_choice(&input.0)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let origin_code_id = origin_code_id(&mut tx, choice).await?;
        let id: i64 = sqlx::query_scalar(
            "insert into forms (name, origin_code_id, redirect_url, body_html, enabled,
                                primary_color, background_color, logo_url, button_text)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             returning id",
        )
        .bind(name)
        .bind(origin_code_id)
        .bind(redirect_url)
        .bind(body_html)
        .bind(input.0.enabled.unwrap_or(true))
        .bind(style.primary_color)
        .bind(style.background_color)
        .bind(style.logo_url)
        .bind(style.button_text)
        .fetch_one(&mut *tx)
        .await?;
        let form = fetch_form(&mut tx, id).await?;
        tx.commit().await?;
        Ok(FormCreated::Created(Json(form)))
    }

    /// One form.
    #[oai(
        path = "/api/crm-form/:id",
        method = "get",
        operation_id = "getCrmForm"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<Form>, ApiError> {
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let form = fetch_form(&mut tx, id.0).await?;
        tx.commit().await?;
        Ok(Json(form))
    }

    /// Changes the fields sent.
    #[oai(
        path = "/api/crm-form/:id",
        method = "patch",
        operation_id = "updateCrmForm"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        input: Json<FormInput>,
    ) -> Result<Json<Form>, ApiError> {
        let name = input.0.name.as_deref().map(str::trim);
        if name == Some("") {
            return Err(ApiError::BadRequest("Form name is required".to_owned()));
        }
        let redirect_url = redirect(&input.0.redirect_url)?;
        let body_html = body(&input.0.body_html)?;
        let style = input.0.style.as_ref().map(edit::style).transpose()?;
        let choice = origin_choice(&input.0)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let origin_code_id = origin_code_id(&mut tx, choice).await?;
        let changed = sqlx::query(
            "update forms set name = coalesce($2, name), origin_code_id = coalesce($3, origin_code_id),
                    redirect_url = case when $4 then $5 else redirect_url end,
                    body_html = coalesce($6, body_html), enabled = coalesce($7, enabled),
                    primary_color = case when $8 then $9 else primary_color end,
                    background_color = case when $8 then $10 else background_color end,
                    logo_url = case when $8 then $11 else logo_url end,
                    button_text = case when $8 then $12 else button_text end,
                    updated = now()
             where id = $1",
        )
        .bind(id.0)
        .bind(name)
        .bind(origin_code_id)
        .bind(redirect_url.is_some())
        .bind(redirect_url.flatten())
        .bind(body_html)
        .bind(input.0.enabled)
        .bind(style.is_some())
        .bind(style.as_ref().and_then(|s| s.primary_color.as_deref()))
        .bind(style.as_ref().and_then(|s| s.background_color.as_deref()))
        .bind(style.as_ref().and_then(|s| s.logo_url.as_deref()))
        .bind(style.as_ref().and_then(|s| s.button_text.as_deref()))
        .execute(&mut *tx)
        .await?;
        if changed.rows_affected() == 0 {
            return Err(ApiError::NotFound("Form not found".to_owned()));
        }
        let form = fetch_form(&mut tx, id.0).await?;
        tx.commit().await?;
        state.public.forget_form(auth.0.client.id, id.0);
        Ok(Json(form))
    }

    /// Deletes a form; its signups stay, without the form.
    #[oai(
        path = "/api/crm-form/:id",
        method = "delete",
        operation_id = "deleteCrmForm"
    )]
    async fn delete(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Deleted, ApiError> {
        super::delete_by_id(&state, &auth.0.client, "forms", id.0, "Form not found").await?;
        state.public.forget_form(auth.0.client.id, id.0);
        Ok(Deleted::Deleted)
    }

    /// Public: the form for the viewer. Needs the `client-short` header, not a sign-in.
    #[oai(
        path = "/api/crm-form/:id/viewer",
        method = "get",
        operation_id = "viewCrmForm"
    )]
    async fn viewer(
        &self,
        state: Data<&SharedState>,
        id: Path<i64>,
        #[oai(name = "client-short")] client_short: Header<String>,
    ) -> Result<Json<FormView>, ApiError> {
        Ok(Json(
            public::form_view(&state, id.0, &client_short.0).await?,
        ))
    }

    /// Public: records one view of the form.
    #[oai(
        path = "/api/crm-form/:id/view",
        method = "post",
        operation_id = "recordCrmFormView"
    )]
    async fn view(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        id: Path<i64>,
        #[oai(name = "client-short")] client_short: Header<String>,
    ) -> Result<NoContent, ApiError> {
        public::record_view(&state, req, id.0, &client_short.0).await?;
        Ok(NoContent::Done)
    }

    /// Public: a visitor's e-mail. Creates the contact (with the form's origin code) or finds it, and records
    /// the signup.
    #[oai(
        path = "/api/crm-form/:id/submit",
        method = "post",
        operation_id = "submitCrmForm"
    )]
    async fn submit(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        id: Path<i64>,
        #[oai(name = "client-short")] client_short: Header<String>,
        body: Json<Submission>,
    ) -> Result<Json<SubmissionResult>, ApiError> {
        Ok(Json(
            public::submit(&state, req, id.0, &client_short.0, body.0).await?,
        ))
    }

    /// Signups of the current client, newest first. `filter` is JSON: `{"formId": 1, "email": "…", "limit": 50}`.
    #[oai(
        path = "/api/external-signup",
        method = "get",
        operation_id = "listExternalSignups"
    )]
    async fn signups(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        filter: Query<Option<String>>,
    ) -> Result<Json<Vec<ExternalSignup>>, ApiError> {
        // Signups are contacts' addresses: the forms themselves need no permission, their signups do.
        auth.0.require(PAGE_CONTACTS)?;
        let filter: SignupFilter = match filter.0.as_deref() {
            Some(raw) if !raw.trim().is_empty() => serde_json::from_str(raw)
                .map_err(|e| ApiError::BadRequest(format!("Invalid filter: {e}")))?,
            _ => SignupFilter::default(),
        };
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let rows = sqlx::query_as::<_, ExternalSignup>(concat!(
            signup_select!(),
            "where ($1::bigint is null or s.form_id = $1) and ($2::text is null or s.email = lower(btrim($2)))
             order by s.created desc, s.id desc limit $3"
        ))
        .bind(filter.form_id)
        .bind(filter.email)
        .bind(filter.limit.unwrap_or(100).clamp(1, 1000))
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(rows))
    }

    /// One signup.
    #[oai(
        path = "/api/external-signup/:id",
        method = "get",
        operation_id = "getExternalSignup"
    )]
    async fn signup(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<ExternalSignup>, ApiError> {
        auth.0.require(PAGE_CONTACTS)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let row = sqlx::query_as::<_, ExternalSignup>(concat!(signup_select!(), "where s.id = $1"))
            .bind(id.0)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or_else(|| ApiError::NotFound("Signup not found".to_owned()))?;
        tx.commit().await?;
        Ok(Json(row))
    }
}
