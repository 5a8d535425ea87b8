use super::ApiTags;
use crate::auth::{ClientAuth, EDIT_ROLE};
use crate::error::ApiError;
use crate::state::SharedState;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use tenancy::{Client, TenantTx};

pub struct SettingsApi;

/// The current client's app settings, named as the spec names them.
#[derive(Debug, Object)]
pub struct AppSettings {
    pub id: i64,
    pub client_id: i64,
    pub client_name: String,
    pub client_short: String,
    #[oai(rename = "mediaEnabled")]
    pub media_enabled: bool,
    #[oai(flatten)]
    pub revenue: RevenueSettings,
    #[oai(nullable, rename = "actblueWebhookUsername")]
    pub actblue_webhook_username: Option<String>,
    /// Whether a webhook password is set (it is never shown).
    #[oai(rename = "actblueWebhookPasswordSet")]
    pub actblue_webhook_password_set: bool,
    /// Election day, marked on the planning calendar.
    #[oai(nullable, rename = "electionDay")]
    pub election_day: Option<chrono::NaiveDate>,
}

/// Revenue settings: how dates are grouped, which origin code donors get, how codes are read and gifts credited.
#[derive(Debug, Object, sqlx::FromRow)]
pub struct RevenueSettings {
    /// IANA zone (e.g. America/New_York) for offset-less import dates and every day grouping.
    #[oai(rename = "timeZone")]
    pub time_zone: String,
    #[oai(rename = "actblueOriginCode")]
    pub actblue_origin_code: String,
    #[oai(rename = "winredOriginCode")]
    pub winred_origin_code: String,
    #[oai(rename = "refcodePattern")]
    pub refcode_pattern: String,
    #[oai(rename = "mailingRefcodePattern")]
    pub mailing_refcode_pattern: String,
    #[oai(rename = "attributionWindowDays")]
    pub attribution_window_days: i32,
    #[oai(rename = "donationDomains")]
    pub donation_domains: Vec<String>,
    #[oai(rename = "fiscalYearStart")]
    pub fiscal_year_start: i16,
}

/// Fields to change; absent fields stay as they are.
#[derive(Debug, Object)]
pub struct AppSettingsUpdate {
    #[oai(nullable, validator(min_length = 1, max_length = 200))]
    pub client_name: Option<String>,
    #[oai(nullable, rename = "mediaEnabled")]
    pub media_enabled: Option<bool>,
    #[oai(
        nullable,
        rename = "timeZone",
        validator(min_length = 1, max_length = 64)
    )]
    pub time_zone: Option<String>,
    #[oai(
        nullable,
        rename = "actblueOriginCode",
        validator(min_length = 1, max_length = 200)
    )]
    pub actblue_origin_code: Option<String>,
    #[oai(
        nullable,
        rename = "winredOriginCode",
        validator(min_length = 1, max_length = 200)
    )]
    pub winred_origin_code: Option<String>,
    #[oai(
        nullable,
        rename = "refcodePattern",
        validator(min_length = 1, max_length = 200)
    )]
    pub refcode_pattern: Option<String>,
    #[oai(
        nullable,
        rename = "mailingRefcodePattern",
        validator(min_length = 1, max_length = 200)
    )]
    pub mailing_refcode_pattern: Option<String>,
    #[oai(
        nullable,
        rename = "attributionWindowDays",
        validator(minimum(value = "0"), maximum(value = "90"))
    )]
    pub attribution_window_days: Option<i32>,
    #[oai(nullable, rename = "donationDomains", validator(max_items = 50))]
    pub donation_domains: Option<Vec<String>>,
    #[oai(
        nullable,
        rename = "fiscalYearStart",
        validator(minimum(value = "1"), maximum(value = "12"))
    )]
    pub fiscal_year_start: Option<i16>,
    /// ActBlue webhook user name; an empty string removes the webhook credentials.
    #[oai(
        nullable,
        rename = "actblueWebhookUsername",
        validator(max_length = 200)
    )]
    pub actblue_webhook_username: Option<String>,
    /// ActBlue webhook password (at least 12 characters); stored as an argon2id hash.
    #[oai(
        nullable,
        rename = "actblueWebhookPassword",
        validator(max_length = 200)
    )]
    pub actblue_webhook_password: Option<String>,
    /// Election day (YYYY-MM-DD); an empty string removes it.
    #[oai(nullable, rename = "electionDay", validator(max_length = 10))]
    pub election_day: Option<String>,
}

async fn read(tx: &mut TenantTx, client: &Client) -> Result<AppSettings, ApiError> {
    let (id, media_enabled, user, password_set, election_day): (
        i64,
        bool,
        Option<String>,
        bool,
        Option<chrono::NaiveDate>,
    ) = sqlx::query_as(
        "select id, media_enabled, actblue_webhook_username, actblue_webhook_password_hash is not null,
                election_day
         from app_settings",
    )
    .fetch_one(&mut **tx)
    .await?;
    let revenue: RevenueSettings = sqlx::query_as(
        "select time_zone, actblue_origin_code, winred_origin_code, refcode_pattern, mailing_refcode_pattern,
                attribution_window_days, donation_domains, fiscal_year_start
         from app_settings",
    )
    .fetch_one(&mut **tx)
    .await?;
    Ok(AppSettings {
        id,
        client_id: client.id,
        client_name: client.name.clone(),
        client_short: client.short_name.clone(),
        media_enabled,
        revenue,
        actblue_webhook_username: user,
        actblue_webhook_password_set: password_set,
        election_day,
    })
}

