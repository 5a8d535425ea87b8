use super::ApiTags;
use crate::auth::{ClientAuth, Needs, EDIT_ROLE};
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
    #[oai(flatten)]
    pub deliverability: DeliverabilitySettings,
}

/// When soft bounces suppress an address, and when a send pauses itself.
#[derive(Debug, Object)]
pub struct DeliverabilitySettings {
    /// Soft bounces within `softBounceDays` that suppress an address.
    #[oai(rename = "softBounceLimit")]
    pub soft_bounce_limit: i32,
    #[oai(rename = "softBounceDays")]
    pub soft_bounce_days: i32,
    /// The guard judges a send once this many copies were delivered.
    #[oai(rename = "guardAfterDelivered")]
    pub guard_after_delivered: i32,
    /// A complaint rate (percent of delivered) past this pauses the send.
    #[oai(rename = "complaintPausePercent")]
    pub complaint_pause_percent: String,
    /// A hard-bounce rate (percent of sent) past this pauses the send.
    #[oai(rename = "hardBouncePausePercent")]
    pub hard_bounce_pause_percent: String,
}

/// Revenue settings: how dates are grouped, which origin code donors get, how codes are read and gifts credited.
#[derive(Debug, Object)]
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
    #[oai(
        nullable,
        rename = "softBounceLimit",
        validator(minimum(value = "1"), maximum(value = "100"))
    )]
    pub soft_bounce_limit: Option<i32>,
    #[oai(
        nullable,
        rename = "softBounceDays",
        validator(minimum(value = "1"), maximum(value = "365"))
    )]
    pub soft_bounce_days: Option<i32>,
    #[oai(
        nullable,
        rename = "guardAfterDelivered",
        validator(minimum(value = "1"), maximum(value = "10000000"))
    )]
    pub guard_after_delivered: Option<i32>,
    /// Percent, more than 0 and at most 100, up to three decimal places (e.g. 0.3).
    #[oai(nullable, rename = "complaintPausePercent", validator(max_length = 12))]
    pub complaint_pause_percent: Option<String>,
    /// Percent, more than 0 and at most 100, up to three decimal places (e.g. 5).
    #[oai(
        nullable,
        rename = "hardBouncePausePercent",
        validator(max_length = 12)
    )]
    pub hard_bounce_pause_percent: Option<String>,
}

/// A percent limit as the settings store it: more than 0, at most 100, at most three decimal places.
fn checked_percent<'a>(raw: Option<&'a str>, what: &str) -> Result<Option<&'a str>, ApiError> {
    let Some(raw) = raw.map(str::trim) else {
        return Ok(None);
    };
    let well_formed = !raw.is_empty()
        && raw.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && raw.matches('.').count() <= 1
        && raw
            .split('.')
            .nth(1)
            .is_none_or(|d| d.len() <= 3 && !d.is_empty())
        && !raw.starts_with('.');
    let value: f64 = if well_formed {
        raw.parse().unwrap_or(0.0)
    } else {
        0.0
    };
    if !well_formed || value <= 0.0 || value > 100.0 {
        return Err(ApiError::BadRequest(format!(
            "{what} must be a percent above 0 and at most 100, with up to three decimals"
        )));
    }
    Ok(Some(raw))
}

impl From<store::settings::Revenue> for RevenueSettings {
    fn from(r: store::settings::Revenue) -> Self {
        Self {
            time_zone: r.time_zone,
            actblue_origin_code: r.actblue_origin_code,
            winred_origin_code: r.winred_origin_code,
            refcode_pattern: r.refcode_pattern,
            mailing_refcode_pattern: r.mailing_refcode_pattern,
            attribution_window_days: r.attribution_window_days,
            donation_domains: r.donation_domains,
            fiscal_year_start: r.fiscal_year_start,
        }
    }
}

async fn read(tx: &mut TenantTx, client: &Client) -> Result<AppSettings, ApiError> {
    let general = store::settings::general(tx).await?;
    let revenue = store::settings::revenue(tx).await?;
    let guard = store::settings::deliverability(tx).await?;
    Ok(AppSettings {
        id: general.id,
        client_id: client.id,
        client_name: client.name.clone(),
        client_short: client.short_name.clone(),
        media_enabled: general.media_enabled,
        revenue: revenue.into(),
        actblue_webhook_username: general.actblue_webhook_username,
        actblue_webhook_password_set: general.actblue_webhook_password_set,
        election_day: general.election_day,
        deliverability: DeliverabilitySettings {
            soft_bounce_limit: guard.soft_bounce_limit,
            soft_bounce_days: guard.soft_bounce_days,
            guard_after_delivered: guard.guard_after_delivered,
            complaint_pause_percent: guard.complaint_pause_percent,
            hard_bounce_pause_percent: guard.hard_bounce_pause_percent,
        },
    })
}

