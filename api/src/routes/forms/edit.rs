//! Reading and checking what staff save: the form query, redirect, body, origin code and style rules.

use super::dto::{Form, FormInput, FormStyle};
use crate::error::ApiError;
use crate::sanitize::clean_html;
use tenancy::TenantTx;

const MAX_BODY_HTML: usize = 200_000;
const MAX_LOGO_URL: usize = 2000;
/// About 150 kB of image once base64 is decoded: a logo, not a photo album inside every form row.
const MAX_LOGO_DATA: usize = 200_000;
const MAX_BUTTON_TEXT: usize = 100;

pub async fn list_forms(tx: &mut TenantTx) -> Result<Vec<Form>, ApiError> {
    let forms = store::forms::forms(tx).await?;
    Ok(forms.into_iter().map(Form::from).collect())
}

pub async fn fetch_form(tx: &mut TenantTx, id: i64) -> Result<Form, ApiError> {
    store::forms::form(tx, id)
        .await?
        .map(Form::from)
        .ok_or_else(|| ApiError::NotFound("Form not found".to_owned()))
}

/// No spaces, quotes or angle brackets: the address goes into an attribute as it is.
fn plain_url(url: &str) -> bool {
    !url.chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '"' || c == '<' || c == '>')
}

/// `Some(None)` clears the redirect; only http(s) addresses are kept.
pub fn redirect(raw: &Option<String>) -> Result<Option<Option<String>>, ApiError> {
    let Some(raw) = raw else { return Ok(None) };
    let url = raw.trim();
    if url.is_empty() {
        return Ok(Some(None));
    }
    let lower = url.to_ascii_lowercase();
    let ok = (lower.starts_with("https://") || lower.starts_with("http://"))
        && url.len() > "https://".len()
        && plain_url(url);
    if !ok {
        return Err(ApiError::BadRequest(
            "Redirect URL must start with http:// or https://".to_owned(),
        ));
    }
    Ok(Some(Some(url.to_owned())))
}

pub fn body(raw: &Option<String>) -> Result<Option<String>, ApiError> {
    match raw {
        Some(html) if html.len() > MAX_BODY_HTML => {
            Err(ApiError::BadRequest("The form body is too long".to_owned()))
        }
        Some(html) => Ok(Some(clean_html(html))),
        None => Ok(None),
    }
}

/// Why an enabled form is refused: its public page would have nothing to fill in.
pub const NOT_FILLABLE: &str =
    "This form cannot be enabled: its body has no <form> with an e-mail field \
    (an input of type email or named email), so visitors would have nothing to fill in.";

/// Whether a visitor can sign up with `html`: it has a `<form>` and an e-mail field (`type=email` or
/// `name=email`), which the viewer reads the address from. Read as a browser reads it, by lol_html.
pub fn fillable(html: &str) -> bool {
    use lol_html::{element, rewrite_str, RewriteStrSettings};
    let mut form = false;
    let mut email = false;
    let settings = RewriteStrSettings::new()
        .append_element_content_handler(element!("form", |_| {
            form = true;
            Ok(())
        }))
        .append_element_content_handler(element!("input", |el| {
            let is = |name: &str| {
                el.get_attribute(name)
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("email"))
            };
            email |= is("type") || is("name");
            Ok(())
        }));
    rewrite_str(html, settings).is_ok() && form && email
}

/// Refuses an enabled form that cannot be filled in.
pub fn check_enabled(enabled: bool, body_html: &str) -> Result<(), ApiError> {
    if enabled && !fillable(body_html) {
        return Err(ApiError::BadRequest(NOT_FILLABLE.to_owned()));
    }
    Ok(())
}

fn trimmed(raw: &Option<String>) -> Option<&str> {
    raw.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

fn colour(raw: &Option<String>, what: &str) -> Result<Option<String>, ApiError> {
    let Some(value) = trimmed(raw) else {
        return Ok(None);
    };
    let hex = value.strip_prefix('#').unwrap_or("");
    if hex.len() == 6 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
        Ok(Some(value.to_ascii_lowercase()))
    } else {
        Err(ApiError::BadRequest(format!(
            "{what} must be a colour like #1a73e8"
        )))
    }
}

