//! Contact imports: an uploaded file (stored in the client's schema, so any worker host can read it) is streamed
//! row by row into a staging table with `COPY`, then merged into contacts and list memberships by a few set-based
//! statements. Everything happens in the job's one transaction: a crash or retry leaves no half import, and a
//! re-run finds the rows already there (every insert is `on conflict do nothing`).

pub mod contributions;
pub mod external_mailings;
pub mod media;
mod table;

pub use table::Format;

use crate::{JobError, JobResult};
use chrono::{NaiveDate, NaiveDateTime, Utc};
use domain::Email;
use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgConnection;
use std::collections::BTreeMap;
use std::io::Write;

/// What a column of the file feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    Email,
    FirstName,
    LastName,
    Phone,
    Vanid,
    OriginCode,
    DateCreated,
}

impl Field {
    pub const ALL: [Field; 7] = [
        Field::Email,
        Field::FirstName,
        Field::LastName,
        Field::Phone,
        Field::Vanid,
        Field::OriginCode,
        Field::DateCreated,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Field::Email => "email",
            Field::FirstName => "first_name",
            Field::LastName => "last_name",
            Field::Phone => "phone",
            Field::Vanid => "vanid",
            Field::OriginCode => "origin_code",
            Field::DateCreated => "date_created",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Field::Email => "Email",
            Field::FirstName => "First name",
            Field::LastName => "Last name",
            Field::Phone => "Phone",
            Field::Vanid => "VANID",
            Field::OriginCode => "Origin code",
            Field::DateCreated => "Date created",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.id() == id)
    }
}

/// How the file's columns are found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Columns {
    /// A list upload: an 'Email' column is required (case and spacing forgiven); First/Last are taken if present.
    Contacts,
    /// An NGP saved list: VANID, First, Last, Date Created, OriginCodeName and PreferredEmail are all required.
    Ngp,
    /// A user's mapping of file column headers to fields.
    Mapped { mapping: BTreeMap<String, Field> },
}

/// Everything an import job needs, stored as the job's payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportPlan {
    pub upload_id: i64,
    pub filename: String,
    pub columns: Columns,
    /// The name of the new list the contacts join (list uploads). The job creates it in its transaction, so a
    /// failed upload leaves no empty list behind.
    pub list_name: Option<String>,
    /// The origin code new contacts get (list uploads); overrides a mapped origin code column.
    pub origin_code_id: Option<i64>,
    pub create_new_contacts: bool,
    pub overwrite_origin_code: bool,
    /// NGP "Actives": only rows created within this many days.
    pub days: Option<i64>,
}

#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    rows_read: i64,
    empty: i64,
    nul_byte: i64,
    invalid_email: i64,
    invalid_vanid: i64,
    invalid_date: i64,
    outside_window: i64,
}

fn normalize_header(h: &str) -> String {
    h.trim_start_matches('\u{feff}')
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_lowercase()
}

