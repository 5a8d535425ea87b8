//! Lead-capture forms: staff edit them under `/api/crm-form`; visitors load, view and submit them through the
//! public endpoints, which resolve the client from the `client-short` header and need no sign-in.

use super::{ApiTags, Deleted};
use crate::auth::{ClientAuth, PAGE_CONTACTS};
use crate::error::ApiError;
use crate::public::Action;
use crate::sanitize::{clean_html, DEFAULT_FORM_BODY};
use crate::state::SharedState;
use chrono::{DateTime, Utc};
use domain::Email;
use poem::web::Data;
use poem::Request;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};
use tenancy::TenantTx;

pub struct FormsApi;

const MAX_BODY_HTML: usize = 200_000;

#[derive(Debug, Object, sqlx::FromRow)]
pub struct Form {
    pub id: i64,
    pub name: String,
    #[oai(rename = "bodyHtml")]
    pub body_html: String,
    pub enabled: bool,
    #[oai(nullable, rename = "externalOriginCodeId")]
    pub external_origin_code_id: Option<i64>,
    #[oai(nullable, rename = "originCodeName")]
    pub origin_code_name: Option<String>,
    #[oai(nullable)]
    pub redirect_url: Option<String>,
    #[oai(rename = "submissionCount")]
    pub submission_count: i64,
    /// Same as submissionCount (the spec names both).
    pub submissions: i64,
    #[oai(rename = "viewCount")]
    pub view_count: i64,
    pub created: DateTime<Utc>,
    pub updated: DateTime<Utc>,
}

/// Fields of a form; absent fields keep their value on PATCH.
#[derive(Debug, Object)]
pub struct FormInput {
    #[oai(nullable, validator(max_length = 200))]
    pub name: Option<String>,
    #[oai(nullable, rename = "externalOriginCodeId")]
    pub external_origin_code_id: Option<i64>,
    /// A new origin code for the form, by name (or an existing one of that name): created in the same
    /// transaction as the form, so a refused save leaves no code behind. Instead of externalOriginCodeId.
    #[oai(nullable, rename = "originCodeName", validator(max_length = 200))]
    pub origin_code_name: Option<String>,
    /// http(s) address the visitor goes to after submitting; empty for a thank-you message.
    #[oai(nullable, validator(max_length = 2000))]
    pub redirect_url: Option<String>,
    #[oai(nullable, rename = "bodyHtml")]
    pub body_html: Option<String>,
    #[oai(nullable)]
    pub enabled: Option<bool>,
}

/// What the public viewer needs: the cleaned body and where to go afterwards.
#[derive(Debug, Object)]
pub struct FormView {
    pub id: i64,
    pub name: String,
    #[oai(rename = "bodyHtml")]
    pub body_html: String,
    #[oai(nullable)]
    pub redirect_url: Option<String>,
}

#[derive(Debug, Object)]
pub struct Submission {
    #[oai(validator(max_length = 320))]
    pub email: String,
    /// Honeypot: hidden from people, filled in by bots. A submission that fills it is dropped silently.
    #[oai(nullable, validator(max_length = 500))]
    pub website: Option<String>,
}

#[derive(Debug, Object)]
pub struct SubmissionResult {
    pub message: String,
    #[oai(nullable)]
    pub redirect_url: Option<String>,
}

#[derive(Debug, Object, sqlx::FromRow)]
pub struct ExternalSignup {
    pub id: i64,
    #[oai(nullable, rename = "formId")]
    pub form_id: Option<i64>,
    #[oai(nullable, rename = "formName")]
    pub form_name: Option<String>,
    #[oai(rename = "contactId")]
    pub contact_id: i64,
    pub email: String,
    #[oai(nullable, rename = "originCodeId")]
    pub origin_code_id: Option<i64>,
    #[oai(nullable, rename = "originCodeName")]
    pub origin_code_name: Option<String>,
    #[oai(nullable)]
    pub referrer: Option<String>,
    pub created: DateTime<Utc>,
}

