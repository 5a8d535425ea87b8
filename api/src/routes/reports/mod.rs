//! Reports: the catalog, a report over a date range (the page), its CSV and XLSX files, a job for large ones and
//! the files such jobs built. The figures and files come from `store::reports`; scheduled reports are in
//! `schedules`.

mod schedules;

pub use schedules::ReportSchedulesApi;

use super::ApiTags;
use crate::auth::{ClientAuth, Needs};
use crate::error::ApiError;
use crate::schemas::JobAccepted;
use crate::state::SharedState;
use chrono::NaiveDate;
use jobs::JobKind;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Binary, Json};
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};
use store::reports::files::{self, Format};
use store::reports::{self, ReportError, ReportKind};

pub use crate::auth::PAGE_REPORTS;

impl From<ReportError> for ApiError {
    fn from(e: ReportError) -> Self {
        match e {
            ReportError::Sql(e) => e.into(),
            ReportError::Invalid(m) => ApiError::BadRequest(m),
            ReportError::File(m) => ApiError::internal(m),
        }
    }
}

pub struct ReportsApi;

/// A built-in report.
#[derive(Debug, Object)]
pub struct ReportInfo {
    pub key: String,
    pub title: String,
    pub description: String,
    /// Only the range's end matters: the report is "as of" that day.
    #[oai(rename = "asOf")]
    pub as_of: bool,
}

#[derive(Debug, Object)]
pub struct ReportColumn {
    pub key: String,
    pub label: String,
    /// text, integer, money (decimal string), rate (fraction, 4 places) or date (YYYY-MM-DD)
    pub kind: String,
}

/// A report over a range: its columns and up to 500 rows, every cell a string.
#[derive(Debug, Object)]
pub struct ReportTable {
    pub key: String,
    pub title: String,
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub columns: Vec<ReportColumn>,
    pub rows: Vec<Vec<String>>,
    #[oai(rename = "totalRows")]
    pub total_rows: i64,
    /// Above this many rows the files are built by a job ("Build Report").
    #[oai(rename = "directLimit")]
    pub direct_limit: i64,
}

#[derive(Debug, Clone, Copy, Enum)]
#[oai(rename_all = "lowercase")]
pub enum ReportFormat {
    Csv,
    Xlsx,
}

impl From<ReportFormat> for Format {
    fn from(f: ReportFormat) -> Self {
        match f {
            ReportFormat::Csv => Format::Csv,
            ReportFormat::Xlsx => Format::Xlsx,
        }
    }
}

#[derive(Debug, Object)]
pub struct BuildReport {
    #[oai(nullable)]
    pub from: Option<NaiveDate>,
    #[oai(nullable)]
    pub to: Option<NaiveDate>,
    pub format: ReportFormat,
}

#[derive(ApiResponse)]
pub enum ReportFile {
    /// The report as a file (CSV or XLSX, by the name's extension).
    #[oai(status = 200, content_type = "application/octet-stream")]
    File(
        Binary<poem::Body>,
        #[oai(header = "Content-Disposition")] String,
    ),
}

fn kind_of(key: &str) -> Result<ReportKind, ApiError> {
    ReportKind::parse(key).map_err(|_| ApiError::NotFound("No such report".to_owned()))
}

fn attachment(name: &str) -> String {
    format!("attachment; filename=\"{name}\"")
}

#[OpenApi(tag = "ApiTags::Reports")]
impl ReportsApi {
    /// The built-in reports.
    #[oai(path = "/api/reports", method = "get", operation_id = "listReports")]
    async fn list(&self, auth: ClientAuth) -> Result<Json<Vec<ReportInfo>>, ApiError> {
        auth.0.require(PAGE_REPORTS)?;
        Ok(Json(
            ReportKind::ALL
                .into_iter()
                .map(|k| ReportInfo {
                    key: k.key().to_owned(),
                    title: k.title().to_owned(),
                    description: k.description().to_owned(),
                    as_of: k.as_of(),
                })
                .collect(),
        ))
    }

