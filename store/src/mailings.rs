//! A mailing's audience (a list or a segment, minus suppression lists and segments) and its variants. The send
//! freezes the audience with the tenant function `mailing_audience_split`, which reads what is stored here.

use sqlx::PgConnection;

/// A suppression of a mailing: every member of this list or segment is left out.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Suppression {
    /// `list` or `segment`
    pub kind: String,
    pub id: i64,
    pub name: String,
}

/// A variant B, C … of a mailing; a `None` field is the mailing's own.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct Variant {
    pub letter: String,
    pub subject_line: Option<String>,
    pub sender_id: Option<i64>,
    pub preview_text: Option<String>,
    pub body_html: Option<String>,
}

/// The letters variants after A get, in order.
pub const VARIANT_LETTERS: &str = "bcdefghijklmnopqrstuvwxyz";

/// Which of `ids` do not name a row of `table` (`crm_lists`, `segments` or `senders`).
pub async fn unknown_ids(
    conn: &mut PgConnection,
    table: &str,
    ids: &[i64],
) -> Result<Vec<i64>, sqlx::Error> {
    let sql = match table {
        "crm_lists" => {
            "select i from unnest($1::bigint[]) i where not exists (select 1 from crm_lists t where t.id = i)"
        }
        "segments" => {
            "select i from unnest($1::bigint[]) i where not exists (select 1 from segments t where t.id = i)"
        }
        _ => "select i from unnest($1::bigint[]) i where not exists (select 1 from senders t where t.id = i)",
    };
    sqlx::query_scalar(sql).bind(ids).fetch_all(conn).await
}

/// Replaces the mailing's suppressions.
pub async fn set_suppressions(
    conn: &mut PgConnection,
    mailing_id: i64,
    lists: &[i64],
    segments: &[i64],
) -> Result<(), sqlx::Error> {
    sqlx::query("delete from mailing_suppressions where mailing_id = $1")
        .bind(mailing_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "insert into mailing_suppressions (mailing_id, list_id, segment_id)
         select $1, l, null from (select distinct unnest($2::bigint[]) l) x
         union all
         select $1, null, s from (select distinct unnest($3::bigint[]) s) y",
    )
    .bind(mailing_id)
    .bind(lists)
    .bind(segments)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The mailing's suppressions, lists first, by name.
pub async fn suppressions(
    conn: &mut PgConnection,
    mailing_id: i64,
) -> Result<Vec<Suppression>, sqlx::Error> {
    sqlx::query_as(
        "select 'list' as kind, l.id, l.name from mailing_suppressions s join crm_lists l on l.id = s.list_id
         where s.mailing_id = $1
         union all
         select 'segment', g.id, g.name from mailing_suppressions s join segments g on g.id = s.segment_id
         where s.mailing_id = $1
         order by 1, 3, 2",
    )
    .bind(mailing_id)
    .fetch_all(conn)
    .await
}

/// Replaces the mailing's variants B, C … with `variants` (their letters are given in order).
pub async fn set_variants(
    conn: &mut PgConnection,
    mailing_id: i64,
    variants: &[Variant],
) -> Result<(), sqlx::Error> {
    sqlx::query("delete from mailing_variants where mailing_id = $1")
        .bind(mailing_id)
        .execute(&mut *conn)
        .await?;
    for (v, letter) in variants.iter().zip(VARIANT_LETTERS.chars()) {
        sqlx::query(
            "insert into mailing_variants (mailing_id, letter, subject_line, sender_id, preview_text, body_html)
             values ($1, $2, $3, $4, $5, $6)",
        )
        .bind(mailing_id)
        .bind(letter.to_string())
        .bind(&v.subject_line)
        .bind(v.sender_id)
        .bind(&v.preview_text)
        .bind(&v.body_html)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

pub async fn variants(
    conn: &mut PgConnection,
    mailing_id: i64,
) -> Result<Vec<Variant>, sqlx::Error> {
    sqlx::query_as(
        "select letter, subject_line, sender_id, preview_text, body_html from mailing_variants
         where mailing_id = $1 order by letter",
    )
    .bind(mailing_id)
    .fetch_all(conn)
    .await
}

/// How many contacts the mailing would go to if it were sent now.
pub async fn audience_size(conn: &mut PgConnection, mailing_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(*) from mailing_audience($1)")
        .bind(mailing_id)
        .fetch_one(conn)
        .await
}

/// An option of the audience picker.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AudienceOption {
    /// `list` or `segment`
    pub kind: String,
    pub id: i64,
    pub name: String,
    /// Members now (a segment: as last computed).
    pub size: i64,
}

/// The lists and segments a mailing can go to or suppress, lists first, by name.
pub async fn audience_options(conn: &mut PgConnection) -> Result<Vec<AudienceOption>, sqlx::Error> {
    sqlx::query_as(
        "select 'list' as kind, l.id, l.name,
                (select count(*) from crm_list_contacts c where c.list_id = l.id) as size
         from crm_lists l
         union all
         select 'segment', s.id, s.name, s.size::bigint from segments s
         order by 1, 3, 2",
    )
    .fetch_all(conn)
    .await
}
