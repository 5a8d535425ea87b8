//! The suppression list (issue 30): addresses no mailing may mail, with the reason, the source, the date, the
//! mailing and the evidence of each; lifted (audited), added by hand, imported from a CSV and exported; and the raw
//! evidence's download.

use super::ApiTags;
use crate::auth::{ClientAuth, ClientSession, EDIT_ROLE, PAGE_CONTACTS};
use crate::error::ApiError;
use crate::identity::audit;
use crate::identity::sign_in::address;
use crate::state::SharedState;
use poem::web::Data;
use poem::Request;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Binary, Json, PlainText};
use poem_openapi::OpenApi;
use store::deliverability::suppressions;
use store::tabular::{self, ColumnKind, Format};

mod addresses;
mod objects;

use addresses::{file_addresses, sort_addresses};
pub use objects::*;
pub struct SuppressionsApi;

const PAGE_SIZE: i64 = 50;
/// The most addresses one request may add (by hand or in a file).
const MAX_ADDRESSES: usize = 100_000;
/// The largest suppression file taken.
const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;

fn actor(session: &ClientSession, req: &Request) -> audit::Actor {
    audit::Actor {
        kind: session.claims.user.kind.as_str(),
        id: Some(session.user_id()),
        email: session.claims.user.email.clone(),
        address: address(req),
    }
}

/// The valid addresses among `values` (normalised, each once) and the rejected ones with their row.
impl SuppressionsApi {
    async fn add(
        state: &SharedState,
        session: &ClientSession,
        req: &Request,
        (valid, rejected): (Vec<String>, Vec<RejectedAddress>),
        reason: &'static str,
        note: Option<&str>,
        permission: &'static str,
    ) -> Result<SuppressionsAdded, ApiError> {
        let actor = actor(session, req);
        let added = session
            .tx(state, permission, async |tx| {
                let added =
                    suppressions::suppress(tx, &valid, reason, &actor.email, note).await?;
                audit::record(
                    tx,
                    &actor,
                    "suppressions added",
                    serde_json::json!({ "reason": reason, "added": added, "addresses": valid.len() }),
                )
                .await?;
                Ok(added)
            })
            .await?;
        Ok(SuppressionsAdded {
            added: added as i64,
            already_suppressed: valid.len() as i64 - added as i64,
            rejected,
        })
    }
}