/// The update as the store takes it: trimmed texts, the webhook password hashed, the election day parsed.
async fn checked_change(body: &AppSettingsUpdate) -> Result<store::settings::Change<'_>, ApiError> {
    let password_hash = match body.actblue_webhook_password.as_deref() {
        Some(p) if p.chars().count() < 12 => {
            return Err(ApiError::BadRequest(
                "The webhook password needs at least 12 characters".to_owned(),
            ))
        }
        // argon2 is deliberately slow: keep it off the async executor.
        Some(p) => {
            let p = p.to_owned();
            Some(
                tokio::task::spawn_blocking(move || crate::auth::hash_password(&p))
                    .await
                    .map_err(ApiError::internal)?
                    .map_err(ApiError::internal)?,
            )
        }
        None => None,
    };
    let election_day = match body.election_day.as_deref().map(str::trim) {
        None => None,
        Some("") => Some(None),
        Some(raw) => Some(Some(
            chrono::NaiveDate::parse_from_str(raw, "%Y-%m-%d").map_err(|_| {
                ApiError::BadRequest("Election day must be a date like 2026-11-03".to_owned())
            })?,
        )),
    };
    Ok(store::settings::Change {
        media_enabled: body.media_enabled,
        time_zone: body.time_zone.as_deref().map(str::trim),
        actblue_origin_code: body.actblue_origin_code.as_deref().map(str::trim),
        winred_origin_code: body.winred_origin_code.as_deref().map(str::trim),
        refcode_pattern: body.refcode_pattern.as_deref().map(str::trim),
        mailing_refcode_pattern: body.mailing_refcode_pattern.as_deref().map(str::trim),
        attribution_window_days: body.attribution_window_days,
        donation_domains: body.donation_domains.as_ref().map(|d| {
            d.iter()
                .map(|h| h.trim().to_ascii_lowercase())
                .filter(|h| !h.is_empty())
                .collect()
        }),
        fiscal_year_start: body.fiscal_year_start,
        actblue_webhook_username: body.actblue_webhook_username.as_deref().map(str::trim),
        actblue_webhook_password_hash: password_hash,
        clear_webhook: body.actblue_webhook_username.as_deref().map(str::trim) == Some(""),
        election_day,
        soft_bounce_limit: body.soft_bounce_limit,
        soft_bounce_days: body.soft_bounce_days,
        guard_after_delivered: body.guard_after_delivered,
        complaint_pause_percent: checked_percent(
            body.complaint_pause_percent.as_deref(),
            "The complaint limit",
        )?,
        hard_bounce_pause_percent: checked_percent(
            body.hard_bounce_pause_percent.as_deref(),
            "The hard-bounce limit",
        )?,
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
        let client = &auth.0.client;
        let settings = auth
            .0
            .tx(&state, Needs::Nothing, async |tx| read(tx, client).await)
            .await?;
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
        let body = body.0;
        let body_changes_webhook =
            body.actblue_webhook_username.is_some() || body.actblue_webhook_password.is_some();
        let settings = auth
            .0
            .tx(&state, EDIT_ROLE, async |tx| {
                if let Some(zone) = body.time_zone.as_deref() {
                    if !store::settings::time_zone_known(tx, zone).await? {
                        return Err(ApiError::BadRequest(format!("Unknown time zone {zone:?}")));
                    }
                }
                let change = checked_change(&body).await?;
                let new_pattern = change.refcode_pattern;
                let old_pattern = store::settings::refcode_pattern(tx).await?;
                if !store::settings::update(tx, id.0, change).await? {
                    return Err(ApiError::NotFound("App settings not found".to_owned()));
                }
                // Codes already stored were read with the old pattern: a new one applies to them too, in this
                // transaction.
                if let Some(pattern) = new_pattern {
                    if pattern != old_pattern {
                        let pattern = domain::CodePattern::new(pattern);
                        store::revenue::reparse_source_codes(tx, &pattern).await?;
                    }
                }
                let client = match body.client_name.as_deref() {
                    Some(name) => state.tenancy.rename_client(auth.0.client.id, name).await?,
                    None => auth.0.client.clone(),
                };
                read(tx, &client).await
            })
            .await?;
        // Credentials verified under the old password are not taken any longer (here at once, elsewhere soon).
        if body_changes_webhook {
            state.webhook_gate.forget(settings.client_id);
        }
        Ok(Json(settings))
    }
}