/// Column index of each field, from the header row.
fn resolve_columns(
    columns: &Columns,
    header: &[String],
) -> Result<BTreeMap<Field, usize>, JobError> {
    let normalized: Vec<String> = header.iter().map(|h| normalize_header(h)).collect();
    let find = |names: &[&str]| normalized.iter().position(|h| names.contains(&h.as_str()));
    let mut found = BTreeMap::new();
    match columns {
        Columns::Contacts => {
            let email = find(&["email", "emailaddress", "email1"])
                .ok_or_else(|| JobError::BadFile("The file has no 'Email' column".to_owned()))?;
            found.insert(Field::Email, email);
            if let Some(i) = find(&["first", "firstname", "fname"]) {
                found.insert(Field::FirstName, i);
            }
            if let Some(i) = find(&["last", "lastname", "lname", "surname"]) {
                found.insert(Field::LastName, i);
            }
        }
        Columns::Ngp => {
            let required = [
                (Field::Vanid, "vanid", "VANID"),
                (Field::FirstName, "first", "First"),
                (Field::LastName, "last", "Last"),
                (Field::DateCreated, "datecreated", "Date Created"),
                (Field::OriginCode, "origincodename", "OriginCodeName"),
                (Field::Email, "preferredemail", "PreferredEmail"),
            ];
            let missing: Vec<&str> = required
                .iter()
                .filter(|(_, key, _)| find(&[key]).is_none())
                .map(|(_, _, label)| *label)
                .collect();
            if !missing.is_empty() {
                return Err(JobError::BadFile(format!(
                    "Missing required columns: {}",
                    missing.join(", ")
                )));
            }
            for (field, key, _) in required {
                if let Some(i) = find(&[key]) {
                    found.insert(field, i);
                }
            }
        }
        Columns::Mapped { mapping } => {
            for (column, field) in mapping {
                let key = normalize_header(column);
                let i = normalized.iter().position(|h| *h == key).ok_or_else(|| {
                    JobError::BadFile(format!("The file has no column '{column}'"))
                })?;
                found.insert(*field, i);
            }
            if !found.contains_key(&Field::Email) {
                return Err(JobError::BadFile("Map a column to Email".to_owned()));
            }
        }
    }
    Ok(found)
}

fn parse_date(raw: &str) -> Option<NaiveDateTime> {
    let raw = raw.trim();
    for f in [
        "%Y-%m-%d %H:%M:%S",
        "%m/%d/%Y %H:%M:%S",
        "%m/%d/%Y %H:%M",
        "%Y-%m-%dT%H:%M:%S",
    ] {
        if let Ok(d) = NaiveDateTime::parse_from_str(raw, f) {
            return Some(d);
        }
    }
    for f in ["%Y-%m-%d", "%m/%d/%Y", "%m/%d/%y"] {
        if let Ok(d) = NaiveDate::parse_from_str(raw, f) {
            return d.and_hms_opt(0, 0, 0);
        }
    }
    None
}

/// Parses the file on a blocking thread and sends COPY-ready CSV batches of about 1 MB through a bounded
/// channel, so memory stays flat whatever the file's size.
fn spawn_parser(
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
            if columns.keys().any(|&f| cell(f).contains('\0')) {
                counts.nul_byte += 1;
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
            batch
                .write_record(&record)
                .map_err(|e| JobError::Io(e.to_string()))?;
            if batch.get_ref().len() >= 1 << 20 {
                let full = std::mem::replace(
                    &mut batch,
                    csv::WriterBuilder::new().from_writer(Vec::with_capacity(1 << 20)),
                );
                let bytes = full.into_inner().map_err(|e| JobError::Io(e.to_string()))?;
                if batches.blocking_send(bytes).is_err() {
                    return Err(JobError::Io("import stopped".to_owned()));
                }
            }
        }
        let rest = batch
            .into_inner()
            .map_err(|e| JobError::Io(e.to_string()))?;
        if !rest.is_empty() && batches.blocking_send(rest).is_err() {
            return Err(JobError::Io("import stopped".to_owned()));
        }
        Ok(counts)
    })
}