/// The JSON query filter of `GET /api/external-signup`.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SignupFilter {
    form_id: Option<i64>,
    email: Option<String>,
    limit: Option<i64>,
}

#[derive(ApiResponse)]
pub enum FormCreated {
    #[oai(status = 201)]
    Created(Json<Form>),
}

#[derive(ApiResponse)]
pub enum NoContent {
    #[oai(status = 204)]
    Done,
}

macro_rules! form_select {
    () => {
        "select f.id, f.name, f.body_html, f.enabled, f.origin_code_id as external_origin_code_id,
                o.name as origin_code_name, f.redirect_url,
                (select count(*) from external_signups s where s.form_id = f.id) as submission_count,
                (select count(*) from external_signups s where s.form_id = f.id) as submissions,
                f.view_count, f.created, f.updated
         from forms f left join origin_codes o on o.id = f.origin_code_id "
    };
}

macro_rules! signup_select {
    () => {
        "select s.id, s.form_id, f.name as form_name, s.contact_id, s.email, s.origin_code_id,
                o.name as origin_code_name, s.referrer, s.created
         from external_signups s left join forms f on f.id = s.form_id
         left join origin_codes o on o.id = s.origin_code_id "
    };
}

async fn fetch_form(tx: &mut TenantTx, id: i64) -> Result<Form, ApiError> {
    sqlx::query_as::<_, Form>(concat!(form_select!(), "where f.id = $1"))
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| ApiError::NotFound("Form not found".to_owned()))
}

/// `Some(None)` clears the redirect; only http(s) addresses are kept.
fn redirect(raw: &Option<String>) -> Result<Option<Option<String>>, ApiError> {
    let Some(raw) = raw else { return Ok(None) };
    let url = raw.trim();
    if url.is_empty() {
        return Ok(Some(None));
    }
    let lower = url.to_ascii_lowercase();
    let ok = (lower.starts_with("https://") || lower.starts_with("http://"))
        && url.len() > "https://".len()
        && !url
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '"' || c == '<' || c == '>');
    if !ok {
        return Err(ApiError::BadRequest(
            "Redirect URL must start with http:// or https://".to_owned(),
        ));
    }
    Ok(Some(Some(url.to_owned())))
}

fn body(raw: &Option<String>) -> Result<Option<String>, ApiError> {
    match raw {
        Some(html) if html.len() > MAX_BODY_HTML => {
            Err(ApiError::BadRequest("The form body is too long".to_owned()))
        }
        Some(html) => Ok(Some(clean_html(html))),
        None => Ok(None),
    }
}

/// The origin code a save asks for: an existing one by id, or one by name.
enum OriginChoice<'a> {
    Unchanged,
    Existing(i64),
    Named(&'a str),
}

/// Checked before anything is written, so a refused save changes nothing.
fn origin_choice(input: &FormInput) -> Result<OriginChoice<'_>, ApiError> {
    let name = input
        .origin_code_name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty());
    match (input.external_origin_code_id, name) {
        (Some(_), Some(_)) => Err(ApiError::BadRequest(
            "Choose an existing origin code or name a new one, not both".to_owned(),
        )),
        (Some(id), None) => Ok(OriginChoice::Existing(id)),
        (None, Some(name)) => Ok(OriginChoice::Named(name)),
        (None, None) => Ok(OriginChoice::Unchanged),
    }
}

