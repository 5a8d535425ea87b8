//! The certificates SNS signs with. Pinned (`SES_SNS_CERT_PEM`): only those, and nothing is ever fetched.
//! Otherwise a message's `SigningCertURL` is fetched — only over HTTPS from `sns.<region>.amazonaws.com` — and
//! kept in memory, so a burst of notifications costs one fetch.

use crate::state::AppState;
use rsa::pkcs8::DecodePublicKey;
use rsa::RsaPublicKey;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;
use tenancy::Client;
use x509_cert::der::{DecodePem, Encode};
use x509_cert::Certificate;

/// Certificates kept from fetches; more than this and the oldest are dropped (SNS uses a handful).
const CACHED: usize = 32;
const MAX_CERT_BYTES: usize = 64 * 1024;

pub struct SnsCertificates {
    pinned: Option<Vec<RsaPublicKey>>,
    fetched: Mutex<HashMap<String, RsaPublicKey>>,
    http: reqwest::Client,
}

/// The RSA key of one PEM certificate.
fn key_of(cert: &Certificate) -> Result<RsaPublicKey, String> {
    let spki = cert
        .tbs_certificate
        .subject_public_key_info
        .to_der()
        .map_err(|e| e.to_string())?;
    RsaPublicKey::from_public_key_der(&spki).map_err(|e| e.to_string())
}

/// Whether `url` is where SNS keeps its signing certificates (or its subscription confirmations).
pub(super) fn is_sns_url(url: &str, path_suffix: Option<&str>) -> bool {
    let Ok(url) = reqwest::Url::parse(url) else {
        return false;
    };
    let host_ok = url.host_str().is_some_and(|h| {
        let Some(region) = h.strip_prefix("sns.").and_then(|r| {
            r.strip_suffix(".amazonaws.com")
                .or_else(|| r.strip_suffix(".amazonaws.com.cn"))
        }) else {
            return false;
        };
        !region.is_empty()
            && region
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    });
    url.scheme() == "https"
        && host_ok
        && url.port().is_none()
        && url.username().is_empty()
        && url.password().is_none()
        && path_suffix.is_none_or(|s| url.path().ends_with(s))
}

impl SnsCertificates {
    pub fn new(pinned: Option<&Path>) -> Result<Self, String> {
        let pinned = match pinned {
            Some(path) => {
                let pem = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
                let certs = Certificate::load_pem_chain(&pem).map_err(|e| e.to_string())?;
                if certs.is_empty() {
                    return Err(format!("{}: no certificate", path.display()));
                }
                Some(certs.iter().map(key_of).collect::<Result<Vec<_>, _>>()?)
            }
            None => None,
        };
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(5))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Self {
            pinned,
            fetched: Mutex::new(HashMap::new()),
            http,
        })
    }

    pub fn pinned(&self) -> bool {
        self.pinned.is_some()
    }

    /// The keys a message naming `cert_url` may be signed with; none when the URL is not SNS's or cannot be read.
    pub(super) async fn keys(&self, cert_url: &str) -> Vec<RsaPublicKey> {
        if let Some(pinned) = &self.pinned {
            return pinned.clone();
        }
        if !is_sns_url(cert_url, Some(".pem")) {
            return Vec::new();
        }
        if let Some(key) = self
            .fetched
            .lock()
            .ok()
            .and_then(|m| m.get(cert_url).cloned())
        {
            return vec![key];
        }
        match self.fetch(cert_url).await {
            Ok(key) => {
                if let Ok(mut fetched) = self.fetched.lock() {
                    if fetched.len() >= CACHED {
                        fetched.clear();
                    }
                    fetched.insert(cert_url.to_owned(), key.clone());
                }
                vec![key]
            }
            Err(e) => {
                tracing::warn!(error = %e, url = cert_url, "SNS signing certificate not fetched");
                Vec::new()
            }
        }
    }

    async fn fetch(&self, url: &str) -> Result<RsaPublicKey, String> {
        let answer = self
            .http
            .get(url)
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .map_err(|e| e.to_string())?;
        let body = answer.bytes().await.map_err(|e| e.to_string())?;
        if body.len() > MAX_CERT_BYTES {
            return Err("certificate too large".to_owned());
        }
        let cert = Certificate::from_pem(&body).map_err(|e| e.to_string())?;
        key_of(&cert)
    }

    /// Confirms an SNS subscription by visiting its SubscribeURL, in the background — only when certificates are
    /// not pinned (a pinned deployment is a test or an operator who confirms by hand from the System page).
    pub(super) fn confirm_later(
        &self,
        state: &AppState,
        client: &Client,
        topic: String,
        url: String,
    ) {
        if self.pinned() || !is_sns_url(&url, None) {
            return;
        }
        let http = self.http.clone();
        let tenancy = state.tenancy.clone();
        let client = client.clone();
        tokio::spawn(async move {
            let visited = http
                .get(&url)
                .send()
                .await
                .and_then(|r| r.error_for_status());
            match visited {
                Ok(_) => {
                    let noted = crate::auth::in_client(&tenancy, &client, async |tx| {
                        Ok(
                            store::deliverability::webhooks::confirm_subscription(tx, &topic)
                                .await?,
                        )
                    })
                    .await;
                    if let Err(e) = noted {
                        tracing::warn!(error = %telemetry::Chain(&e), "SNS confirmation not noted");
                    }
                }
                Err(e) => tracing::warn!(error = %e, topic, "SNS subscription not confirmed"),
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::is_sns_url;

    #[test]
    fn only_sns_hosts_over_https() {
        let good = "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem";
        assert!(is_sns_url(good, Some(".pem")));
        assert!(!is_sns_url(
            "http://sns.us-east-1.amazonaws.com/x.pem",
            Some(".pem")
        ));
        assert!(!is_sns_url(
            "https://sns.us-east-1.amazonaws.com.evil.org/x.pem",
            Some(".pem")
        ));
        assert!(!is_sns_url(
            "https://evil.org/sns.us-east-1.amazonaws.com/x.pem",
            Some(".pem")
        ));
        assert!(!is_sns_url(
            "https://sns.us-east-1.amazonaws.com:8443/x.pem",
            Some(".pem")
        ));
        assert!(!is_sns_url(
            "https://sns.us-east-1.amazonaws.com/x.txt",
            Some(".pem")
        ));
    }
}