fn truncate(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// Writes the stored upload to a private temp file, chunk by chunk.
async fn download(
    conn: &mut PgConnection,
    upload_id: i64,
) -> Result<tempfile::NamedTempFile, JobError> {
    let mut file = tempfile::NamedTempFile::new().map_err(|e| JobError::Io(e.to_string()))?;
    let mut chunks = sqlx::query_scalar::<_, Vec<u8>>(
        "select data from upload_chunks where upload_id = $1 order by seq",
    )
    .bind(upload_id)
    .fetch(&mut *conn);
    let mut any = false;
    while let Some(chunk) = chunks.try_next().await? {
        any = true;
        file.write_all(&chunk)
            .map_err(|e| JobError::Io(e.to_string()))?;
    }
    drop(chunks);
    if !any {
        return Err(JobError::BadFile(
            "The uploaded file is missing or empty".to_owned(),
        ));
    }
    file.flush().map_err(|e| JobError::Io(e.to_string()))?;
    Ok(file)
}

/// Runs an import inside the job's transaction.
pub async fn run(conn: &mut PgConnection, plan: &ImportPlan) -> Result<JobResult, JobError> {
    let started = std::time::Instant::now();
    let file = download(conn, plan.upload_id).await?;
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        "upload read"
    );
    sqlx::query(
        "create temp table import_staging (
             row_no bigint, email text, first_name text, last_name text, phone text, vanid bigint,
             origin_code text, created_at timestamp
         ) on commit drop",
    )
    .execute(&mut *conn)
    .await?;

    let (tx, mut rx) = tokio::sync::mpsc::channel::<Vec<u8>>(4);
    let parser = spawn_parser(file.path().to_path_buf(), plan.clone(), tx);
    let mut copy = conn
        .copy_in_raw(
            "copy import_staging (row_no, email, first_name, last_name, phone, vanid, origin_code, created_at)
             from stdin with (format csv)",
        )
        .await?;
    while let Some(batch) = rx.recv().await {
        copy.send(batch).await?;
    }
    let counts = match parser.await.map_err(|e| JobError::Io(e.to_string()))? {
        Ok(counts) => {
            copy.finish().await?;
            counts
        }
        Err(e) => {
            let _ = copy.abort("parse failed").await;
            return Err(e);
        }
    };
    drop(file);
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        rows = counts.rows_read,
        "rows staged"
    );

    let list_id = match &plan.list_name {
        Some(name) => Some(
            sqlx::query_scalar::<_, i64>(
                "insert into crm_lists (name, kind) values ($1, 'upload') returning id",
            )
            .bind(name)
            .fetch_one(&mut *conn)
            .await?,
        ),
        None => None,
    };
    let merged = if matches!(plan.columns, Columns::Ngp) {
        merge_ngp(conn).await?
    } else {
        merge_contacts(conn, plan, list_id).await?
    };
    sqlx::query("delete from uploads where id = $1")
        .bind(plan.upload_id)
        .execute(&mut *conn)
        .await?;
    Ok(report(plan, list_id, counts, merged))
}

#[derive(Debug, Default)]
struct Merged {
    unique: i64,
    duplicates: i64,
    created: i64,
    matched: i64,
    updated: i64,
    added: i64,
    not_created: i64,
}

/// First occurrence of each e-mail wins.
async fn dedupe(conn: &mut PgConnection, key: &str) -> Result<(i64, i64), JobError> {
    let staged: i64 = sqlx::query_scalar("select count(*) from import_staging")
        .fetch_one(&mut *conn)
        .await?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "create temp table import_unique on commit drop as
         select distinct on ({key}) row_no, email, first_name, last_name, phone, vanid, origin_code, created_at
         from import_staging order by {key}, row_no"
    )))
    .execute(&mut *conn)
    .await?;
    let unique: i64 = sqlx::query_scalar("select count(*) from import_unique")
        .fetch_one(&mut *conn)
        .await?;
    sqlx::query("create index on import_unique (email)")
        .execute(&mut *conn)
        .await?;
    sqlx::query("analyze import_unique")
        .execute(&mut *conn)
        .await?;
    Ok((unique, staged - unique))
}