/// The id of the chosen origin code; a named one is created in the save's transaction.
async fn origin_code_id(
    tx: &mut TenantTx,
    choice: OriginChoice<'_>,
) -> Result<Option<i64>, ApiError> {
    match choice {
        OriginChoice::Unchanged => Ok(None),
        OriginChoice::Existing(id) => {
            let known: bool =
                sqlx::query_scalar("select exists (select 1 from origin_codes where id = $1)")
                    .bind(id)
                    .fetch_one(&mut **tx)
                    .await?;
            if known {
                Ok(Some(id))
            } else {
                Err(ApiError::BadRequest("Unknown origin code".to_owned()))
            }
        }
        OriginChoice::Named(name) => Ok(Some(
            sqlx::query_scalar(
                "insert into origin_codes (name) values ($1)
                 on conflict (name) do update set name = excluded.name returning id",
            )
            .bind(name)
            .fetch_one(&mut **tx)
            .await?,
        )),
    }
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
        let forms = sqlx::query_as::<_, Form>(concat!(
            form_select!(),
            "order by f.created desc, f.id desc"
        ))
        .fetch_all(&mut *tx)
        .await?;
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
        let choice = origin_choice(&input.0)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let origin_code_id = origin_code_id(&mut tx, choice).await?;
        let id: i64 = sqlx::query_scalar(
            "insert into forms (name, origin_code_id, redirect_url, body_html, enabled) values ($1, $2, $3, $4, $5)
             returning id",
        )
        .bind(name)
        .bind(origin_code_id)
        .bind(redirect_url)
        .bind(body_html)
        .bind(input.0.enabled.unwrap_or(true))
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
        let choice = origin_choice(&input.0)?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let origin_code_id = origin_code_id(&mut tx, choice).await?;
        let changed = sqlx::query(
            "update forms set name = coalesce($2, name), origin_code_id = coalesce($3, origin_code_id),
                    redirect_url = case when $4 then $5 else redirect_url end,
                    body_html = coalesce($6, body_html), enabled = coalesce($7, enabled), updated = now()
             where id = $1",
        )
        .bind(id.0)
        .bind(name)
        .bind(origin_code_id)
        .bind(redirect_url.is_some())
        .bind(redirect_url.flatten())
        .bind(body_html)
        .bind(input.0.enabled)
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
        let client = state.public.client(&state.tenancy, &client_short.0).await?;
        let mut tx = state.tenancy.begin(&client).await?;
        let form: Option<(i64, String, String, Option<String>)> = sqlx::query_as(
            "select id, name, body_html, redirect_url from forms where id = $1 and enabled",
        )
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        let (id, name, body_html, redirect_url) =
            form.ok_or_else(|| ApiError::NotFound("This form is not available".to_owned()))?;
        // Cleaned again on the way out: a body stored before a sanitizer fix is still made safe.
        Ok(Json(FormView {
            id,
            name,
            body_html: clean_html(&body_html),
            redirect_url,
        }))
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
        state
            .public
            .check_rate(&state.limits, remote_ip(req), Action::View)
            .await?;
        let client = state.public.client(&state.tenancy, &client_short.0).await?;
        if !state
            .public
            .form_enabled(&state.tenancy, &client, id.0)
            .await?
        {
            return Err(ApiError::NotFound("This form is not available".to_owned()));
        }
        state.public.count_view(client.id, id.0)?;
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
        state
            .public
            .check_rate(&state.limits, remote_ip(req), Action::Submit)
            .await?;
        let client = state.public.client(&state.tenancy, &client_short.0).await?;
        let thanks = "Thank you for signing up.".to_owned();
        if body
            .0
            .website
            .as_deref()
            .is_some_and(|w| !w.trim().is_empty())
        {
            tracing::info!(client = %client.short_name, form = id.0, "honeypot submission dropped");
            return Ok(Json(SubmissionResult {
                message: thanks,
                redirect_url: None,
            }));
        }
        let email = Email::parse(&body.0.email)
            .map_err(|_| ApiError::BadRequest("Enter a valid email address".to_owned()))?;
        let referrer: Option<String> = req
            .headers()
            .get("referer")
            .and_then(|v| v.to_str().ok())
            .map(|r| r.chars().take(1000).collect());
        let redirect_url = state
            .signups
            .submit(client, id.0, email, referrer)
            .await?
            .ok_or_else(|| ApiError::NotFound("This form is not available".to_owned()))?;
        Ok(Json(SubmissionResult {
            message: thanks,
            redirect_url,
        }))
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

fn remote_ip(req: &Request) -> Option<std::net::IpAddr> {
    req.remote_addr().as_socket_addr().map(|a| a.ip())
}
