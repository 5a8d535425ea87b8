//! What the public form endpoints share: a short-lived cache of clients and forms (the internet hits these paths
//! hardest), per-address rate limits held in Redis (so they hold across api processes), and a view counter that
//! adds views up in memory and writes the sums.

use crate::auth::in_client;
use crate::error::ApiError;
use crate::identity::limits::AuthLimits;
use moka::sync::Cache;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;
use tenancy::{Client, Tenancy};

const CLIENT_TTL: Duration = Duration::from_secs(30);
const FORM_TTL: Duration = Duration::from_secs(5);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    View,
    Submit,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Self::View => "view",
            Self::Submit => "submit",
        }
    }
}

/// The rate limits' window.
const RATE_WINDOW_SECS: u64 = 60;

pub struct PublicForms {
    /// By short name; `None` for a name that is unknown or disabled, so probing unknown names costs no query.
    clients: Cache<String, Option<Client>>,
    /// Whether a form (client id, form id) exists and is enabled.
    forms: Cache<(i64, i64), bool>,
    views: Mutex<HashMap<(i64, i64), i64>>,
    /// Requests per address per minute; 0 turns the limit off.
    views_per_minute: u32,
    submits_per_minute: u32,
}

fn poisoned<T>(_: T) -> ApiError {
    ApiError::internal("a lock was poisoned")
}

impl PublicForms {
    pub fn new(views_per_minute: u32, submits_per_minute: u32) -> Self {
        Self {
            clients: Cache::builder()
                .time_to_live(CLIENT_TTL)
                .max_capacity(10_000)
                .build(),
            forms: Cache::builder()
                .time_to_live(FORM_TTL)
                .max_capacity(100_000)
                .build(),
            views: Mutex::new(HashMap::new()),
            views_per_minute,
            submits_per_minute,
        }
    }

    /// The enabled client named by the `client-short` header, or 404: an unknown short name learns nothing more.
    pub async fn client(&self, tenancy: &Tenancy, short: &str) -> Result<Client, ApiError> {
        let not_available = || ApiError::NotFound("This form is not available".to_owned());
        if let Some(cached) = self.clients.get(short) {
            return cached.ok_or_else(not_available);
        }
        if short.len() > 31 {
            return Err(not_available());
        }
        let found = tenancy.enabled_client_by_short(short).await?;
        self.clients.insert(short.to_owned(), found.clone());
        found.ok_or_else(not_available)
    }

    /// Whether the form exists and is enabled, asked of the database at most every few seconds.
    pub async fn form_enabled(
        &self,
        tenancy: &Tenancy,
        client: &Client,
        form_id: i64,
    ) -> Result<bool, ApiError> {
        let key = (client.id, form_id);
        if let Some(enabled) = self.forms.get(&key) {
            return Ok(enabled);
        }
        let enabled: bool = in_client(tenancy, client, async |tx| {
            Ok(store::form_views::form_enabled(tx, form_id).await?)
        })
        .await?;
        self.forms.insert(key, enabled);
        Ok(enabled)
    }

    /// Forgets a form's cached state (after an edit), so a disabled form stops taking views at once.
    pub fn forget_form(&self, client_id: i64, form_id: i64) {
        self.forms.invalidate(&(client_id, form_id));
    }

    /// One-minute windows per address and action, opened by the address's first request.
    pub async fn check_rate(
        &self,
        limits: &AuthLimits,
        ip: Option<IpAddr>,
        action: Action,
    ) -> Result<(), ApiError> {
        let limit = match action {
            Action::View => self.views_per_minute,
            Action::Submit => self.submits_per_minute,
        };
        let (Some(ip), true) = (ip, limit > 0) else {
            return Ok(());
        };
        let count = limits
            .count(&format!("form:{}:{ip}", action.as_str()), RATE_WINDOW_SECS)
            .await
            .map_err(|e| {
                tracing::error!(error = %telemetry::Chain(&e), "rate limit store unavailable");
                ApiError::Unavailable("This form is unavailable; try again shortly".to_owned())
            })?;
        if count > limit {
            return Err(ApiError::TooManyRequests(
                "Too many requests; try again in a minute".to_owned(),
            ));
        }
        Ok(())
    }

    pub fn count_view(&self, client_id: i64, form_id: i64) -> Result<(), ApiError> {
        *self
            .views
            .lock()
            .map_err(poisoned)?
            .entry((client_id, form_id))
            .or_insert(0) += 1;
        Ok(())
    }

    /// Writes the views counted since the last flush. Views whose write fails are put back for the next one.
    pub async fn flush_views(&self, tenancy: &Tenancy) {
        let pending: Vec<((i64, i64), i64)> = match self.views.lock() {
            Ok(mut views) => views.drain().collect(),
            Err(_) => return,
        };
        let mut by_client: HashMap<i64, Vec<(i64, i64)>> = HashMap::new();
        for ((client, form), n) in pending {
            by_client.entry(client).or_default().push((form, n));
        }
        for (client_id, forms) in by_client {
            if let Err(e) = write_views(tenancy, client_id, &forms).await {
                tracing::warn!(client_id, error = %telemetry::Chain(&e), "view counts not written; will retry");
                if let Ok(mut views) = self.views.lock() {
                    for (form, n) in forms {
                        *views.entry((client_id, form)).or_insert(0) += n;
                    }
                }
            }
        }
    }
}

async fn write_views(
    tenancy: &Tenancy,
    client_id: i64,
    forms: &[(i64, i64)],
) -> Result<(), ApiError> {
    let Some(client) = tenancy.enabled_client(client_id).await? else {
        return Ok(());
    };
    let (ids, counts): (Vec<i64>, Vec<i64>) = forms.iter().copied().unzip();
    in_client(tenancy, &client, async |tx| {
        store::form_views::add_views(tx, &ids, &counts).await?;
        Ok(())
    })
    .await
}
