//! External mailings: sends made elsewhere, imported from column-mapped CSV files as jobs, listed on the
//! Performance and E-mail Analytics pages, exported, and named in the selection data.

use super::ApiTags;
use crate::auth::{ClientAuth, Needs, PAGE_PERFORMANCE};
use crate::date_range::check_range;
use crate::error::ApiError;
use crate::schemas::JobAccepted;
use crate::state::SharedState;
use chrono::NaiveDate;
use jobs::import::external_mailings::ExternalMailingsPlan;
use jobs::JobKind;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::{Json, PlainText};
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiResponse, Multipart, Object, OpenApi};
use std::collections::BTreeMap;
use store::external_mailings::import::{MailingField, Source};
use store::external_mailings::{self, ExternalMailing};
use store::tabular::{self, ColumnKind, Format};

pub struct ExternalMailingsApi;

#[derive(Debug, Multipart)]
pub struct ExternalMailingsUpload {
    /// .csv or .txt (or .xls/.xlsx when the headers name the fields)
    pub file: Upload,
    /// `esp` (another e-mail platform, the default) or `lemlist`: the platform of rows that do not name one.
    pub platform: Option<String>,
    /// JSON object of file column header → field id (see GET /api/external-mailings/import/fields); without it,
    /// columns are found by header name.
    pub mapping: Option<String>,
}

/// A field an external mailings file column can be mapped to.
#[derive(Debug, Object)]
pub struct ExternalMailingField {
    pub id: String,
    pub label: String,
    pub required: bool,
    /// Other headers that name the field in common exports (lower case, letters and digits).
    pub synonyms: Vec<String>,
}

#[derive(ApiResponse)]
pub enum ExternalMailingsCsv {
    #[oai(status = 200, content_type = "text/csv; charset=utf-8")]
    Csv(
        PlainText<String>,
        #[oai(header = "Content-Disposition")] String,
    ),
}

const CSV_HEADER: [&str; 15] = [
    "Sent on",
    "Name",
    "Platform",
    "Recipients",
    "Delivered",
    "Bounces",
    "Opens",
    "Open rate",
    "Clicks",
    "Click rate",
    "Unsubscribes",
    "Gifts",
    "Revenue",
    "RPM",
    "Id",
];

/// What each column holds, in `CSV_HEADER`'s order (`store::tabular`).
const CSV_KINDS: [ColumnKind; 15] = {
    use ColumnKind::*;
    [
        Date, Text, Text, Integer, Integer, Integer, Integer, Rate, Integer, Rate, Integer,
        Integer, Money, Money, Integer,
    ]
};

fn csv(rows: &[ExternalMailing]) -> Result<String, ApiError> {
    let rate = |r: Option<f64>| r.map(|r| r.to_string()).unwrap_or_default();
    let cells = rows.iter().map(|r| {
        [
            r.sent_on.to_string(),
            r.name.clone(),
            platform_label(&r.source).to_owned(),
            r.recipients.to_string(),
            r.delivered.to_string(),
            r.bounces.to_string(),
            r.opens.to_string(),
            rate(r.open_rate),
            r.clicks.to_string(),
            rate(r.click_rate),
            r.unsubscribes.to_string(),
            r.gifts.to_string(),
            r.revenue.clone(),
            r.rpm.clone().unwrap_or_default(),
            r.id.to_string(),
        ]
    });
    let header = CSV_HEADER.map(str::to_owned);
    let bytes = tabular::to_bytes(Format::Csv, "External mailings", &header, &CSV_KINDS, cells)
        .map_err(ApiError::internal)?;
    String::from_utf8(bytes).map_err(ApiError::internal)
}

fn platform_label(source: &str) -> &str {
    match source {
        "lemlist" => "lemlist",
        _ => "Other platform",
    }
}

fn parse_mapping(raw: Option<&str>) -> Result<BTreeMap<String, MailingField>, ApiError> {
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(BTreeMap::new());
    };
    crate::uploads::column_mapping(
        raw,
        MailingField::from_id,
        MailingField::label,
        &MailingField::REQUIRED,
    )
}

/// One external send. Money is a decimal string.
#[derive(Debug, Object)]
pub struct ExternalMailingRow {
    pub id: i64,
    /// `esp` (another e-mail platform) or `lemlist`.
    pub source: String,
    pub name: String,
    #[oai(rename = "sentOn")]
    pub sent_on: NaiveDate,
    pub recipients: i64,
    pub delivered: i64,
    pub bounces: i64,
    pub opens: i64,
    pub clicks: i64,
    pub unsubscribes: i64,
    pub gifts: i64,
    pub revenue: String,
    /// opens ÷ recipients (four decimals), as the Performance page's open rate; null without recipients.
    #[oai(nullable, rename = "openRate")]
    pub open_rate: Option<f64>,
    /// clicks ÷ delivered (four decimals); null when nothing was delivered.
    #[oai(nullable, rename = "clickRate")]
    pub click_rate: Option<f64>,
    /// revenue × 1000 ÷ delivered (decimal string); null when nothing was delivered.
    #[oai(nullable)]
    pub rpm: Option<String>,
}

