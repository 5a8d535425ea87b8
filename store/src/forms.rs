//! Lead-capture forms and their signups. Staff edit the forms; visitors view and submit the enabled ones.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// How a form looks on its public page; a None field takes the default style.
#[derive(Debug, Clone, Default, PartialEq, sqlx::FromRow)]
pub struct Style {
    pub primary_color: Option<String>,
    pub background_color: Option<String>,
    pub logo_url: Option<String>,
    pub button_text: Option<String>,
}

#[derive(Debug, sqlx::FromRow)]
pub struct Form {
    pub id: i64,
    pub name: String,
    pub body_html: String,
    pub enabled: bool,
    pub origin_code_id: Option<i64>,
    pub origin_code_name: Option<String>,
    pub redirect_url: Option<String>,
    pub submission_count: i64,
    pub view_count: i64,
    #[sqlx(flatten)]
    pub style: Style,
    pub created: DateTime<Utc>,
    pub updated: DateTime<Utc>,
}

macro_rules! form_select {
    () => {
        "select f.id, f.name, f.body_html, f.enabled, f.origin_code_id, o.name as origin_code_name, f.redirect_url,
                (select count(*) from external_signups s where s.form_id = f.id) as submission_count,
                f.view_count, f.primary_color, f.background_color, f.logo_url, f.button_text,
                f.created, f.updated
         from forms f left join origin_codes o on o.id = f.origin_code_id "
    };
}

/// Every form, newest first.
pub async fn forms(conn: &mut PgConnection) -> Result<Vec<Form>, sqlx::Error> {
    sqlx::query_as(concat!(
        form_select!(),
        "order by f.created desc, f.id desc"
    ))
    .fetch_all(conn)
    .await
}

pub async fn form(conn: &mut PgConnection, id: i64) -> Result<Option<Form>, sqlx::Error> {
    sqlx::query_as(concat!(form_select!(), "where f.id = $1"))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// A new form's fields, checked and cleaned.
pub struct NewForm<'a> {
    pub name: &'a str,
    pub origin_code_id: Option<i64>,
    pub redirect_url: Option<String>,
    pub body_html: String,
    pub enabled: bool,
    pub style: Style,
}

pub async fn insert(conn: &mut PgConnection, form: NewForm<'_>) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "insert into forms (name, origin_code_id, redirect_url, body_html, enabled,
                            primary_color, background_color, logo_url, button_text)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         returning id",
    )
    .bind(form.name)
    .bind(form.origin_code_id)
    .bind(form.redirect_url)
    .bind(form.body_html)
    .bind(form.enabled)
    .bind(form.style.primary_color)
    .bind(form.style.background_color)
    .bind(form.style.logo_url)
    .bind(form.style.button_text)
    .fetch_one(conn)
    .await
}

/// A change to a form; None leaves a field as it is. `redirect_url: Some(None)` removes the redirect; a style
/// replaces the whole style.
pub struct FormChange<'a> {
    pub name: Option<&'a str>,
    pub origin_code_id: Option<i64>,
    pub redirect_url: Option<Option<String>>,
    pub body_html: Option<String>,
    pub enabled: Option<bool>,
    pub style: Option<Style>,
}

/// Applies `change` to the form `id`; false when there is no such form.
pub async fn update(
    conn: &mut PgConnection,
    id: i64,
    change: FormChange<'_>,
) -> Result<bool, sqlx::Error> {
    let style = change.style.as_ref();
    let changed = sqlx::query(
        "update forms set name = coalesce($2, name), origin_code_id = coalesce($3, origin_code_id),
                redirect_url = case when $4 then $5 else redirect_url end,
                body_html = coalesce($6, body_html), enabled = coalesce($7, enabled),
                primary_color = case when $8 then $9 else primary_color end,
                background_color = case when $8 then $10 else background_color end,
                logo_url = case when $8 then $11 else logo_url end,
                button_text = case when $8 then $12 else button_text end,
                updated = now()
         where id = $1",
    )
    .bind(id)
    .bind(change.name)
    .bind(change.origin_code_id)
    .bind(change.redirect_url.is_some())
    .bind(change.redirect_url.clone().flatten())
    .bind(change.body_html)
    .bind(change.enabled)
    .bind(style.is_some())
    .bind(style.and_then(|s| s.primary_color.as_deref()))
    .bind(style.and_then(|s| s.background_color.as_deref()))
    .bind(style.and_then(|s| s.logo_url.as_deref()))
    .bind(style.and_then(|s| s.button_text.as_deref()))
    .execute(conn)
    .await?;
    Ok(changed.rows_affected() > 0)
}

/// What the public viewer shows of an enabled form.
#[derive(Debug, sqlx::FromRow)]
pub struct Viewed {
    pub id: i64,
    pub name: String,
    pub body_html: String,
    pub redirect_url: Option<String>,
    #[sqlx(flatten)]
    pub style: Style,
}

/// The form `id` when it is enabled.
pub async fn enabled_form(conn: &mut PgConnection, id: i64) -> Result<Option<Viewed>, sqlx::Error> {
    sqlx::query_as(
        "select id, name, body_html, redirect_url, primary_color, background_color, logo_url, button_text
         from forms where id = $1 and enabled",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

#[derive(Debug, sqlx::FromRow)]
pub struct Signup {
    pub id: i64,
    pub form_id: Option<i64>,
    pub form_name: Option<String>,
    pub contact_id: i64,
    pub email: String,
    pub origin_code_id: Option<i64>,
    pub origin_code_name: Option<String>,
    pub referrer: Option<String>,
    pub created: DateTime<Utc>,
}

macro_rules! signup_select {
    () => {
        "select s.id, s.form_id, f.name as form_name, s.contact_id, s.email, s.origin_code_id,
                o.name as origin_code_name, s.referrer, s.created
         from external_signups s left join forms f on f.id = s.form_id
         left join origin_codes o on o.id = s.origin_code_id "
    };
}

/// Signups newest first, of one form and one address when given (the address in any case), at most `limit`.
pub async fn signups(
    conn: &mut PgConnection,
    form_id: Option<i64>,
    email: Option<&str>,
    limit: i64,
) -> Result<Vec<Signup>, sqlx::Error> {
    sqlx::query_as(concat!(
        signup_select!(),
        "where ($1::bigint is null or s.form_id = $1) and ($2::text is null or s.email = lower(btrim($2)))
         order by s.created desc, s.id desc limit $3"
    ))
    .bind(form_id)
    .bind(email)
    .bind(limit)
    .fetch_all(conn)
    .await
}

pub async fn signup(conn: &mut PgConnection, id: i64) -> Result<Option<Signup>, sqlx::Error> {
    sqlx::query_as(concat!(signup_select!(), "where s.id = $1"))
        .bind(id)
        .fetch_optional(conn)
        .await
}
