//! Templates, sender identities and mailings. A mailing's status is derived as the spec says: DRAFT while
//! `isDraft`; otherwise SENT once a send attempt exists; otherwise CONFIRMED. Only drafts and never-attempted
//! mailings can be changed.

pub mod audience;
mod dto;
pub mod flights;
mod input;
mod merge_check;
mod query;
mod senders;
mod templates;
mod test_send;

pub use dto::*;
pub use merge_check::{MergeCheck, MergeWarning};
pub use senders::{Sender, SenderInput, SenderOption, SendersApi};
pub use templates::{MailingTemplate, TemplateInput, TemplatesApi};

use super::{ApiTags, Deleted};
use crate::auth::{ClientAuth, Needs, PAGE_SEGMENTS};
use crate::error::ApiError;
use crate::state::SharedState;
use audience::AudienceOption;
use input::{check_refs, preview_text, required};
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;
use query::fetch_mailing;

pub struct MailingsApi;

#[OpenApi(tag = "ApiTags::Mailings")]
impl MailingsApi {
    /// Sends one rendered copy to the signed-in user at once; merge tags take the user's own values.
    #[oai(
        path = "/api/crm-mailing/send-to-my-inbox",
        method = "post",
        operation_id = "sendMailingToMyInbox"
    )]
    async fn send_to_my_inbox(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        input: Json<TestSendInput>,
    ) -> Result<Json<TestSendResult>, ApiError> {
        test_send::send(&state, &auth, &input.0).await.map(Json)
    }

    /// Before Confirm: how many recipients will see each merge tag used without a default blank. `id` is the
    /// saved mailing being confirmed; nothing is saved.
    #[oai(
        path = "/api/crm-mailing/merge-check",
        method = "post",
        operation_id = "checkMailingMergeTags"
    )]
    async fn merge_check(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Query<Option<i64>>,
        input: Json<MailingInput>,
    ) -> Result<Json<MergeCheck>, ApiError> {
        merge_check::check(&state, &auth.0, id.0, &input.0)
            .await
            .map(Json)
    }

    /// The lists and segments a mailing can go to or leave out.
    #[oai(
        path = "/api/crm-mailing/audiences",
        method = "get",
        operation_id = "listMailingAudiences"
    )]
    async fn audiences(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<AudienceOption>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                audience::options(tx).await
            })
            .await?;
        // Segments are the Segments page's: without pageSegments only lists are offered.
        let segments = auth.0.may(&[PAGE_SEGMENTS]);
        Ok(Json(
            rows.into_iter()
                .filter(|o| segments || o.kind != "segment")
                .collect(),
        ))
    }

    /// Mailings, newest first.
    #[oai(
        path = "/api/crm-mailing",
        method = "get",
        operation_id = "listMailings"
    )]
    async fn mailings(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<Mailing>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                query::list_mailings(tx).await
            })
            .await?;
        Ok(Json(
            rows.into_iter().map(|m| m.shown_to(&auth.0)).collect(),
        ))
    }

    /// Saves a draft (`isDraft` true) or confirms a mailing for sending at `sendTime` (`isDraft` false).
    #[oai(
        path = "/api/crm-mailing",
        method = "post",
        operation_id = "createMailing"
    )]
    async fn create_mailing(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        input: Json<MailingInput>,
    ) -> Result<Created<Mailing>, ApiError> {
        let name = required(&input.0.name, "Name")?;
        let subject = required(&input.0.subject_line, "Subject line")?;
        let preview = preview_text(&input.0)?;
        let mailing = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                let audience = check_refs(tx, &input.0, &auth.0).await?;
                let fields = store::mailings::Fields {
                    name: &name,
                    subject_line: &subject,
                    sender_id: input.0.sender_id,
                    send_time: input.0.send_time,
                    list_id: audience.list_id,
                    body_html: &input.0.body_html,
                    is_draft: Some(input.0.is_draft),
                    segment_id: audience.segment_id,
                    preview_text: &preview,
                    respect_cap: input.0.respect_cap.unwrap_or(true),
                };
                let id = store::mailings::insert(tx, &fields).await?;
                audience::save(tx, id, &audience).await?;
                fetch_mailing(tx, id).await
            })
            .await?;
        Ok(Created::Created(Json(mailing.shown_to(&auth.0))))
    }

    #[oai(
        path = "/api/crm-mailing/:id",
        method = "get",
        operation_id = "getMailing"
    )]
    async fn mailing(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<Mailing>, ApiError> {
        let mailing = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                fetch_mailing(tx, id.0).await
            })
            .await?;
        Ok(Json(mailing.shown_to(&auth.0)))
    }

    /// Changes a draft or a confirmed mailing whose send has not started.
    #[oai(
        path = "/api/crm-mailing/:id",
        method = "patch",
        operation_id = "updateMailing"
    )]
    async fn update_mailing(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        input: Json<MailingInput>,
    ) -> Result<Json<Mailing>, ApiError> {
        let name = required(&input.0.name, "Name")?;
        let subject = required(&input.0.subject_line, "Subject line")?;
        let preview = preview_text(&input.0)?;
        let mailing = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                let audience = check_refs(tx, &input.0, &auth.0).await?;
                let fields = store::mailings::Fields {
                    name: &name,
                    subject_line: &subject,
                    sender_id: input.0.sender_id,
                    send_time: input.0.send_time,
                    list_id: audience.list_id,
                    body_html: &input.0.body_html,
                    is_draft: Some(input.0.is_draft),
                    segment_id: audience.segment_id,
                    preview_text: &preview,
                    respect_cap: input.0.respect_cap.unwrap_or(true),
                };
                let changed = store::mailings::update_unsent(tx, id.0, &fields).await?;
                if !changed {
                    let existing = fetch_mailing(tx, id.0).await?;
                    if existing.send_attempt.is_some() {
                        return Err(ApiError::Conflict(
                            "A sent mailing cannot be changed".to_owned(),
                        ));
                    }
                }
                audience::save(tx, id.0, &audience).await?;
                fetch_mailing(tx, id.0).await
            })
            .await?;
        Ok(Json(mailing.shown_to(&auth.0)))
    }

    /// Resumes a paused send: the recipients not yet sent to are tried again; nobody already mailed is mailed
    /// twice.
    #[oai(
        path = "/api/crm-mailing/:id/resume",
        method = "post",
        operation_id = "resumeMailing"
    )]
    async fn resume(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<Mailing>, ApiError> {
        auth.0
            .enqueue(&state, Needs::Nothing, async |tx| {
                if !store::mailings::resume_paused(tx, id.0).await? {
                    fetch_mailing(tx, id.0).await?;
                    return Err(ApiError::Conflict(
                        "Only a paused mailing can be resumed".to_owned(),
                    ));
                }
                Ok(jobs::JobKind::SendMailing { mailing_id: id.0 })
            })
            .await?;
        let mailing = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                fetch_mailing(tx, id.0).await
            })
            .await?;
        Ok(Json(mailing.shown_to(&auth.0)))
    }

    /// Recipients, delivered, failed, unique opens, clicks and unsubscribes of one mailing.
    #[oai(
        path = "/api/crm-mailing/:id/stats",
        method = "get",
        operation_id = "getMailingStats"
    )]
    async fn stats(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<MailingStats>, ApiError> {
        let stats = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                fetch_mailing(tx, id.0).await?;
                query::mailing_stats(tx, id.0).await
            })
            .await?;
        Ok(Json(stats))
    }

    #[oai(
        path = "/api/crm-mailing/:id",
        method = "delete",
        operation_id = "deleteMailing"
    )]
    async fn delete_mailing(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Deleted, ApiError> {
        crate::routes::delete_by_id(
            &state,
            &auth.0.client,
            "mailings",
            id.0,
            "Mailing not found",
        )
        .await
    }
}