fn logo(raw: &Option<String>) -> Result<Option<String>, ApiError> {
    let Some(url) = trimmed(raw) else {
        return Ok(None);
    };
    if let Some(rest) = ["png", "jpeg", "gif", "webp"]
        .iter()
        .find_map(|kind| url.strip_prefix(&format!("data:image/{kind};base64,")))
    {
        if url.len() > MAX_LOGO_DATA {
            return Err(ApiError::BadRequest(
                "The logo image is too large (at most 150 kB)".to_owned(),
            ));
        }
        let base64 = rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '/' || c == '=');
        if !rest.is_empty() && base64 {
            return Ok(Some(url.to_owned()));
        }
        return Err(ApiError::BadRequest(
            "The logo must be a PNG, JPEG, GIF or WebP image".to_owned(),
        ));
    }
    if url.len() > MAX_LOGO_URL {
        return Err(ApiError::BadRequest("The logo URL is too long".to_owned()));
    }
    let https = url.to_ascii_lowercase().starts_with("https://") && url.len() > "https://".len();
    if https && plain_url(url) {
        Ok(Some(url.to_owned()))
    } else {
        Err(ApiError::BadRequest(
            "The logo URL must start with https://".to_owned(),
        ))
    }
}

/// The style as stored: trimmed, colours in lower case, empty fields back to the default.
pub fn style(raw: &FormStyle) -> Result<FormStyle, ApiError> {
    let button_text = trimmed(&raw.button_text).map(str::to_owned);
    if button_text
        .as_deref()
        .is_some_and(|t| t.chars().count() > MAX_BUTTON_TEXT || t.chars().any(char::is_control))
    {
        return Err(ApiError::BadRequest(
            "The button text must be one line of at most 100 characters".to_owned(),
        ));
    }
    Ok(FormStyle {
        primary_color: colour(&raw.primary_color, "The primary colour")?,
        background_color: colour(&raw.background_color, "The background colour")?,
        logo_url: logo(&raw.logo_url)?,
        button_text,
    })
}

/// The origin code a save asks for: an existing one by id, or one by name.
pub enum OriginChoice<'a> {
    Unchanged,
    Existing(i64),
    Named(&'a str),
}

/// Checked before anything is written, so a refused save changes nothing.
pub fn origin_choice(input: &FormInput) -> Result<OriginChoice<'_>, ApiError> {
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
pub async fn origin_code_id(
    tx: &mut TenantTx,
    choice: OriginChoice<'_>,
) -> Result<Option<i64>, ApiError> {
    match choice {
        OriginChoice::Unchanged => Ok(None),
        OriginChoice::Existing(id) => {
            if store::origin_codes::exists(tx, id).await? {
                Ok(Some(id))
            } else {
                Err(ApiError::BadRequest("Unknown origin code".to_owned()))
            }
        }
        OriginChoice::Named(name) => {
            Ok(Some(store::origin_codes::get_or_create(tx, name).await?.id))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(f: impl FnOnce(&mut FormStyle)) -> Result<FormStyle, ApiError> {
        let mut raw = FormStyle::default();
        f(&mut raw);
        style(&raw)
    }

    #[test]
    fn colours_are_six_hex_digits_and_stored_in_lower_case() {
        let ok = with(|s| s.primary_color = Some(" #1A73E8 ".into())).unwrap();
        assert_eq!(ok.primary_color.as_deref(), Some("#1a73e8"));
        for bad in [
            "1a73e8",
            "#1a73e",
            "#1a73e8f",
            "#gggggg",
            "red",
            "#1a73e8;x",
        ] {
            assert!(
                with(|s| s.background_color = Some(bad.into())).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn logos_are_https_or_small_data_images() {
        assert!(with(|s| s.logo_url = Some("https://cdn.example.org/l.png".into())).is_ok());
        assert!(with(|s| s.logo_url = Some("data:image/png;base64,iVBORw0KGgo=".into())).is_ok());
        for bad in [
            "http://cdn.example.org/l.png",
            "javascript:alert(1)",
            "https://",
            "https://x.org/a b.png",
            "data:image/svg+xml;base64,PHN2Zz4=",
            "data:image/png;base64,<script>",
        ] {
            assert!(with(|s| s.logo_url = Some(bad.into())).is_err(), "{bad}");
        }
        let long = format!("https://x.org/{}", "a".repeat(MAX_LOGO_URL));
        assert!(with(|s| s.logo_url = Some(long)).is_err());
    }

    #[test]
    fn a_form_needs_a_form_element_and_an_email_field() {
        assert!(fillable(crate::sanitize::DEFAULT_FORM_BODY));
        assert!(fillable("<FORM><INPUT NAME=Email></FORM>"));
        assert!(!fillable("<p>Sign up!</p><input type=email>"));
        assert!(!fillable(
            "<form><input type=text name=name><button>Go</button></form>"
        ));
        assert!(!fillable("<p>type=email <form></p>"));
        assert!(check_enabled(false, "<p>Hi</p>").is_ok());
        assert!(check_enabled(true, "<p>Hi</p>").is_err());
    }

    #[test]
    fn empty_fields_go_back_to_the_default() {
        let cleared = with(|s| {
            s.primary_color = Some(" ".into());
            s.button_text = Some("".into());
        })
        .unwrap();
        assert_eq!(cleared, FormStyle::default());
    }
}