impl From<ExternalMailing> for ExternalMailingRow {
    fn from(r: ExternalMailing) -> Self {
        Self {
            id: r.id,
            source: r.source,
            name: r.name,
            sent_on: r.sent_on,
            recipients: r.recipients,
            delivered: r.delivered,
            bounces: r.bounces,
            opens: r.opens,
            clicks: r.clicks,
            unsubscribes: r.unsubscribes,
            gifts: r.gifts,
            revenue: r.revenue,
            open_rate: r.open_rate,
            click_rate: r.click_rate,
            rpm: r.rpm,
        }
    }
}

async fn rows(
    state: &SharedState,
    auth: &ClientAuth,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<ExternalMailing>, ApiError> {
    auth.0.check(PAGE_PERFORMANCE)?;
    check_range(from, to)?;
    auth.0
        .tx(state, PAGE_PERFORMANCE, async |tx| {
            Ok(external_mailings::list(tx, from, to).await?)
        })
        .await
}

/// An entry of a selection list.
#[derive(Debug, Object)]
pub struct ExternalName {
    pub id: i64,
    pub label: String,
}

/// Selection lists of the Performance page: its permission, like the page's other data.
async fn names(
    state: &SharedState,
    auth: &ClientAuth,
    source: &str,
) -> Result<Json<Vec<ExternalName>>, ApiError> {
    let rows = auth
        .0
        .tx(state, PAGE_PERFORMANCE, async |tx| {
            Ok(external_mailings::names(tx, source).await?)
        })
        .await?;
    Ok(Json(
        rows.into_iter()
            .map(|(id, label)| ExternalName { id, label })
            .collect(),
    ))
}

#[OpenApi(tag = "ApiTags::Mailings")]
impl ExternalMailingsApi {
    /// External sends of `from`–`to` (both included), newest first.
    #[oai(
        path = "/api/external-mailings",
        method = "get",
        operation_id = "listExternalMailings"
    )]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<NaiveDate>,
        to: Query<NaiveDate>,
    ) -> Result<Json<Vec<ExternalMailingRow>>, ApiError> {
        let rows = rows(&state, &auth, from.0, to.0).await?;
        Ok(Json(
            rows.into_iter().map(ExternalMailingRow::from).collect(),
        ))
    }

    /// External sends of `from`–`to` as CSV (names that a spreadsheet would run as formulas are made text).
    #[oai(
        path = "/api/external-mailings/export/csv",
        method = "get",
        operation_id = "exportExternalMailingsCsv"
    )]
    async fn export_csv(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        from: Query<NaiveDate>,
        to: Query<NaiveDate>,
    ) -> Result<ExternalMailingsCsv, ApiError> {
        let rows = rows(&state, &auth, from.0, to.0).await?;
        Ok(ExternalMailingsCsv::Csv(
            PlainText(csv(&rows)?),
            format!(
                "attachment; filename=\"external-mailings-{}-{}.csv\"",
                from.0, to.0
            ),
        ))
    }

    /// Imports the figures of sends made on another e-mail platform or in lemlist as a job. Columns are found
    /// by the mapping, else by header name; a send already imported (same platform and id, or same platform,
    /// name and send date) is replaced, never counted twice.
    #[oai(
        path = "/api/external-mailings/import",
        method = "post",
        operation_id = "importExternalMailings"
    )]
    async fn import(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        body: ExternalMailingsUpload,
    ) -> Result<JobAccepted, ApiError> {
        auth.0.check(PAGE_PERFORMANCE)?;
        let source = match body.platform.as_deref().map(str::trim) {
            None | Some("") => Source::Esp,
            Some(p) => Source::from_id(p).ok_or_else(|| {
                ApiError::BadRequest("platform must be esp or lemlist".to_owned())
            })?,
        };
        let mapping = parse_mapping(body.mapping.as_deref())?;
        let row = auth
            .0
            .enqueue(&state, Needs::Nothing, async |tx| {
                let (upload_id, filename) = crate::uploads::store(tx, body.file, true).await?;
                Ok(JobKind::ExternalMailingsImport(ExternalMailingsPlan {
                    upload_id,
                    filename,
                    source,
                    mapping,
                }))
            })
            .await?;
        Ok(JobAccepted::Accepted(Json(row.into())))
    }

    /// The fields an external mailings file column can be mapped to.
    #[oai(
        path = "/api/external-mailings/import/fields",
        method = "get",
        operation_id = "listExternalMailingImportFields"
    )]
    async fn fields(&self, auth: ClientAuth) -> Result<Json<Vec<ExternalMailingField>>, ApiError> {
        auth.0.require(PAGE_PERFORMANCE)?;
        Ok(Json(
            MailingField::ALL
                .into_iter()
                .map(|f| ExternalMailingField {
                    id: f.id().to_owned(),
                    label: f.label().to_owned(),
                    required: MailingField::REQUIRED.contains(&f),
                    synonyms: f.synonyms().iter().map(|s| (*s).to_owned()).collect(),
                })
                .collect(),
        ))
    }

    /// Selection data: the names of external mailings made on another e-mail platform.
    #[oai(
        path = "/api/selection/external-mailing-names",
        method = "get",
        operation_id = "listExternalMailingNames"
    )]
    async fn external_names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<ExternalName>>, ApiError> {
        names(&state, &auth, "esp").await
    }

    /// Selection data: the names of lemlist campaigns.
    #[oai(
        path = "/api/selection/lemlist-campaign-names",
        method = "get",
        operation_id = "listLemlistCampaignNames"
    )]
    async fn lemlist_names(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<ExternalName>>, ApiError> {
        names(&state, &auth, "lemlist").await
    }
}
