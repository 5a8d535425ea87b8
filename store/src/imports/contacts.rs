//! Contact imports: the staging table the parsed rows are copied into, their de-duplication, and the statements
//! that merge them into contacts, origin codes and an upload list. The worker picks which statements run (by the
//! import's options) and adds up the counts.

use sqlx::postgres::PgCopyIn;
use sqlx::PgConnection;

/// The temp table the parsed rows are copied into, dropped with the transaction.
pub async fn create_staging(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "create temp table import_staging (
             row_no bigint, email text, first_name text, last_name text, phone text, vanid bigint,
             origin_code text, created_at timestamp
         ) on commit drop",
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Starts the `COPY` of CSV rows (the staging table's columns in order) into the staging table.
pub async fn copy_staging(
    conn: &mut PgConnection,
) -> Result<PgCopyIn<&mut PgConnection>, sqlx::Error> {
    conn.copy_in_raw(
        "copy import_staging (row_no, email, first_name, last_name, phone, vanid, origin_code, created_at)
             from stdin with (format csv)",
    )
    .await
}

/// The upload list the import fills, created in the import's transaction.
pub async fn create_upload_list(conn: &mut PgConnection, name: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar::<_, i64>(
        "insert into crm_lists (name, kind) values ($1, 'upload') returning id",
    )
    .bind(name)
    .fetch_one(conn)
    .await
}

pub async fn staged_rows(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(*) from import_staging")
        .fetch_one(conn)
        .await
}

/// Copies the first staged row of each `key` into the temp table `import_unique`; (unique rows, duplicates).
/// `key` is always a column name literal from the code, never input.
pub async fn dedupe(conn: &mut PgConnection, key: &'static str) -> Result<(i64, i64), sqlx::Error> {
    let staged = staged_rows(&mut *conn).await?;
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

/// Every staged origin code becomes a known one.
pub async fn add_staged_origin_codes(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into origin_codes (name) select distinct origin_code from import_staging
                 where origin_code <> '' on conflict (name) do nothing",
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Creates a contact for each staged e-mail that is not one yet (the first row of each e-mail wins, through
/// `on conflict do nothing`); `origin_code_id`, when given, beats the row's own code. How many were created.
pub async fn create_staged_contacts(
    conn: &mut PgConnection,
    origin_code_id: Option<i64>,
) -> Result<i64, sqlx::Error> {
    Ok(sqlx::query(
        "insert into contacts (email, first_name, last_name, phone, vanid, origin_code_id, created)
             select s.email, coalesce(s.first_name, ''), coalesce(s.last_name, ''), nullif(s.phone, ''),
                    case when s.vanid is not null
                          and not exists (select 1 from contacts v where v.vanid = s.vanid) then s.vanid end,
                    coalesce($1, (select o.id from origin_codes o where o.name = s.origin_code)),
                    coalesce(s.created_at::timestamptz, now())
             from import_staging s
             on conflict do nothing",
    )
    .bind(origin_code_id)
    .execute(conn)
    .await?
    .rows_affected() as i64)
}

/// Sets the origin code of every staged e-mail's contact to `code`; how many changed.
pub async fn overwrite_origin_codes(
    conn: &mut PgConnection,
    code: i64,
) -> Result<i64, sqlx::Error> {
    Ok(sqlx::query(
        "update contacts c set origin_code_id = $1 from import_staging s
                 where c.email = s.email and c.origin_code_id is distinct from $1",
    )
    .bind(code)
    .execute(conn)
    .await?
    .rows_affected() as i64)
}

/// Adds every staged e-mail's contact to the list and refreshes its count; how many members were added.
pub async fn add_staged_to_list(conn: &mut PgConnection, list: i64) -> Result<i64, sqlx::Error> {
    let added = sqlx::query(
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
    Ok(added)
}

pub async fn staged_emails(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(distinct email) from import_staging")
        .fetch_one(conn)
        .await
}

/// How many distinct staged e-mails are contacts.
pub async fn staged_emails_known(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "select count(distinct s.email) from import_staging s join contacts c on c.email = s.email",
    )
    .fetch_one(conn)
    .await
}

/// What an NGP merge did.
#[derive(Debug)]
pub struct NgpMerged {
    /// Contacts whose VANID was known: their names were updated.
    pub updated: i64,
    /// Contacts without a VANID that an unknown VANID's e-mail matched: they took the VANID.
    pub linked: i64,
    pub created: i64,
}

/// NGP rows (de-duplicated into `import_unique` by VANID) are keyed on VANID: a known VANID updates that
/// contact's names; an unknown one whose e-mail is already a contact without a VANID links it; otherwise a
/// contact is created with the row's first origin code.
pub async fn merge_ngp(conn: &mut PgConnection) -> Result<NgpMerged, sqlx::Error> {
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
    Ok(NgpMerged {
        updated,
        linked,
        created,
    })
}
