//! Templates, sender identities and mailings. A mailing's status is derived as the spec says: DRAFT while
//! `isDraft`; otherwise SENT once a send attempt exists; otherwise CONFIRMED. Only drafts and never-attempted
//! mailings can be changed.

pub mod audience;
mod dto;
pub mod flights;
mod senders;
mod templates;

pub use dto::*;
pub use senders::{Sender, SenderInput, SenderOption, SendersApi};
pub use templates::{MailingTemplate, TemplateInput, TemplatesApi};

use super::{ApiTags, Deleted};
use crate::auth::ClientAuth;
use crate::error::ApiError;
use crate::state::SharedState;
use audience::AudienceOption;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::OpenApi;
use tenancy::TenantTx;

pub struct MailingsApi;

macro_rules! mailing_select {
    () => {
        concat!(
            "select m.id, m.name, m.subject_line, m.sender_id, s.name as sender_name, m.send_time, m.list_id,
                l.name as list_name, m.body_html, m.is_draft, m.send_attempt,
                (select count(distinct e.contact_id) from mailing_events e
                  where e.mailing_id = m.id and e.kind = 'open' and not e.machine) as open_count,
                (select count(*) from mailing_recipients r where r.mailing_id = m.id) as recip_count,
                m.delivery, m.delivery_message, m.created,
                rv.delivered, rv.revenue::numeric(20, 2)::text as revenue, rv.gifts, rv.donors,
                (case when rv.delivered > 0 then rv.gifts::float8 / rv.delivered else 0 end) as response_rate,
                (case when rv.delivered > 0 then round(rv.revenue * 1000 / rv.delivered, 2) else 0 end)
                  ::numeric(20, 2)::text as rpm,
                m.segment_id, g.name as segment_name, m.preview_text, m.variant_seed
         from mailings m left join senders s on s.id = m.sender_id left join crm_lists l on l.id = m.list_id
         left join segments g on g.id = m.segment_id
         cross join lateral (
             select (select count(*) from mailing_recipients r where r.mailing_id = m.id and r.status = 'sent')
                      as delivered,
                    coalesce(sum(",
            store::net_sql!(),
            "), 0) as revenue,
                    count(*) filter (where c.amount > 0) as gifts,
                    ",
            store::donors_sql!(),
            " as donors
             from contributions c where c.mailing_id = m.id
         ) rv "
        )
    };
}

fn required(value: &str, what: &str) -> Result<String, ApiError> {
    let v = value.trim();
    if v.is_empty() {
        return Err(ApiError::BadRequest(format!("{what} is required")));
    }
    // Subjects and names end up in mail headers: no line breaks, ever.
    if v.chars().any(|c| c.is_control()) {
        return Err(ApiError::BadRequest(format!(
            "{what} must be a single line"
        )));
    }
    Ok(v.to_owned())
}

async fn fetch_mailing(tx: &mut TenantTx, id: i64) -> Result<Mailing, ApiError> {
    let mut mailing = sqlx::query_as::<_, Mailing>(concat!(mailing_select!(), "where m.id = $1"))
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| ApiError::NotFound("Mailing not found".to_owned()))?;
    (mailing.suppressions, mailing.variants) = audience::load(tx, id).await?;
    Ok(mailing)
}

async fn check_refs(
    tx: &mut TenantTx,
    input: &MailingInput,
) -> Result<audience::Audience, ApiError> {
    let sender: bool = sqlx::query_scalar("select exists (select 1 from senders where id = $1)")
        .bind(input.sender_id)
        .fetch_one(&mut **tx)
        .await?;
    if !sender {
        return Err(ApiError::BadRequest("Unknown sender".to_owned()));
    }
    audience::check(
        tx,
        input.list_id,
        input.segment_id,
        input.suppression_list_ids.as_ref(),
        input.suppression_segment_ids.as_ref(),
        input.variants.as_ref(),
    )
    .await
}

fn preview_text(input: &MailingInput) -> Result<String, ApiError> {
    let v = input.preview_text.as_deref().unwrap_or("").trim();
    if v.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(
            "Preview text must be a single line".to_owned(),
        ));
    }
    Ok(v.to_owned())
}

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
        required(&input.0.name, "Name")?;
        let subject = required(&input.0.subject_line, "Subject line")?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let sender: Option<(String, String, Option<String>)> =
            sqlx::query_as("select name, from_address, reply_to from senders where id = $1")
                .bind(input.0.sender_id)
                .fetch_optional(&mut *tx)
                .await?;
        tx.commit().await?;
        let (from_name, from_address, reply_to) =
            sender.ok_or_else(|| ApiError::BadRequest("Unknown sender".to_owned()))?;
        let to = auth.0.claims.user.email.clone();
        let first_name =
            crate::identity::first_name(&state, &auth.0.realm(), auth.0.claims.user.id).await?;
        // Merged exactly as the real send merges them: subject and body.
        let values = worker::mail::MergeValues {
            first_name,
            email: to.clone(),
        };
        let html = worker::mail::merge(&input.0.body_html, &values);
        let message = worker::mail::Outgoing {
            from_name,
            from_address,
            reply_to,
            to: to.clone(),
            subject: format!("[Test] {}", worker::mail::merge(&subject, &values)),
            html,
            unsubscribe_url: None,
            message_id: None,
        };
        state.mailer.send(&message).await.map_err(|e| match e {
            worker::mail::MailError::Address(m) => ApiError::BadRequest(m),
            other => {
                tracing::warn!(error = %other, "test send failed");
                ApiError::Unavailable(
                    "The mail server did not accept the message; try again shortly".to_owned(),
                )
            }
        })?;
        Ok(Json(TestSendResult {
            message: "Draft sent".to_owned(),
            to,
        }))
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
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let rows = audience::options(&mut tx).await?;
        tx.commit().await?;
        Ok(Json(rows))
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
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let rows = sqlx::query_as::<_, Mailing>(concat!(
            mailing_select!(),
            "order by m.created desc, m.id desc"
        ))
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Json(rows))
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
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let preview = preview_text(&input.0)?;
        let audience = check_refs(&mut tx, &input.0).await?;
        let id: i64 = sqlx::query_scalar(
            "insert into mailings (name, subject_line, sender_id, send_time, list_id, body_html, is_draft,
                                   segment_id, preview_text)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id",
        )
        .bind(name)
        .bind(subject)
        .bind(input.0.sender_id)
        .bind(input.0.send_time)
        .bind(audience.list_id)
        .bind(&input.0.body_html)
        .bind(input.0.is_draft)
        .bind(audience.segment_id)
        .bind(&preview)
        .fetch_one(&mut *tx)
        .await?;
        audience::save(&mut tx, id, &audience).await?;
        let mailing = fetch_mailing(&mut tx, id).await?;
        tx.commit().await?;
        Ok(Created::Created(Json(mailing)))
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
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let mailing = fetch_mailing(&mut tx, id.0).await?;
        tx.commit().await?;
        Ok(Json(mailing))
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
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let preview = preview_text(&input.0)?;
        let audience = check_refs(&mut tx, &input.0).await?;
        let changed = sqlx::query(
            "update mailings set name = $2, subject_line = $3, sender_id = $4, send_time = $5, list_id = $6,
                    body_html = $7, is_draft = $8, segment_id = $9, preview_text = $10, updated = now()
             where id = $1 and send_attempt is null",
        )
        .bind(id.0)
        .bind(name)
        .bind(subject)
        .bind(input.0.sender_id)
        .bind(input.0.send_time)
        .bind(audience.list_id)
        .bind(&input.0.body_html)
        .bind(input.0.is_draft)
        .bind(audience.segment_id)
        .bind(&preview)
        .execute(&mut *tx)
        .await?;
        if changed.rows_affected() == 0 {
            let existing = fetch_mailing(&mut tx, id.0).await?;
            if existing.send_attempt.is_some() {
                return Err(ApiError::Conflict(
                    "A sent mailing cannot be changed".to_owned(),
                ));
            }
        }
        audience::save(&mut tx, id.0, &audience).await?;
        let mailing = fetch_mailing(&mut tx, id.0).await?;
        tx.commit().await?;
        Ok(Json(mailing))
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
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let resumed = sqlx::query(
            "update mailings set delivery = 'sending', delivery_message = null
             where id = $1 and delivery = 'paused'",
        )
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
        if resumed.rows_affected() == 0 {
            fetch_mailing(&mut tx, id.0).await?;
            return Err(ApiError::Conflict(
                "Only a paused mailing can be resumed".to_owned(),
            ));
        }
        state
            .queue
            .enqueue(
                tx,
                Some(auth.0.user_id()),
                &worker::JobKind::SendMailing { mailing_id: id.0 },
            )
            .await?;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let mailing = fetch_mailing(&mut tx, id.0).await?;
        tx.commit().await?;
        Ok(Json(mailing))
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
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        fetch_mailing(&mut tx, id.0).await?;
        let stats = sqlx::query_as::<_, MailingStats>(
            "select
                 (select count(*) from mailing_recipients where mailing_id = $1) as recipients,
                 (select count(*) from mailing_recipients where mailing_id = $1 and status = 'sent') as delivered,
                 (select count(*) from mailing_recipients
                   where mailing_id = $1 and status in ('failed', 'queued', 'sending')) as failed,
                 (select count(*) from mailing_recipients where mailing_id = $1 and status = 'bounced') as bounced,
                 (select count(distinct contact_id) from mailing_events
                   where mailing_id = $1 and kind = 'open' and not machine) as unique_opens,
                 (select count(*) from mailing_events where mailing_id = $1 and kind = 'open' and machine) as machine_opens,
                 (select count(distinct contact_id) from mailing_events
                   where mailing_id = $1 and kind = 'click' and not machine) as unique_clicks,
                 (select count(*) from mailing_events where mailing_id = $1 and kind = 'click' and not machine) as clicks,
                 (select count(*) from mailing_events where mailing_id = $1 and kind = 'unsubscribe') as unsubscribes",
        )
        .bind(id.0)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
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
