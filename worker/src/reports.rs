//! Report jobs: "Build Report" writes a large report's file for download; "Send Report" mails one run of a
//! scheduled report, the file attached, to each recipient who does not have it yet.

use crate::JobContext;
use chrono::NaiveDate;
use jobs::{JobError, JobResult};
use lettre::message::{header::ContentType, Attachment, Mailbox, MultiPart, SinglePart};
use lettre::Message;
use mail::{MailError, Mailer};
use serde_json::json;
use store::reports::files::{self, Format};
use store::reports::{self, schedules, ReportKind};

/// Builds the report over `from`–`to` and keeps its file; the result links to the reports page, which offers it.
/// The rows go to a temporary file as they are read, and the file into the database a chunk at a time.
pub async fn build(
    ctx: &JobContext<'_>,
    kind: ReportKind,
    from: NaiveDate,
    to: NaiveDate,
    format: Format,
) -> Result<JobResult, JobError> {
    let mut tx = ctx.tenancy.begin(ctx.client).await?;
    let range = reports::resolve_range(&mut tx, Some(from), Some(to)).await?;
    let written = files::write(&mut tx, kind, &range, format).await?;
    let file_id = files::save(
        &mut tx,
        ctx.job_id,
        kind,
        range.from,
        range.to,
        format,
        written.rows,
        written.file,
    )
    .await?;
    tx.commit().await?;
    Ok(JobResult {
        message: format!(
            "{} from {from} to {to}: {} rows.",
            kind.title(),
            written.rows
        ),
        link: Some(format!("/reports?file={file_id}")),
        segment_id: None,
        details: json!({ "fileId": file_id, "rows": written.rows }),
    })
}

/// The whole file, for an attachment (a mail message is built whole).
async fn read_all(file: std::fs::File) -> Result<Vec<u8>, JobError> {
    use std::io::Read;
    tokio::task::spawn_blocking(move || {
        let mut bytes = Vec::new();
        std::io::BufReader::new(file)
            .read_to_end(&mut bytes)
            .map(|_| bytes)
    })
    .await?
    .map_err(|e| JobError::File(Box::new(e)))
}

/// Mails one run of a schedule. Recipients already recorded for the period are skipped, so a redelivered job
/// mails only who is missing.
pub async fn send(
    ctx: &JobContext<'_>,
    schedule_id: i64,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<JobResult, JobError> {
    let mut tx = ctx.tenancy.begin(ctx.client).await?;
    let Some(schedule) = schedules::get(&mut tx, schedule_id).await? else {
        return Ok(JobResult {
            message: "The schedule was deleted; nothing sent.".to_owned(),
            link: Some("/reports".to_owned()),
            segment_id: None,
            details: json!({ "sent": 0 }),
        });
    };
    let kind = ReportKind::parse(&schedule.kind)?;
    let format = Format::parse(&schedule.format)?;
    let range = reports::resolve_range(&mut tx, Some(from), Some(to)).await?;
    let written = files::write(&mut tx, kind, &range, format).await?;
    let done = schedules::delivered(&mut tx, schedule_id, from).await?;
    tx.commit().await?;
    let rows = written.rows;
    let content = read_all(written.file).await?;
    let name = files::file_name(kind, from, to, format);
    let mailer = Mailer::new(&ctx.services.smtp, 1);
    let sender = &ctx.services.mail_from_address;
    let mut sent = 0;
    for recipient in schedule.recipients.iter().filter(|r| !done.contains(r)) {
        let message = message(
            sender, recipient, kind, from, to, rows, &name, format, &content,
        )
        .map_err(JobError::MailUnbuilt)?;
        mailer.send_message(message).await.map_err(|e| match e {
            MailError::Transient(_) => JobError::MailDeferred {
                to: recipient.clone(),
                source: e,
            },
            other => JobError::MailRefused {
                to: recipient.clone(),
                source: other,
            },
        })?;
        let mut tx = ctx.tenancy.begin(ctx.client).await?;
        schedules::mark_delivered(&mut tx, schedule_id, from, recipient).await?;
        tx.commit().await?;
        sent += 1;
    }
    Ok(JobResult {
        message: format!(
            "{} from {from} to {to} sent to {sent} recipients.",
            kind.title()
        ),
        link: Some("/reports".to_owned()),
        segment_id: None,
        details: json!({ "sent": sent, "rows": rows }),
    })
}

#[allow(clippy::too_many_arguments)]
fn message(
    sender: &str,
    recipient: &str,
    kind: ReportKind,
    from: NaiveDate,
    to: NaiveDate,
    rows: i64,
    file_name: &str,
    format: Format,
    content: &[u8],
) -> Result<Message, MailError> {
    let mailbox = |address: &str| {
        address
            .parse::<Mailbox>()
            .map_err(|e| MailError::Address(e.to_string()))
    };
    let subject = format!("{}: {from} to {to}", kind.title());
    let body = format!(
        "{subject}\n\n{rows} rows; the file is attached ({file_name}).\n\nScheduled reports are managed on the Reports page."
    );
    let kind_type =
        ContentType::parse(format.content_type()).map_err(|e| MailError::Build(e.to_string()))?;
    Message::builder()
        .from(mailbox(sender)?)
        .to(mailbox(recipient)?)
        .subject(subject)
        .multipart(
            MultiPart::mixed()
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_PLAIN)
                        .body(body),
                )
                .singlepart(
                    Attachment::new(file_name.to_owned()).body(content.to_vec(), kind_type),
                ),
        )
        .map_err(|e| MailError::Build(e.to_string()))
}

#[cfg(test)]
mod tests {
    use jobs::JobKind;
    use store::reports::files::Format;
    use store::reports::ReportKind;

    #[test]
    fn report_jobs_read_back_from_their_rows_and_refuse_bad_payloads() {
        let day = |d: &str| d.parse::<chrono::NaiveDate>().expect("date");
        for kind in [
            JobKind::BuildReport {
                kind: ReportKind::Lybunt,
                from: day("2026-01-01"),
                to: day("2026-01-31"),
                format: Format::Xlsx,
            },
            JobKind::SendReport {
                schedule_id: 7,
                from: day("2026-02-01"),
                to: day("2026-02-28"),
            },
        ] {
            let (command, payload) = kind.to_row().expect("writes");
            let back = JobKind::from_row(&command, payload).expect("reads back");
            assert_eq!(back, kind);
        }
        // A report job's payload names its report and format by the keys the api and the page use.
        for kind in ReportKind::ALL {
            assert_eq!(serde_json::to_value(kind).expect("kind"), kind.key());
        }
        for format in [Format::Csv, Format::Xlsx] {
            assert_eq!(serde_json::to_value(format).expect("format"), format.key());
        }
        let bad = serde_json::json!({ "kind": "nope", "from": "2026-01-01", "to": "2026-01-31", "format": "csv" });
        assert!(JobKind::from_row("build-report", bad).is_err());
        assert!(JobKind::from_row("send-report", serde_json::json!({ "from": "x" })).is_err());
    }
}