#[OpenApi(tag = "ApiTags::Settings")]
impl SettingsApi {
    /// App settings of the current client.
    #[oai(path = "/api", method = "get", operation_id = "getAppSettings")]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<AppSettings>, ApiError> {
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        let settings = read(&mut tx, &auth.0.client).await?;
        tx.commit().await?;
        Ok(Json(settings))
    }

    /// Updates the current client's app settings.
    #[oai(
        path = "/api/:id",
        method = "patch",
        operation_id = "updateAppSettings"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        body: Json<AppSettingsUpdate>,
    ) -> Result<Json<AppSettings>, ApiError> {
        // "edit role" is the client's administrator permission: its holder can already grant any permission, so
        // guarding the settings with it opens nothing new. Everyone may read them (the shell loads them).
        auth.0.require(EDIT_ROLE)?;
        let body = body.0;
        let mut tx = state.tenancy.begin(&auth.0.client).await?;
        if let Some(zone) = body.time_zone.as_deref() {
            let known: bool = sqlx::query_scalar(
                "select exists (select 1 from pg_timezone_names where name = $1)",
            )
            .bind(zone)
            .fetch_one(&mut *tx)
            .await?;
            if !known {
                return Err(ApiError::BadRequest(format!("Unknown time zone {zone:?}")));
            }
        }
        let password_hash = match body.actblue_webhook_password.as_deref() {
            Some(p) if p.chars().count() < 12 => {
                return Err(ApiError::BadRequest(
                    "The webhook password needs at least 12 characters".to_owned(),
                ))
            }
            Some(p) => Some(crate::auth::hash_password(p).map_err(ApiError::internal)?),
            None => None,
        };
        let domains: Option<Vec<String>> = body.donation_domains.map(|d| {
            d.iter()
                .map(|h| h.trim().to_ascii_lowercase())
                .filter(|h| !h.is_empty())
                .collect()
        });
        let election_day = match body.election_day.as_deref().map(str::trim) {
            None => None,
            Some("") => Some(None),
            Some(raw) => Some(Some(
                chrono::NaiveDate::parse_from_str(raw, "%Y-%m-%d").map_err(|_| {
                    ApiError::BadRequest("Election day must be a date like 2026-11-03".to_owned())
                })?,
            )),
        };
        let clear_webhook = body.actblue_webhook_username.as_deref().map(str::trim) == Some("");
        let old_pattern: String = sqlx::query_scalar("select refcode_pattern from app_settings")
            .fetch_one(&mut *tx)
            .await?;
        let updated = sqlx::query(
            "update app_settings set media_enabled = coalesce($2, media_enabled),
                 time_zone = coalesce($3, time_zone),
                 actblue_origin_code = coalesce($4, actblue_origin_code),
                 winred_origin_code = coalesce($5, winred_origin_code),
                 refcode_pattern = coalesce($6, refcode_pattern),
                 mailing_refcode_pattern = coalesce($7, mailing_refcode_pattern),
                 attribution_window_days = coalesce($8, attribution_window_days),
                 donation_domains = coalesce($9, donation_domains),
                 fiscal_year_start = coalesce($10, fiscal_year_start),
                 actblue_webhook_username = case when $13 then null
                                                 else coalesce($11, actblue_webhook_username) end,
                 actblue_webhook_password_hash = case when $13 then null
                                                      else coalesce($12, actblue_webhook_password_hash) end,
                 election_day = case when $14 then $15 else election_day end,
                 updated = now()
             where id = $1",
        )
        .bind(id.0)
        .bind(body.media_enabled)
        .bind(body.time_zone.as_deref().map(str::trim))
        .bind(body.actblue_origin_code.as_deref().map(str::trim))
        .bind(body.winred_origin_code.as_deref().map(str::trim))
        .bind(body.refcode_pattern.as_deref().map(str::trim))
        .bind(body.mailing_refcode_pattern.as_deref().map(str::trim))
        .bind(body.attribution_window_days)
        .bind(domains)
        .bind(body.fiscal_year_start)
        .bind(body.actblue_webhook_username.as_deref().map(str::trim))
        .bind(password_hash)
        .bind(clear_webhook)
        .bind(election_day.is_some())
        .bind(election_day.flatten())
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() == 0 {
            return Err(ApiError::NotFound("App settings not found".to_owned()));
        }
        // Codes already stored were read with the old pattern: a new one applies to them too, in this transaction.
        if let Some(pattern) = body.refcode_pattern.as_deref().map(str::trim) {
            if pattern != old_pattern {
                let pattern = domain::CodePattern::new(pattern);
                store::revenue::reparse_source_codes(&mut tx, &pattern).await?;
            }
        }
        let client = match body.client_name.as_deref() {
            Some(name) => state.tenancy.rename_client(auth.0.client.id, name).await?,
            None => auth.0.client.clone(),
        };
        let settings = read(&mut tx, &client).await?;
        tx.commit().await?;
        Ok(Json(settings))
    }
}
