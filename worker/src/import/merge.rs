//! The set-based statements that turn the staged rows into contacts and list memberships.

use super::*;

#[derive(Debug, Default)]
pub(super) struct Merged {
    pub(super) unique: i64,
    pub(super) duplicates: i64,
    pub(super) created: i64,
    pub(super) matched: i64,
    pub(super) updated: i64,
    pub(super) added: i64,
    pub(super) not_created: i64,
}

/// First occurrence of each e-mail wins.
pub(super) async fn dedupe(conn: &mut PgConnection, key: &str) -> Result<(i64, i64), JobError> {
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
pub(super) async fn merge_contacts(
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
pub(super) async fn merge_ngp(conn: &mut PgConnection) -> Result<Merged, JobError> {
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