/// Works straight on the staging table (no de-duplicated copy): the inserts' `on conflict do nothing` already
/// keeps the first row of each e-mail, and the counts fall out of the statements' row counts.
async fn merge_contacts(
    conn: &mut PgConnection,
    plan: &ImportPlan,
    list_id: Option<i64>,
) -> Result<Merged, JobError> {
    let started = std::time::Instant::now();
    let staged: i64 = sqlx::query_scalar("select count(*) from import_staging")
        .fetch_one(&mut *conn)
        .await?;
    if let Columns::Mapped { mapping } = &plan.columns {
        if mapping.values().any(|f| *f == Field::OriginCode) {
            sqlx::query(
                "insert into origin_codes (name) select distinct origin_code from import_staging
                 where origin_code <> '' on conflict (name) do nothing",
            )
            .execute(&mut *conn)
            .await?;
        }
    }
    let mut created = 0;
    if plan.create_new_contacts {
        created = sqlx::query(
            "insert into contacts (email, first_name, last_name, phone, vanid, origin_code_id, created)
             select s.email, coalesce(s.first_name, ''), coalesce(s.last_name, ''), nullif(s.phone, ''),
                    case when s.vanid is not null
                          and not exists (select 1 from contacts v where v.vanid = s.vanid) then s.vanid end,
                    coalesce($1, (select o.id from origin_codes o where o.name = s.origin_code)),
                    coalesce(s.created_at::timestamptz, now())
             from import_staging s
             on conflict do nothing",
        )
        .bind(plan.origin_code_id)
        .execute(&mut *conn)
        .await?
        .rows_affected() as i64;
    }
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        created,
        "contacts merged"
    );
    let mut updated = 0;
    if plan.overwrite_origin_code {
        if let Some(code) = plan.origin_code_id {
            updated = sqlx::query(
                "update contacts c set origin_code_id = $1 from import_staging s
                 where c.email = s.email and c.origin_code_id is distinct from $1",
            )
            .bind(code)
            .execute(&mut *conn)
            .await?
            .rows_affected() as i64;
        }
    }
    let mut added = 0;
    if let Some(list) = list_id {
        added = sqlx::query(
            "insert into crm_list_members (list_id, contact_id)
             select $1, c.id from import_staging s join contacts c on c.email = s.email
             on conflict do nothing",
        )
        .bind(list)
        .execute(&mut *conn)
        .await?
        .rows_affected() as i64;
        sqlx::query(
            "update crm_lists set count = (select count(*) from crm_list_members where list_id = $1) where id = $1",
        )
        .bind(list)
        .execute(&mut *conn)
        .await?;
    }
    tracing::info!(
        elapsed_ms = started.elapsed().as_millis() as u64,
        added,
        "memberships merged"
    );
    // The list is new (created in this transaction), so with every e-mail a contact by now, each distinct e-mail
    // added exactly one member. Otherwise count them.
    let unique = if plan.create_new_contacts && list_id.is_some() {
        added
    } else {
        sqlx::query_scalar("select count(distinct email) from import_staging")
            .fetch_one(&mut *conn)
            .await?
    };
    let (matched, not_created) = if plan.create_new_contacts {
        (unique - created, 0)
    } else {
        let found: i64 = sqlx::query_scalar(
            "select count(distinct s.email) from import_staging s join contacts c on c.email = s.email",
        )
        .fetch_one(&mut *conn)
        .await?;
        (found, unique - found)
    };
    Ok(Merged {
        unique,
        duplicates: staged - unique,
        created,
        matched,
        updated,
        added,
        not_created,
    })
}

