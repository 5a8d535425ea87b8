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
use crate::auth::{ClientAuth, Needs, PAGE_CONTACTS};
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

#[OpenApi(tag = "ApiTags::Forms")]
impl FormsApi {
    /// All forms of the current client, newest first.
    #[oai(path = "/api/crm-form", method = "get", operation_id = "listCrmForms")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<Form>>, ApiError> {
        let forms = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                edit::list_forms(tx).await
            })
            .await?;
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
        edit::check_enabled(input.0.enabled.unwrap_or(true), &body_html)?;
        let choice = origin_choice(&input.0)?;
        let form = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                let new = store::forms::NewForm {
                    name,
                    origin_code_id: origin_code_id(tx, choice).await?,
                    redirect_url,
                    body_html,
                    enabled: input.0.enabled.unwrap_or(true),
                    style: style.into(),
                };
                let id = store::forms::insert(tx, new).await?;
                fetch_form(tx, id).await
            })
            .await?;
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
        let form = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                fetch_form(tx, id.0).await
            })
            .await?;
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
        let form = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                let change = store::forms::FormChange {
                    name,
                    origin_code_id: origin_code_id(tx, choice).await?,
                    redirect_url,
                    body_html,
                    enabled: input.0.enabled,
                    style: style.map(Into::into),
                };
                if !store::forms::update(tx, id.0, change).await? {
                    return Err(ApiError::NotFound("Form not found".to_owned()));
                }
                let form = fetch_form(tx, id.0).await?;
                // Checked on the saved row: enabling keeps the stored body, a new body keeps the stored switch.
                edit::check_enabled(form.enabled, &form.body_html)?;
                Ok(form)
            })
            .await?;
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
        auth.0.check(PAGE_CONTACTS)?;
        let filter: SignupFilter = match filter.0.as_deref() {
            Some(raw) if !raw.trim().is_empty() => serde_json::from_str(raw)
                .map_err(|e| ApiError::BadRequest(format!("Invalid filter: {e}")))?,
            _ => SignupFilter::default(),
        };
        let limit = filter.limit.unwrap_or(100).clamp(1, 1000);
        let rows = auth
            .0
            .tx(&state, PAGE_CONTACTS, async |tx| {
                let email = filter.email.as_deref();
                Ok(store::forms::signups(tx, filter.form_id, email, limit).await?)
            })
            .await?;
        Ok(Json(rows.into_iter().map(ExternalSignup::from).collect()))
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
        let row = auth
            .0
            .tx(&state, PAGE_CONTACTS, async |tx| {
                Ok(store::forms::signup(tx, id.0).await?)
            })
            .await?
            .map(ExternalSignup::from)
            .ok_or_else(|| ApiError::NotFound("Signup not found".to_owned()))?;
        Ok(Json(row))
    }
}
