//! What the forms operations take and answer.

use chrono::{DateTime, Utc};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object};

/// How a form looks on its public page. A null field takes the default style.
#[derive(Debug, Clone, Default, PartialEq, Object)]
pub struct FormStyle {
    /// The submit button's and links' colour, `#rrggbb`.
    #[oai(nullable, rename = "primaryColor", validator(max_length = 7))]
    pub primary_color: Option<String>,
    /// The page's background colour, `#rrggbb`.
    #[oai(nullable, rename = "backgroundColor", validator(max_length = 7))]
    pub background_color: Option<String>,
    /// Shown above the form: an https address, or an uploaded image as a `data:image/…;base64,` URL.
    #[oai(nullable, rename = "logoUrl", validator(max_length = 200000))]
    pub logo_url: Option<String>,
    /// The submit button's label.
    #[oai(nullable, rename = "buttonText", validator(max_length = 100))]
    pub button_text: Option<String>,
}

#[derive(Debug, Object)]
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
    pub style: FormStyle,
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
    /// Replaces the whole style when present (a null field goes back to the default).
    #[oai(nullable)]
    pub style: Option<FormStyle>,
}

/// What the public viewer needs: the cleaned body, its style and where to go afterwards.
#[derive(Debug, Object)]
pub struct FormView {
    pub id: i64,
    pub name: String,
    #[oai(rename = "bodyHtml")]
    pub body_html: String,
    #[oai(nullable)]
    pub redirect_url: Option<String>,
    pub style: FormStyle,
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

#[derive(Debug, Object)]
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

impl From<store::forms::Style> for FormStyle {
    fn from(s: store::forms::Style) -> Self {
        Self {
            primary_color: s.primary_color,
            background_color: s.background_color,
            logo_url: s.logo_url,
            button_text: s.button_text,
        }
    }
}

impl From<FormStyle> for store::forms::Style {
    fn from(s: FormStyle) -> Self {
        Self {
            primary_color: s.primary_color,
            background_color: s.background_color,
            logo_url: s.logo_url,
            button_text: s.button_text,
        }
    }
}

impl From<store::forms::Form> for Form {
    fn from(f: store::forms::Form) -> Self {
        Self {
            id: f.id,
            name: f.name,
            body_html: f.body_html,
            enabled: f.enabled,
            external_origin_code_id: f.origin_code_id,
            origin_code_name: f.origin_code_name,
            redirect_url: f.redirect_url,
            submission_count: f.submission_count,
            submissions: f.submission_count,
            view_count: f.view_count,
            style: f.style.into(),
            created: f.created,
            updated: f.updated,
        }
    }
}

impl From<store::forms::Signup> for ExternalSignup {
    fn from(s: store::forms::Signup) -> Self {
        Self {
            id: s.id,
            form_id: s.form_id,
            form_name: s.form_name,
            contact_id: s.contact_id,
            email: s.email,
            origin_code_id: s.origin_code_id,
            origin_code_name: s.origin_code_name,
            referrer: s.referrer,
            created: s.created,
        }
    }
}

/// The JSON query filter of `GET /api/external-signup`.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SignupFilter {
    pub form_id: Option<i64>,
    pub email: Option<String>,
    pub limit: Option<i64>,
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