/// NGP rows are keyed on VANID: a known VANID updates that contact's names; an unknown one whose e-mail is
/// already a contact without a VANID links it; otherwise a contact is created with the row's first origin code.
async fn merge_ngp(conn: &mut PgConnection) -> Result<Merged, JobError> {
    let (unique, duplicates) = dedupe(conn, "vanid").await?;
    sqlx::query(
        "insert into origin_codes (name) select distinct origin_code from import_unique
         where origin_code <> '' on conflict (name) do nothing",
    )
    .execute(&mut *conn)
    .await?;
    let updated = sqlx::query(
        "update contacts c set first_name = s.first_name, last_name = s.last_name
         from import_unique s where c.vanid = s.vanid",
    )
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;
    let linked = sqlx::query(
        "update contacts c set vanid = s.vanid
         from import_unique s
         where c.email = s.email and c.vanid is null
           and not exists (select 1 from contacts v where v.vanid = s.vanid)",
    )
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;
    let created = sqlx::query(
        "insert into contacts (email, first_name, last_name, vanid, origin_code_id, created)
         select s.email, s.first_name, s.last_name, s.vanid,
                (select o.id from origin_codes o where o.name = s.origin_code),
                coalesce(s.created_at::timestamptz, now())
         from import_unique s
         where not exists (select 1 from contacts v where v.vanid = s.vanid)
         on conflict do nothing",
    )
    .execute(&mut *conn)
    .await?
    .rows_affected() as i64;
    let matched = updated + linked;
    Ok(Merged {
        unique,
        duplicates,
        created,
        matched,
        updated,
        added: 0,
        not_created: unique - matched - created,
    })
}

fn report(plan: &ImportPlan, list_id: Option<i64>, counts: Counts, m: Merged) -> JobResult {
    let skipped = counts.empty
        + counts.nul_byte
        + counts.invalid_email
        + counts.invalid_vanid
        + counts.invalid_date
        + counts.outside_window
        + m.duplicates;
    let (message, link) = match (&plan.columns, list_id) {
        (Columns::Ngp, _) => (
            format!(
                "Read {} rows: {} contacts created, {} updated; {} skipped.",
                counts.rows_read, m.created, m.matched, skipped
            ),
            "/segments/origin-codes".to_owned(),
        ),
        (_, Some(list)) => (
            format!(
                "Read {} rows: {} contacts created, {} matched, {} added to the list; {} skipped.",
                counts.rows_read, m.created, m.matched, m.added, skipped
            ),
            format!("/crm-list-detail/{list}"),
        ),
        (_, None) => (
            format!(
                "Read {} rows: {} contacts created, {} matched; {} skipped.",
                counts.rows_read, m.created, m.matched, skipped
            ),
            "/contacts".to_owned(),
        ),
    };
    JobResult {
        message,
        link: Some(link),
        segment_id: None,
        details: json!({
            "rowsRead": counts.rows_read,
            "uniqueEmails": m.unique,
            "contactsCreated": m.created,
            "matched": m.matched,
            "originCodesOverwritten": m.updated,
            "addedToList": m.added,
            "notCreated": m.not_created,
            "skipped": {
                "empty": counts.empty,
                "nulByte": counts.nul_byte,
                "invalidEmail": counts.invalid_email,
                "invalidVanid": counts.invalid_vanid,
                "invalidDate": counts.invalid_date,
                "outsideDateWindow": counts.outside_window,
                "duplicateInFile": m.duplicates,
            },
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(cols: &[&str]) -> Vec<String> {
        cols.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn the_email_column_is_found_whatever_its_case_and_spacing() {
        let found = resolve_columns(
            &Columns::Contacts,
            &header(&["\u{feff}First", " E-Mail ", "Last Name"]),
        )
        .unwrap();
        assert_eq!(found[&Field::Email], 1);
        assert_eq!(found[&Field::FirstName], 0);
        assert_eq!(found[&Field::LastName], 2);
        assert!(resolve_columns(&Columns::Contacts, &header(&["Name", "Phone"])).is_err());
    }

    #[test]
    fn ngp_needs_every_required_column_and_names_the_missing_ones() {
        let err = resolve_columns(
            &Columns::Ngp,
            &header(&["VANID", "First", "Last", "PreferredEmail"]),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "Missing required columns: Date Created, OriginCodeName"
        );
    }

    #[test]
    fn dates_in_the_usual_export_formats_parse() {
        for raw in [
            "2026-03-01",
            "2026-03-01 10:20:30",
            "3/1/2026",
            "03/01/2026 10:20",
        ] {
            assert!(parse_date(raw).is_some(), "{raw}");
        }
        assert!(parse_date("yesterday").is_none());
    }
}