    /// A report over `from`–`to` (client zone; default this month): its first 500 rows and its row count.
    #[oai(
        path = "/api/reports/:kind",
        method = "get",
        operation_id = "getReport"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        kind: Path<String>,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<Json<ReportTable>, ApiError> {
        auth.0.check(PAGE_REPORTS)?;
        let kind = kind_of(&kind.0)?;
        let table = auth
            .0
            .tx(&state, PAGE_REPORTS, async |tx| {
                let range = reports::resolve_range(tx, from.0, to.0).await?;
                Ok(reports::build(tx, kind, &range, Some(reports::PAGE_ROWS)).await?)
            })
            .await?;
        Ok(Json(ReportTable {
            key: kind.key().to_owned(),
            title: kind.title().to_owned(),
            from: table.from,
            to: table.to,
            columns: table
                .columns
                .iter()
                .map(|c| ReportColumn {
                    key: c.key.to_owned(),
                    label: c.label.to_owned(),
                    kind: serde_json::to_value(c.kind)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default(),
                })
                .collect(),
            rows: table.rows,
            total_rows: table.total_rows,
            direct_limit: reports::DIRECT_ROWS,
        }))
    }

    /// The whole report as a CSV or XLSX file; one with more rows than `directLimit` is refused (build it as a
    /// job).
    #[oai(
        path = "/api/reports/:kind/file",
        method = "get",
        operation_id = "downloadReport"
    )]
    async fn download(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        kind: Path<String>,
        format: Query<ReportFormat>,
        from: Query<Option<NaiveDate>>,
        to: Query<Option<NaiveDate>>,
    ) -> Result<ReportFile, ApiError> {
        auth.0.check(PAGE_REPORTS)?;
        let kind = kind_of(&kind.0)?;
        let format = Format::from(format.0);
        let (range, written) = auth
            .0
            .tx(&state, PAGE_REPORTS, async |tx| {
                let range = reports::resolve_range(tx, from.0, to.0).await?;
                let rows = reports::count(tx, kind, &range).await?;
                if rows > reports::DIRECT_ROWS {
                    return Err(ApiError::Conflict(format!(
                        "This report has {rows} rows; build it as a job"
                    )));
                }
                let written = files::write(tx, kind, &range, format).await?;
                Ok((range, written))
            })
            .await?;
        let name = files::file_name(kind, range.from, range.to, format);
        let body = poem::Body::from_async_read(tokio::fs::File::from_std(written.file));
        Ok(ReportFile::File(Binary(body), attachment(&name)))
    }

    /// Builds the report's file as a job (for large reports); the job's result links to the file.
    #[oai(
        path = "/api/reports/:kind/build",
        method = "post",
        operation_id = "buildReport"
    )]
    async fn build(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        kind: Path<String>,
        body: Json<BuildReport>,
    ) -> Result<JobAccepted, ApiError> {
        auth.0.check(PAGE_REPORTS)?;
        let kind = kind_of(&kind.0)?;
        let row = auth
            .0
            .enqueue(&state, Needs::Nothing, async |tx| {
                let range = reports::resolve_range(tx, body.0.from, body.0.to).await?;
                Ok(JobKind::BuildReport {
                    kind,
                    from: range.from,
                    to: range.to,
                    format: body.0.format.into(),
                })
            })
            .await?;
        Ok(JobAccepted::Accepted(Json(row.into())))
    }

    /// A file a "Build Report" job made.
    #[oai(
        path = "/api/report-files/:id",
        method = "get",
        operation_id = "downloadReportFile"
    )]
    async fn file(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<ReportFile, ApiError> {
        auth.0.require(PAGE_REPORTS)?;
        // By hand: the transaction stays open while `file_body` streams the file's chunks.
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let file = files::load(&mut tx, id.0)
            .await?
            .ok_or_else(|| ApiError::NotFound("No such report file".to_owned()))?;
        let name = attachment(&file.file_name);
        Ok(ReportFile::File(Binary(file_body(tx, file.id)), name))
    }
}

/// A stored file's bytes, read a chunk at a time by a task that owns the transaction and handed to the response
/// through a channel of two: the api holds at most a few MB whatever the file's size. A failure mid-file ends the
/// body with an error, so the download fails rather than looking complete.
fn file_body(mut tx: tenancy::TenantTx, id: i64) -> poem::Body {
    use futures_util::TryStreamExt;
    let (sender, receiver) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(2);
    tokio::spawn(async move {
        let read = async {
            let mut chunks = files::chunks(&mut tx, id);
            while let Some(chunk) = chunks.try_next().await? {
                if sender.send(Ok(chunk)).await.is_err() {
                    break;
                }
            }
            drop(chunks);
            tx.commit().await?;
            Ok::<_, ApiError>(())
        };
        if let Err(e) = read.await {
            tracing::error!(error = %e, "report file download failed");
            let _ = sender.send(Err(std::io::Error::other(e.to_string()))).await;
        }
    });
    poem::Body::from_bytes_stream(futures_util::stream::unfold(
        receiver,
        |mut receiver| async move { receiver.recv().await.map(|chunk| (chunk, receiver)) },
    ))
}
