//! Sender domains on the System page: the From domains the client's mail is DKIM-signed for (Compass generates
//! the key, seals it, and never gives the private half back), the DNS record to publish, the warm-up plan, and the
//! domain check. Set up by an administrator, like the app settings.

mod check;

pub use check::{DomainCheck, RecordCheck, RecordStatus};

use super::ApiTags;
use crate::auth::{ClientAuth, EDIT_ROLE};
use crate::error::ApiError;
use crate::routes::Deleted;
use crate::state::SharedState;
use chrono::{DateTime, NaiveDate, Utc};
use mail::dkim::Algorithm;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};
use store::deliverability::sender_domains::{self, NewSenderDomain, SenderDomain as Row};

pub struct SenderDomainsApi;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum DkimAlgorithm {
    /// RSA 2048 (every receiver verifies it).
    Rsa,
    /// Ed25519 (short; not every receiver verifies it yet).
    Ed25519,
}

impl From<DkimAlgorithm> for Algorithm {
    fn from(a: DkimAlgorithm) -> Self {
        match a {
            DkimAlgorithm::Rsa => Algorithm::Rsa,
            DkimAlgorithm::Ed25519 => Algorithm::Ed25519,
        }
    }
}

/// A sender domain. The private key is never part of it.
#[derive(Debug, Object)]
pub struct SenderDomain {
    pub id: i64,
    pub domain: String,
    #[oai(nullable, rename = "bounceDomain")]
    pub bounce_domain: Option<String>,
    pub selector: String,
    pub algorithm: DkimAlgorithm,
    /// Where the DKIM record goes: `<selector>._domainkey.<domain>`.
    #[oai(rename = "dnsName")]
    pub dns_name: String,
    /// The TXT record's value to publish there.
    #[oai(rename = "dnsRecord")]
    pub dns_record: String,
    #[oai(nullable, rename = "warmupStart")]
    pub warmup_start: Option<NaiveDate>,
    #[oai(nullable, rename = "warmupFirstDayCap")]
    pub warmup_first_day_cap: Option<i32>,
    #[oai(rename = "warmupGrowthPercent")]
    pub warmup_growth_percent: i32,
    /// Today's cap under the warm-up plan (UTC day); none without a plan.
    #[oai(nullable, rename = "warmupCapToday")]
    pub warmup_cap_today: Option<i64>,
    pub created: DateTime<Utc>,
}

impl From<Row> for SenderDomain {
    fn from(r: Row) -> Self {
        let algorithm = if r.dkim_algorithm == "ed25519" {
            DkimAlgorithm::Ed25519
        } else {
            DkimAlgorithm::Rsa
        };
        let cap = r.cap_on(Utc::now().date_naive());
        Self {
            id: r.id,
            dns_name: format!("{}._domainkey.{}", r.dkim_selector, r.domain),
            dns_record: mail::dkim::dns_record(
                algorithm.into(),
                r.dkim_public_key.as_deref().unwrap_or(""),
            ),
            domain: r.domain,
            bounce_domain: r.bounce_domain,
            selector: r.dkim_selector,
            algorithm,
            warmup_start: r.warmup_start,
            warmup_first_day_cap: r.warmup_daily_cap,
            warmup_growth_percent: r.warmup_growth_percent,
            warmup_cap_today: cap,
            created: r.created,
        }
    }
}

#[derive(Debug, Object)]
pub struct SenderDomainInput {
    /// The From domain, e.g. example.org.
    #[oai(validator(max_length = 253))]
    pub domain: String,
    /// The domain of the envelope sender (bounces); the From domain when absent.
    #[oai(nullable, rename = "bounceDomain", validator(max_length = 253))]
    pub bounce_domain: Option<String>,
    pub algorithm: DkimAlgorithm,
    /// The DKIM selector; `compass` when absent.
    #[oai(nullable, validator(max_length = 63))]
    pub selector: Option<String>,
}

/// A warm-up plan; no start date removes it.
#[derive(Debug, Object)]
pub struct WarmupInput {
    #[oai(nullable)]
    pub start: Option<NaiveDate>,
    #[oai(
        nullable,
        rename = "firstDayCap",
        validator(minimum(value = "1"), maximum(value = "10000000"))
    )]
    pub first_day_cap: Option<i32>,
    #[oai(
        rename = "growthPercent",
        validator(minimum(value = "0"), maximum(value = "1000"))
    )]
    pub growth_percent: i32,
}

#[derive(ApiResponse)]
pub enum CreatedDomain {
    #[oai(status = 201)]
    Created(Json<SenderDomain>),
}

/// A host name as DNS takes it: lower case, dot-separated labels of letters, digits and hyphens.
fn host_name(raw: &str, what: &str) -> Result<String, ApiError> {
    let name = raw.trim().trim_end_matches('.').to_ascii_lowercase();
    let labels: Vec<&str> = name.split('.').collect();
    let valid = name.len() <= 253
        && labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        });
    if valid {
        Ok(name)
    } else {
        Err(ApiError::BadRequest(format!(
            "{what} must be a domain name like example.org"
        )))
    }
}

fn selector(raw: Option<&str>) -> Result<String, ApiError> {
    let s = raw
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or("compass")
        .to_ascii_lowercase();
    let valid = s.len() <= 63
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !s.starts_with('-');
    if valid {
        Ok(s)
    } else {
        Err(ApiError::BadRequest(
            "The selector may hold letters, digits and hyphens only".to_owned(),
        ))
    }
}

fn not_found() -> ApiError {
    ApiError::NotFound("Sender domain not found".to_owned())
}