#[OpenApi(tag = "ApiTags::Deliverability")]
impl SuppressionsApi {
    /// A page of the active suppressions, newest first; `q` matches the address.
    #[oai(
        path = "/api/suppressions",
        method = "get",
        operation_id = "listSuppressions"
    )]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        q: Query<Option<String>>,
        page: Query<Option<i64>>,
    ) -> Result<Json<SuppressionPage>, ApiError> {
        let search = q.0.unwrap_or_default();
        if search.chars().count() > 200 {
            return Err(ApiError::BadRequest(
                "Search must be at most 200 characters".to_owned(),
            ));
        }
        let page = page.0.unwrap_or(1).clamp(1, 1_000_000);
        let (rows, total) = auth
            .0
            .tx(&state, PAGE_CONTACTS, async |tx| {
                Ok(suppressions::page(tx, &search, PAGE_SIZE, (page - 1) * PAGE_SIZE).await?)
            })
            .await?;
        Ok(Json(SuppressionPage {
            suppressions: rows.into_iter().map(Into::into).collect(),
            total,
            page,
            page_size: PAGE_SIZE,
        }))
    }

    /// Suppresses addresses by hand; entries that are not addresses are named, the rest are taken.
    #[oai(
        path = "/api/suppressions",
        method = "post",
        operation_id = "addSuppressions"
    )]
    async fn create(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: ClientAuth,
        body: Json<SuppressionInput>,
    ) -> Result<Json<SuppressionsAdded>, ApiError> {
        let body = body.0;
        let sorted = sort_addresses(
            body.emails
                .iter()
                .enumerate()
                .map(|(i, e)| (i as i64 + 1, e.as_str())),
        );
        let note = body
            .note
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty());
        let added = Self::add(&state, &auth.0, req, sorted, "manual", note, PAGE_CONTACTS).await?;
        Ok(Json(added))
    }

    /// Imports a suppression list: a CSV whose first column holds the addresses. Rows that are not addresses are
    /// named by their row; every other row is taken.
    #[oai(
        path = "/api/suppressions/import",
        method = "post",
        operation_id = "importSuppressions"
    )]
    async fn import(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: ClientAuth,
        upload: SuppressionUpload,
    ) -> Result<Json<SuppressionsAdded>, ApiError> {
        // Lifting, importing and exporting the list are the administrator's (issue 30); adding an address by
        // hand only protects it, and is open to whoever keeps the contacts.
        auth.0.check(EDIT_ROLE)?;
        if upload.file.size() > MAX_FILE_BYTES {
            return Err(ApiError::BadRequest(
                "The file is larger than 10 MB".to_owned(),
            ));
        }
        let bytes = upload
            .file
            .into_vec()
            .await
            .map_err(|e| ApiError::BadRequest(format!("The file could not be read: {e}")))?;
        let sorted = file_addresses(&bytes)?;
        let added = Self::add(&state, &auth.0, req, sorted, "import", None, EDIT_ROLE).await?;
        Ok(Json(added))
    }

    /// Lifts an active suppression: the address may be mailed again (audited).
    #[oai(
        path = "/api/suppressions/:id/lift",
        method = "post",
        operation_id = "liftSuppression"
    )]
    async fn lift(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Lifted, ApiError> {
        let actor = actor(&auth.0, req);
        auth.0
            .tx(&state, EDIT_ROLE, async |tx| {
                let Some(email) = suppressions::lift(tx, id.0, &actor.email).await? else {
                    return Err(ApiError::NotFound("Suppression not found".to_owned()));
                };
                audit::record(
                    tx,
                    &actor,
                    "suppression lifted",
                    serde_json::json!({ "suppressionId": id.0, "email": email }),
                )
                .await?;
                Ok(())
            })
            .await?;
        Ok(Lifted::Lifted)
    }

    /// Every active suppression as a CSV file.
    #[oai(
        path = "/api/suppressions/export",
        method = "get",
        operation_id = "exportSuppressions"
    )]
    async fn export(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<SuppressionsCsv, ApiError> {
        let rows = auth
            .0
            .tx(&state, EDIT_ROLE, async |tx| {
                Ok(suppressions::all_active(tx).await?)
            })
            .await?;
        let header = [
            "Email",
            "Reason",
            "Source",
            "Suppressed",
            "Mailing",
            "Status code",
            "Diagnostic",
        ]
        .map(str::to_owned);
        let kinds = {
            use ColumnKind::*;
            [Text, Text, Text, Date, Text, Text, Text]
        };
        let cells = rows.into_iter().map(|s| {
            let row = SuppressionRow::from(s);
            [
                row.email,
                row.reason_text,
                row.source,
                row.created.date_naive().to_string(),
                row.mailing_name.unwrap_or_default(),
                row.status_code.unwrap_or_default(),
                row.diagnostic.unwrap_or_default(),
            ]
        });
        let bytes = tabular::to_bytes(Format::Csv, "Suppressions", &header, &kinds, cells)
            .map_err(ApiError::internal)?;
        let text = String::from_utf8(bytes).map_err(ApiError::internal)?;
        Ok(SuppressionsCsv::Csv(
            PlainText(text),
            "attachment; filename=\"suppressions.csv\"".to_owned(),
        ))
    }

    /// The raw evidence of a delivery event (a bounce message, a feedback report, a webhook body), kept 90 days.
    #[oai(
        path = "/api/delivery-evidence/:id",
        method = "get",
        operation_id = "downloadDeliveryEvidence"
    )]
    async fn evidence(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<EvidenceFile, ApiError> {
        let (content_type, body) = auth
            .0
            .tx(&state, PAGE_CONTACTS, async |tx| {
                suppressions::evidence(tx, id.0).await?.ok_or_else(|| {
                    ApiError::NotFound("No such evidence (it is kept for 90 days)".to_owned())
                })
            })
            .await?;
        let extension = if content_type.contains("json") {
            "json"
        } else if content_type.starts_with("message/") || content_type.starts_with("multipart/") {
            "eml"
        } else {
            "txt"
        };
        Ok(EvidenceFile::File(
            Binary(body),
            format!("attachment; filename=\"evidence-{}.{extension}\"", id.0),
        ))
    }
}
