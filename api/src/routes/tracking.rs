//! Public tracking and consent endpoints, reached from delivered mail without sign-in. Every link carries a
//! signed token naming the client, mailing and contact; a forged or altered token is refused.

use super::ApiTags;
use crate::auth::in_client;
use crate::error::ApiError;
use crate::state::SharedState;
use crate::tracking::{is_machine, Event};
use mail::links::Recipient;
use poem::web::Data;
use poem::Request;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Binary, Html};
use poem_openapi::{ApiResponse, OpenApi};

pub struct TrackingApi;

/// A transparent 1×1 GIF.
const PIXEL: &[u8] = &[
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xff, 0xff, 0xff, 0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
];

#[derive(ApiResponse)]
pub enum PixelResponse {
    #[oai(status = 200, content_type = "image/gif")]
    Gif(Binary<Vec<u8>>, #[oai(header = "Cache-Control")] String),
}

#[derive(ApiResponse)]
pub enum ClickResponse {
    /// To the link's target.
    #[oai(status = 302)]
    Redirect(#[oai(header = "Location")] String),
}

#[derive(ApiResponse)]
pub enum Page {
    #[oai(status = 200)]
    Ok(Html<String>),
}

fn user_agent(req: &Request) -> Option<&str> {
    req.headers()
        .get("user-agent")
        .and_then(|v| v.to_str().ok())
}

fn page(title: &str, body: &str) -> Page {
    Page::Ok(Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width\"><title>{title}</title></head><body style=\"font-family:sans-serif;\
         max-width:32rem;margin:4rem auto;padding:0 1rem\"><h1 style=\"font-size:1.4rem\">{title}</h1>{body}\
         </body></html>"
    )))
}

async fn unsubscribe(state: &SharedState, r: Recipient) -> Result<(), ApiError> {
    let Some(client) = state.tenancy.enabled_client(r.client_id).await? else {
        return Err(ApiError::NotFound("Link not found".to_owned()));
    };
    // Idempotent: the second click changes nothing and records nothing.
    in_client(&state.tenancy, &client, async |tx| {
        store::contacts::unsubscribe_through_mailing(tx, r.contact_id, r.mailing_id).await?;
        Ok(())
    })
    .await
}

#[OpenApi(tag = "ApiTags::Tracking")]
impl TrackingApi {
    /// Public: the open pixel. Always answers the image; only genuine tokens are counted.
    #[oai(
        path = "/api/track/open/:token",
        method = "get",
        operation_id = "trackOpen"
    )]
    async fn open(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        token: Path<String>,
    ) -> Result<PixelResponse, ApiError> {
        if let Some(recipient) = state.links.verify(&token.0, "open") {
            state.tracking.push(Event {
                recipient,
                kind: "open",
                machine: is_machine(user_agent(req)),
                url: None,
                at: chrono::Utc::now(),
            })?;
        }
        Ok(PixelResponse::Gif(
            Binary(PIXEL.to_vec()),
            "no-store, max-age=0".to_owned(),
        ))
    }

    /// Public: a tracked link. The target is part of the signature, so this cannot redirect anywhere else.
    #[oai(
        path = "/api/track/click/:token",
        method = "get",
        operation_id = "trackClick"
    )]
    async fn click(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        token: Path<String>,
        u: Query<String>,
    ) -> Result<ClickResponse, ApiError> {
        let recipient = state
            .links
            .verify(&token.0, &u.0)
            .ok_or_else(|| ApiError::NotFound("Link not found".to_owned()))?;
        state.tracking.push(Event {
            recipient,
            kind: "click",
            machine: is_machine(user_agent(req)),
            url: Some(u.0.chars().take(2000).collect()),
            at: chrono::Utc::now(),
        })?;
        Ok(ClickResponse::Redirect(u.0))
    }

    /// Public: the unsubscribe page from the link in the body. Asks before acting, so link scanners that
    /// fetch every URL do not unsubscribe anyone.
    #[oai(
        path = "/api/unsubscribe/:token",
        method = "get",
        operation_id = "unsubscribePage"
    )]
    async fn unsubscribe_page(&self, state: Data<&SharedState>, token: Path<String>) -> Page {
        if state.links.verify(&token.0, "unsubscribe").is_none() {
            return page(
                "Link not valid",
                "<p>This unsubscribe link is not valid.</p>",
            );
        }
        page(
            "Unsubscribe",
            "<p>Stop receiving these e-mails?</p><form method=\"post\"><button type=\"submit\" \
             style=\"font-size:1rem;padding:.5rem 1rem\">Unsubscribe</button></form>",
        )
    }

    /// Public: unsubscribes. Serves both the page's button and RFC 8058 one-click
    /// (`List-Unsubscribe=One-Click` posted by the mail client).
    #[oai(
        path = "/api/unsubscribe/:token",
        method = "post",
        operation_id = "unsubscribe"
    )]
    async fn unsubscribe_now(
        &self,
        state: Data<&SharedState>,
        token: Path<String>,
    ) -> Result<Page, ApiError> {
        let recipient = state
            .links
            .verify(&token.0, "unsubscribe")
            .ok_or_else(|| ApiError::NotFound("Link not found".to_owned()))?;
        unsubscribe(&state, recipient).await?;
        Ok(page(
            "You are unsubscribed",
            "<p>You will not receive these e-mails any more.</p>",
        ))
    }
}
