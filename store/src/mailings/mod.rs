//! Mailings as the editor saves them, their audience (a list or a segment, minus suppression lists and segments)
//! and their variants. The send freezes the audience with the tenant function `mailing_audience_split`, which
//! reads what is stored here.

mod read;

pub use read::{get, list, stats, MailingRow, MailingStats};

use chrono::{DateTime, Utc};
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

/// Which of `ids` do not name a row of `table` (`crm_lists`, `segments`, `origin_codes`, `source_codes` or
/// `senders`).
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
        "origin_codes" => {
            "select i from unnest($1::bigint[]) i where not exists (select 1 from origin_codes t where t.id = i)"
        }
        "source_codes" => {
            "select i from unnest($1::bigint[]) i where not exists (select 1 from source_codes t where t.id = i)"
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

/// Every mailing as (id, name), newest first; at most 10,000.
pub async fn names(conn: &mut PgConnection) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(
        "select id, name as label from mailings order by created desc, id desc limit 10000",
    )
    .fetch_all(conn)
    .await
}

pub async fn exists(conn: &mut PgConnection, id: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from mailings where id = $1)")
        .bind(id)
        .fetch_one(conn)
        .await
}

/// What the mailing editor saves, checked.
pub struct Fields<'a> {
    pub name: &'a str,
    pub subject_line: &'a str,
    pub sender_id: i64,
    pub send_time: DateTime<Utc>,
    pub list_id: Option<i64>,
    pub body_html: &'a str,
    /// None keeps the stored value (on update).
    pub is_draft: Option<bool>,
    pub segment_id: Option<i64>,
    pub preview_text: &'a str,
    /// Leave out those who reached the programme's frequency cap (off for an urgent mailing).
    pub respect_cap: bool,
}

pub async fn insert(conn: &mut PgConnection, fields: &Fields<'_>) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "insert into mailings (name, subject_line, sender_id, send_time, list_id, body_html, is_draft,
                               segment_id, preview_text, respect_cap)
         values ($1, $2, $3, $4, $5, $6, coalesce($7, true), $8, $9, $10) returning id",
    )
    .bind(fields.name)
    .bind(fields.subject_line)
    .bind(fields.sender_id)
    .bind(fields.send_time)
    .bind(fields.list_id)
    .bind(fields.body_html)
    .bind(fields.is_draft)
    .bind(fields.segment_id)
    .bind(fields.preview_text)
    .bind(fields.respect_cap)
    .fetch_one(conn)
    .await
}

/// Saves a mailing not sent yet; false when there is no such mailing or it was sent.
pub async fn update_unsent(
    conn: &mut PgConnection,
    id: i64,
    fields: &Fields<'_>,
) -> Result<bool, sqlx::Error> {
    let changed = sqlx::query(
        "update mailings set name = $2, subject_line = $3, sender_id = $4, send_time = $5, list_id = $6,
                body_html = $7, is_draft = coalesce($8, is_draft), segment_id = $9, preview_text = $10,
                respect_cap = $11, updated = now()
         where id = $1 and send_attempt is null",
    )
    .bind(id)
    .bind(fields.name)
    .bind(fields.subject_line)
    .bind(fields.sender_id)
    .bind(fields.send_time)
    .bind(fields.list_id)
    .bind(fields.body_html)
    .bind(fields.is_draft)
    .bind(fields.segment_id)
    .bind(fields.preview_text)
    .bind(fields.respect_cap)
    .execute(conn)
    .await?;
    Ok(changed.rows_affected() > 0)
}

/// Marks a paused mailing as sending again; false when it is not paused (or missing).
pub async fn resume_paused(conn: &mut PgConnection, id: i64) -> Result<bool, sqlx::Error> {
    let resumed = sqlx::query(
        // A send the guard paused is not paused again by the same figures: the person resuming it has looked.
        "update mailings set delivery = 'sending', delivery_message = null,
                guard = case when guard = 'tripped' then 'overridden' else guard end, resume_at = null
         where id = $1 and delivery = 'paused'",
    )
    .bind(id)
    .execute(conn)
    .await?;
    Ok(resumed.rows_affected() > 0)
}

/// Each variant's (letter, subject, preview text, body) as the send reads them: variant a is the mailing's own.
pub async fn variant_texts(
    conn: &mut PgConnection,
    id: i64,
) -> Result<Vec<(String, String, String, String)>, sqlx::Error> {
    sqlx::query_as(
        "select 'a', m.subject_line, m.preview_text, m.body_html from mailings m where m.id = $1
         union all
         select x.letter, coalesce(x.subject_line, m.subject_line), coalesce(x.preview_text, m.preview_text),
                coalesce(x.body_html, m.body_html)
         from mailing_variants x join mailings m on m.id = x.mailing_id where x.mailing_id = $1",
    )
    .bind(id)
    .fetch_all(conn)
    .await
}

/// Per variant of the audience: (letter, recipients, without a first name, without an e-mail).
pub async fn merge_gaps(
    conn: &mut PgConnection,
    id: i64,
) -> Result<Vec<(String, i64, i64, i64)>, sqlx::Error> {
    sqlx::query_as(
        "select a.variant, count(*),
                count(*) filter (where coalesce(btrim(c.first_name), '') = ''),
                count(*) filter (where coalesce(btrim(c.email), '') = '')
         from mailing_audience_split($1) a join contacts c on c.id = a.contact_id
         group by a.variant",
    )
    .bind(id)
    .fetch_all(conn)
    .await
}