#[OpenApi(tag = "ApiTags::Settings")]
impl SenderDomainsApi {
    /// The client's sender domains with their DKIM records and warm-up plans.
    #[oai(
        path = "/api/sender-domains",
        method = "get",
        operation_id = "listSenderDomains"
    )]
    async fn list(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
    ) -> Result<Json<Vec<SenderDomain>>, ApiError> {
        let rows = auth
            .0
            .tx(&state, EDIT_ROLE, async |tx| {
                Ok(sender_domains::list(tx).await?)
            })
            .await?;
        Ok(Json(rows.into_iter().map(SenderDomain::from).collect()))
    }

    /// Adds a sender domain: Compass generates its DKIM key and keeps the private half sealed.
    #[oai(
        path = "/api/sender-domains",
        method = "post",
        operation_id = "createSenderDomain"
    )]
    async fn create(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        input: Json<SenderDomainInput>,
    ) -> Result<CreatedDomain, ApiError> {
        auth.0.check(EDIT_ROLE)?;
        let input = input.0;
        let domain = host_name(&input.domain, "The domain")?;
        let bounce_domain = input
            .bounce_domain
            .as_deref()
            .filter(|b| !b.trim().is_empty())
            .map(|b| host_name(b, "The bounce domain"))
            .transpose()?;
        let selector = selector(input.selector.as_deref())?;
        let Some(keys) = state.dkim.clone() else {
            return Err(ApiError::Unavailable(
                "DKIM keys cannot be stored: DKIM_KEY_SECRET is not set on this server".to_owned(),
            ));
        };
        let algorithm: Algorithm = input.algorithm.into();
        let owner = mail::dkim::owner(auth.0.client.id, &domain);
        // RSA key generation takes a moment of CPU: off the async threads.
        let (sealed, public) = tokio::task::spawn_blocking(move || {
            let pair = mail::dkim::generate(algorithm)?;
            Ok::<_, mail::dkim::DkimError>((keys.seal(&pair.private, &owner)?, pair.public))
        })
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
        let row = auth
            .0
            .tx(&state, EDIT_ROLE, async |tx| {
                sender_domains::create(
                    tx,
                    &NewSenderDomain {
                        domain: &domain,
                        bounce_domain: bounce_domain.as_deref(),
                        selector: &selector,
                        algorithm: algorithm.as_str(),
                        sealed_private_key: &sealed,
                        public_key: &public,
                    },
                )
                .await?
                .ok_or_else(|| ApiError::Conflict(format!("{domain} is already a sender domain")))
            })
            .await?;
        Ok(CreatedDomain::Created(Json(row.into())))
    }

    /// Removes a sender domain and its key: its mail is no longer signed.
    #[oai(
        path = "/api/sender-domains/:id",
        method = "delete",
        operation_id = "deleteSenderDomain"
    )]
    async fn delete(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Deleted, ApiError> {
        auth.0
            .tx(&state, EDIT_ROLE, async |tx| {
                if sender_domains::delete(tx, id.0).await? {
                    Ok(Deleted::Deleted)
                } else {
                    Err(not_found())
                }
            })
            .await
    }

    /// Sets or removes a sender domain's warm-up plan.
    #[oai(
        path = "/api/sender-domains/:id/warmup",
        method = "put",
        operation_id = "updateSenderDomainWarmup"
    )]
    async fn warmup(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
        input: Json<WarmupInput>,
    ) -> Result<Json<SenderDomain>, ApiError> {
        let input = input.0;
        let cap = match (input.start, input.first_day_cap) {
            (Some(_), None) => {
                return Err(ApiError::BadRequest(
                    "A warm-up plan needs the first day's cap".to_owned(),
                ))
            }
            (Some(_), cap) => cap,
            (None, _) => None,
        };
        let row = auth
            .0
            .tx(&state, EDIT_ROLE, async |tx| {
                sender_domains::set_warmup(tx, id.0, input.start, cap, input.growth_percent)
                    .await?
                    .ok_or_else(not_found)
            })
            .await?;
        Ok(Json(row.into()))
    }

    /// Looks up the domain's SPF, DKIM and DMARC records and says whether its mail aligns and what to change.
    #[oai(
        path = "/api/sender-domains/:id/check",
        method = "get",
        operation_id = "checkSenderDomain"
    )]
    async fn check(
        &self,
        state: Data<&SharedState>,
        auth: ClientAuth,
        id: Path<i64>,
    ) -> Result<Json<DomainCheck>, ApiError> {
        let row = auth
            .0
            .tx(&state, EDIT_ROLE, async |tx| {
                sender_domains::get(tx, id.0).await?.ok_or_else(not_found)
            })
            .await?;
        Ok(Json(check::check(&state.dns, &row).await))
    }
}

/// The DKIM signers of mail from `from_address` (one at most): for a test send, signed as the real send signs.
pub(crate) async fn signers_for(
    state: &SharedState,
    tx: &mut tenancy::TenantTx,
    client_id: i64,
    from_address: &str,
) -> Result<mail::dkim::Signers, ApiError> {
    let domains: Vec<String> = mail::dkim::domain_of(from_address).into_iter().collect();
    let rows = sender_domains::signing_keys(tx, &domains).await?;
    mail::dkim::open_signers(
        state.dkim.as_ref(),
        client_id,
        rows.iter().map(|r| {
            (
                r.domain.as_str(),
                r.dkim_selector.as_str(),
                r.dkim_algorithm.as_str(),
                r.dkim_private_key.as_slice(),
            )
        }),
    )
    .map_err(|e| ApiError::Unavailable(format!("The message cannot be signed: {e}")))
}
