//! The suppression list (issue 30): addresses no mailing may mail, with the reason, the source, the date, the
//! mailing and the evidence of each; lifted (audited), added by hand, imported from a CSV and exported. Also the
//! raw evidence's download and the delivery rates the mailing page, Performance and E-mail Analytics show.

use super::ApiTags;
use crate::auth::{ClientAuth, ClientSession, Needs, EDIT_ROLE, PAGE_CONTACTS};
use crate::error::ApiError;
use crate::identity::audit;
use crate::identity::sign_in::address;
use crate::state::SharedState;
use chrono::{DateTime, NaiveDate, Utc};
use poem::web::Data;
use poem::Request;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Binary, Json, PlainText};
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiResponse, Enum, Multipart, Object, OpenApi};
use store::deliverability::rates::{self, GroupBy};
use store::deliverability::suppressions::{self, Suppression};
use store::tabular::{self, ColumnKind, Format};

pub struct SuppressionsApi;

const PAGE_SIZE: i64 = 50;
/// The most addresses one request may add (by hand or in a file).
const MAX_ADDRESSES: usize = 100_000;
/// The largest suppression file taken.
const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "snake_case")]
pub enum SuppressionReason {
    HardBounce,
    SoftBounces,
    Complaint,
    Manual,
    Import,
}

impl SuppressionReason {
    fn from_stored(word: &str) -> Self {
        match word {
            "hard_bounce" => Self::HardBounce,
            "soft_bounces" => Self::SoftBounces,
            "complaint" => Self::Complaint,
            "import" => Self::Import,
            _ => Self::Manual,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Self::HardBounce => "Hard bounce",
            Self::SoftBounces => "Repeated soft bounces",
            Self::Complaint => "Spam complaint",
            Self::Manual => "Added by hand",
            Self::Import => "Imported",
        }
    }
}

/// One active suppression.
#[derive(Debug, Object)]
pub struct SuppressionRow {
    pub id: i64,
    pub email: String,
    pub reason: SuppressionReason,
    /// The reason in words.
    #[oai(rename = "reasonText")]
    pub reason_text: String,
    /// Where it came from: the event's source (`smtp`, `dsn`, `arf`, `ses` …) or the person who added it.
    pub source: String,
    pub created: DateTime<Utc>,
    #[oai(nullable, rename = "mailingId")]
    pub mailing_id: Option<i64>,
    #[oai(nullable, rename = "mailingName")]
    pub mailing_name: Option<String>,
    /// The enhanced status code, e.g. 5.1.1.
    #[oai(nullable, rename = "statusCode")]
    pub status_code: Option<String>,
    #[oai(nullable)]
    pub diagnostic: Option<String>,
    /// The raw evidence (GET /api/delivery-evidence/{id}), kept 90 days.
    #[oai(nullable, rename = "evidenceId")]
    pub evidence_id: Option<i64>,
    #[oai(nullable)]
    pub note: Option<String>,
}

impl From<Suppression> for SuppressionRow {
    fn from(s: Suppression) -> Self {
        let reason = SuppressionReason::from_stored(&s.reason);
        Self {
            id: s.id,
            email: s.email,
            reason,
            reason_text: reason.words().to_owned(),
            source: s
                .event_source
                .or(s.created_by)
                .unwrap_or_else(|| "Compass".to_owned()),
            created: s.created,
            mailing_id: s.event_mailing_id,
            mailing_name: s.event_mailing_name,
            status_code: s.event_status_code,
            diagnostic: s.event_diagnostic,
            evidence_id: s.event_evidence_id,
            note: s.note,
        }
    }
}

#[derive(Debug, Object)]
pub struct SuppressionPage {
    pub suppressions: Vec<SuppressionRow>,
    /// How many active suppressions match the search.
    pub total: i64,
    /// 1-based.
    pub page: i64,
    #[oai(rename = "pageSize")]
    pub page_size: i64,
}

#[derive(Debug, Object)]
pub struct SuppressionInput {
    /// Addresses to suppress.
    #[oai(validator(min_items = 1, max_items = 10000))]
    pub emails: Vec<String>,
    #[oai(validator(max_length = 500))]
    pub note: Option<String>,
}

#[derive(Debug, Multipart)]
pub struct SuppressionUpload {
    /// A CSV file whose first column holds the addresses (a header row is allowed).
    pub file: Upload,
}

/// A row or entry that was not taken, and why.
#[derive(Debug, Object)]
pub struct RejectedAddress {
    /// 1-based row of the file, or position in the list.
    pub row: i64,
    pub value: String,
    pub reason: String,
}

#[derive(Debug, Object)]
pub struct SuppressionsAdded {
    /// Addresses newly suppressed.
    pub added: i64,
    /// Valid addresses that were suppressed already.
    #[oai(rename = "alreadySuppressed")]
    pub already_suppressed: i64,
    pub rejected: Vec<RejectedAddress>,
}

#[derive(ApiResponse)]
pub enum Lifted {
    #[oai(status = 204)]
    Lifted,
}

#[derive(ApiResponse)]
pub enum SuppressionsCsv {
    #[oai(status = 200, content_type = "text/csv; charset=utf-8")]
    Csv(
        PlainText<String>,
        #[oai(header = "Content-Disposition")] String,
    ),
}

