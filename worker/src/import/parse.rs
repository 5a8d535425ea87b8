//! Reading the contact file into COPY-ready batches on a blocking thread.

use super::*;

#[derive(Debug, Default, Clone)]
pub(super) struct Counts {
    pub(super) rows_read: i64,
    pub(super) empty: i64,
    /// Rows with a NUL byte in any cell, by their row number in the file (the header is row 1).
    pub(super) nul_byte: table::NulRows,
    pub(super) invalid_email: i64,
    pub(super) invalid_vanid: i64,
    pub(super) invalid_date: i64,
    pub(super) outside_window: i64,
}

/// Parses the file on a blocking thread and sends COPY-ready CSV batches of about 1 MB through a bounded
/// channel, so memory stays flat whatever the file's size.
pub(super) fn spawn_parser(
    path: std::path::PathBuf,
    plan: ImportPlan,
    batches: tokio::sync::mpsc::Sender<Vec<u8>>,
) -> tokio::task::JoinHandle<Result<Counts, JobError>> {
    tokio::task::spawn_blocking(move || {
        let format = Format::from_filename(&plan.filename, true)
            .ok_or_else(|| JobError::BadFile("Unsupported file type".to_owned()))?;
        let mut rows = table::open(&path, format)?;
        let header = match rows.next() {
            Some(h) => h?,
            None => return Err(JobError::BadFile("The file is empty".to_owned())),
        };
        let columns = resolve_columns(&plan.columns, &header)?;
        let window_start = plan
            .days
            .map(|d| (Utc::now() - chrono::Duration::days(d)).naive_utc());
        let mut counts = Counts::default();
        let mut batch = csv::WriterBuilder::new().from_writer(Vec::with_capacity(1 << 20));
        for (index, row) in rows.enumerate() {
            let row = row?;
            counts.rows_read += 1;
            if row.iter().all(|c| c.is_empty()) {
                counts.empty += 1;
                continue;
            }
            let cell = |f: Field| {
                columns
                    .get(&f)
                    .and_then(|&i| row.get(i))
                    .map(String::as_str)
                    .unwrap_or("")
            };
            // Postgres text cannot hold a NUL: the COPY would fail the whole import.
            if table::has_nul(&row) {
                counts.nul_byte.note(index as i64 + 2);
                continue;
            }
            let Ok(email) = Email::parse(cell(Field::Email)) else {
                counts.invalid_email += 1;
                continue;
            };
            let vanid = match cell(Field::Vanid) {
                "" if !matches!(plan.columns, Columns::Ngp) => String::new(),
                raw => match raw.trim_end_matches(".0").parse::<i64>() {
                    Ok(v) if v > 0 => v.to_string(),
                    _ => {
                        counts.invalid_vanid += 1;
                        continue;
                    }
                },
            };
            let raw_created = cell(Field::DateCreated);
            let created = parse_date(raw_created);
            // A date that does not parse is never taken for "now": it would pass any window. Without one, an
            // empty date is fine (the contact is created now); with one, it cannot be judged.
            if created.is_none() && (!raw_created.is_empty() || window_start.is_some()) {
                counts.invalid_date += 1;
                continue;
            }
            if let (Some(start), Some(created)) = (window_start, created) {
                if created < start {
                    counts.outside_window += 1;
                    continue;
                }
            }
            let first_code = cell(Field::OriginCode)
                .split(',')
                .map(str::trim)
                .find(|c| !c.is_empty())
                .unwrap_or("");
            let record = [
                (index + 1).to_string(),
                email.into_string(),
                truncate(cell(Field::FirstName), 100),
                truncate(cell(Field::LastName), 100),
                truncate(cell(Field::Phone), 40),
                vanid,
                truncate(first_code, 200),
                created
                    .map(|d| d.format("%Y-%m-%d %H:%M:%S").to_string())
                    .unwrap_or_default(),
            ];
            batch.write_record(&record).map_err(JobError::file)?;
            if batch.get_ref().len() >= 1 << 20 {
                let full = std::mem::replace(
                    &mut batch,
                    csv::WriterBuilder::new().from_writer(Vec::with_capacity(1 << 20)),
                );
                let bytes = full
                    .into_inner()
                    .map_err(|e| JobError::file(e.into_error()))?;
                if batches.blocking_send(bytes).is_err() {
                    return Err(JobError::Stopped("the file reader stopped".into()));
                }
            }
        }
        let rest = batch
            .into_inner()
            .map_err(|e| JobError::file(e.into_error()))?;
        if !rest.is_empty() && batches.blocking_send(rest).is_err() {
            return Err(JobError::Stopped("the file reader stopped".into()));
        }
        Ok(counts)
    })
}
