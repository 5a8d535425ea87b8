//! What visitors do without signing in: load a form, count a view, submit an address. The client comes from the
//! `client-short` header.

use super::dto::{FormView, Submission, SubmissionResult};
use crate::auth::in_client;
use crate::error::ApiError;
use crate::public::Action;
use crate::sanitize::clean_html;
use crate::state::SharedState;
use domain::Email;
use poem::Request;

pub async fn form_view(
    state: &SharedState,
    id: i64,
    client_short: &str,
) -> Result<FormView, ApiError> {
    let client = state.public.client(&state.tenancy, client_short).await?;
    let form = in_client(&state.tenancy, &client, async |tx| {
        Ok(store::forms::enabled_form(tx, id).await?)
    })
    .await?;
    let form = form.ok_or_else(|| ApiError::NotFound("This form is not available".to_owned()))?;
    // Cleaned again on the way out: a body stored before a sanitizer fix is still made safe.
    Ok(FormView {
        id: form.id,
        name: form.name,
        body_html: clean_html(&form.body_html),
        redirect_url: form.redirect_url,
        style: form.style.into(),
    })
}

pub async fn record_view(
    state: &SharedState,
    req: &Request,
    id: i64,
    client_short: &str,
) -> Result<(), ApiError> {
    state
        .public
        .check_rate(&state.limits, remote_ip(req), Action::View)
        .await?;
    let client = state.public.client(&state.tenancy, client_short).await?;
    if !state
        .public
        .form_enabled(&state.tenancy, &client, id)
        .await?
    {
        return Err(ApiError::NotFound("This form is not available".to_owned()));
    }
    state.public.count_view(client.id, id)?;
    Ok(())
}

pub async fn submit(
    state: &SharedState,
    req: &Request,
    id: i64,
    client_short: &str,
    body: Submission,
) -> Result<SubmissionResult, ApiError> {
    state
        .public
        .check_rate(&state.limits, remote_ip(req), Action::Submit)
        .await?;
    let client = state.public.client(&state.tenancy, client_short).await?;
    let thanks = "Thank you for signing up.".to_owned();
    if body
        .website
        .as_deref()
        .is_some_and(|w| !w.trim().is_empty())
    {
        tracing::info!(client = %client.short_name, form = id, "honeypot submission dropped");
        return Ok(SubmissionResult {
            message: thanks,
            redirect_url: None,
        });
    }
    let email = Email::parse(&body.email)
        .map_err(|_| ApiError::BadRequest("Enter a valid email address".to_owned()))?;
    let referrer: Option<String> = req
        .headers()
        .get("referer")
        .and_then(|v| v.to_str().ok())
        .map(|r| r.chars().take(1000).collect());
    let redirect_url = state
        .signups
        .submit(client, id, email, referrer)
        .await?
        .ok_or_else(|| ApiError::NotFound("This form is not available".to_owned()))?;
    Ok(SubmissionResult {
        message: thanks,
        redirect_url,
    })
}

fn remote_ip(req: &Request) -> Option<std::net::IpAddr> {
    req.remote_addr().as_socket_addr().map(|a| a.ip())
}