#[derive(ApiResponse)]
pub enum EvidenceFile {
    /// The raw message or webhook body as it arrived.
    #[oai(status = 200, content_type = "application/octet-stream")]
    File(
        Binary<Vec<u8>>,
        #[oai(header = "Content-Disposition")] String,
    ),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "snake_case")]
pub enum RatesBy {
    Mailing,
    SenderDomain,
    Provider,
}

/// Bounce and complaint figures of one group (docs/deliverability.md "Rates"). Rates are decimal strings with
/// four places (0.0042 is 0.42 %), null when there is nothing to divide by.
#[derive(Debug, Object)]
pub struct DeliveryRates {
    /// The mailing's id, the sender's From domain, or the mailbox provider (gmail, yahoo, microsoft, other).
    pub group: String,
    /// The mailing's name, when per mailing.
    #[oai(nullable)]
    pub label: Option<String>,
    pub sent: i64,
    pub delivered: i64,
    #[oai(rename = "hardBounced")]
    pub hard_bounced: i64,
    #[oai(rename = "softBounced")]
    pub soft_bounced: i64,
    pub complained: i64,
    #[oai(nullable, rename = "hardBounceRate")]
    pub hard_bounce_rate: Option<String>,
    #[oai(nullable, rename = "softBounceRate")]
    pub soft_bounce_rate: Option<String>,
    #[oai(nullable, rename = "complaintRate")]
    pub complaint_rate: Option<String>,
}

impl From<rates::Rates> for DeliveryRates {
    fn from(r: rates::Rates) -> Self {
        Self {
            group: r.group,
            label: r.label,
            sent: r.sent,
            delivered: r.delivered,
            hard_bounced: r.hard_bounced,
            soft_bounced: r.soft_bounced,
            complained: r.complained,
            hard_bounce_rate: r.hard_bounce_rate,
            soft_bounce_rate: r.soft_bounce_rate,
            complaint_rate: r.complaint_rate,
        }
    }
}

fn actor(session: &ClientSession, req: &Request) -> audit::Actor {
    audit::Actor {
        kind: session.claims.user.kind.as_str(),
        id: Some(session.user_id()),
        email: session.claims.user.email.clone(),
        address: address(req),
    }
}

/// The valid addresses among `values` (normalised, each once) and the rejected ones with their row.
fn sort_addresses<'a>(
    values: impl Iterator<Item = (i64, &'a str)>,
) -> (Vec<String>, Vec<RejectedAddress>) {
    let mut valid = Vec::new();
    let mut rejected = Vec::new();
    for (row, raw) in values {
        let trimmed = raw.trim();
        match domain::Email::parse(trimmed) {
            Ok(email) => valid.push(email.as_str().to_lowercase()),
            Err(_) => rejected.push(RejectedAddress {
                row,
                value: trimmed.chars().take(200).collect(),
                reason: if trimmed.is_empty() {
                    "No address".to_owned()
                } else {
                    "Not an e-mail address".to_owned()
                },
            }),
        }
    }
    valid.sort();
    valid.dedup();
    (valid, rejected)
}

/// The first column of each row of a CSV file; a first row that is not an address but names one (a header) is
/// left out.
fn file_addresses(bytes: &[u8]) -> Result<(Vec<String>, Vec<RejectedAddress>), ApiError> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim_start_matches('\u{feff}');
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut cells: Vec<(i64, String)> = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record
            .map_err(|e| ApiError::BadRequest(format!("The file is not a readable CSV: {e}")))?;
        let first = record.get(0).unwrap_or("").to_owned();
        // Blank lines hold nothing to lose.
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        cells.push((i as i64 + 1, first));
        if cells.len() > MAX_ADDRESSES {
            return Err(ApiError::BadRequest(format!(
                "A file may hold at most {MAX_ADDRESSES} addresses"
            )));
        }
    }
    if let Some((_, first)) = cells.first() {
        let header = first.trim().to_lowercase();
        if domain::Email::parse(first.trim()).is_err()
            && (header.contains("mail") || header.contains("address"))
        {
            cells.remove(0);
        }
    }
    Ok(sort_addresses(
        cells.iter().map(|(row, v)| (*row, v.as_str())),
    ))
}

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

    /// Bounce and complaint rates per mailing, per sender (From) domain or per mailbox provider, of one mailing
    /// (`mailingId`) or of the mailings sent from `from` to `to` (the client's days, both included).
    #[oai(
        path = "/api/delivery-rates",
        method = "get",
        operation_id = "getDeliveryRates"
    )]
    async fn rates(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        by: Query<RatesBy>,
        #[oai(name = "mailingId")] mailing_id: Query<Option<i64>>,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<Json<Vec<DeliveryRates>>, ApiError> {
        if let (Some(from), Some(to)) = (from.0, to.0) {
            if from > to {
                return Err(ApiError::BadRequest(
                    "The range ends before it starts".to_owned(),
                ));
            }
        }
        let group = match by.0 {
            RatesBy::Mailing => GroupBy::Mailing,
            RatesBy::SenderDomain => GroupBy::SenderDomain,
            RatesBy::Provider => GroupBy::Provider,
        };
        let rows = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| {
                let (from, until) = rates::day_bounds(tx, from.0, to.0).await?;
                let filter = rates::Filter {
                    mailing_id: mailing_id.0,
                    from,
                    until,
                };
                Ok(rates::rates(tx, group, &filter).await?)
            })
            .await?;
        Ok(Json(rows.into_iter().map(Into::into).collect()))
    }
}
